"""Whole catalogue answers kept for anonymous API clients (catalog.stored_answers): the second
identical request is answered by the WSGI application's front door, before Django, with the same
body and headers, its own request id and log line, the throttles counted, and a catalogue
change seen at once."""

from __future__ import annotations

import json
import logging

import pytest
from django.core.cache import caches
from django.test import Client
from django_prometheus.middleware import Metrics
from rest_framework.throttling import SimpleRateThrottle

from catalog import cache_version
from catalog.stored_answers import stored_answers
from tests.support import front_door

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("local_caches")]


def served_whole() -> float:
    return stored_answers._value.get()


def test_the_second_anonymous_request_is_served_whole_with_the_same_answer() -> None:
    first = front_door.get("/api/cards/?page_size=50", accept_encoding="gzip")
    before = served_whole()
    second = front_door.get("/api/cards/?page_size=50", accept_encoding="gzip")
    assert served_whole() == before + 1
    assert second.status == 200
    assert second.body == first.body and len(first.body) > 1000
    for header in (
        "Content-Type",
        "Content-Encoding",
        "ETag",
        "Cache-Control",
        "Vary",
        "Content-Security-Policy",
        "X-Frame-Options",
        "X-Content-Type-Options",
        "Referrer-Policy",
    ):
        assert second[header] == first[header], header
    # made for each request, never replayed
    assert second["X-Request-ID"] != first["X-Request-ID"]


def test_a_stored_answer_is_the_answer_django_gives(client: Client) -> None:
    front_door.get("/api/cards/YXJQ-003/")
    assert front_door.get("/api/cards/YXJQ-003/").body == client.get("/api/cards/YXJQ-003/").content


def test_an_answer_from_the_front_door_is_logged_and_counted(caplog: pytest.LogCaptureFixture) -> None:
    front_door.get("/api/sets/")
    requests = Metrics.get_instance().requests_total
    before = requests._value.get()
    with caplog.at_level(logging.INFO, logger="zongheng.requests"):
        caplog.clear()
        answer = front_door.get("/api/sets/", x_request_id="proxy-id-7")
    [line] = [json.loads(r.getMessage()) for r in caplog.records if r.name == "zongheng.requests"]
    assert line["request_id"] == answer["X-Request-ID"] == "proxy-id-7"
    assert (line["method"], line["path"], line["status"], line["user"]) == ("GET", "/api/sets/", 200, None)
    assert requests._value.get() == before + 1


def test_a_held_etag_gets_a_bodyless_304() -> None:
    etag = front_door.get("/api/cards/YXJQ-003/")["ETag"]
    before = served_whole()
    again = front_door.get("/api/cards/YXJQ-003/", if_none_match=etag)
    assert again.status == 304 and again.body == b""
    assert again["ETag"] == etag
    assert served_whole() == before + 1


def test_head_has_the_headers_and_no_body() -> None:
    full = front_door.get("/api/sets/")
    head = front_door.call("HEAD", "/api/sets/")
    assert head.status == 200 and head.body == b""
    assert head["Content-Length"] == full["Content-Length"] == str(len(full.body))


def test_a_catalogue_change_is_seen_at_once() -> None:
    from catalog.models import Card

    front_door.get("/api/cards/YXJQ-003/")
    front_door.get("/api/cards/YXJQ-003/")
    Card.objects.filter(code="YXJQ-003").update(text="新的技能文字")
    cache_version.bump()
    assert "新的技能文字" in json.loads(front_door.get("/api/cards/YXJQ-003/").body)["text"]


def test_signed_in_or_cookie_carrying_requests_take_the_whole_stack(alice_client: Client) -> None:
    front_door.get("/api/sets/")
    before = served_whole()
    session = alice_client.cookies["sessionid"].value
    assert front_door.get("/api/sets/", cookie=f"sessionid={session}").status == 200
    assert front_door.get("/api/sets/", authorization="Token nonsense").status == 401
    assert front_door.get("/api/sets/", cookie="django_language=en").status == 200
    assert front_door.call("POST", "/api/sets/").status in (403, 405)
    assert served_whole() == before


def test_answers_served_whole_are_throttled_as_drf_counts(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(SimpleRateThrottle.THROTTLE_RATES, "anon", "3/minute")
    before = served_whole()
    statuses = [front_door.get("/api/sets/").status for _ in range(5)]
    assert statuses == [200, 200, 200, 429, 429]
    assert served_whole() == before + 2  # the first went to Django, the refused ones too
    refused = front_door.get("/api/sets/")
    assert refused.status == 429 and int(refused["Retry-After"]) > 0


def test_errors_and_other_parts_of_the_api_are_never_kept() -> None:
    for _ in range(2):
        assert front_door.get("/api/cards/NOPE-999/").status == 404
        assert front_door.get("/api/cards/?cost=").status == 400
        assert front_door.get("/api/cards/?unknown=1").status == 200
    assert not [k for k in caches["default"]._cache if "catalog-answer:" in k]


def test_a_database_that_cannot_be_read_is_answered_by_django(monkeypatch: pytest.MonkeyPatch) -> None:
    from django.db import OperationalError

    front_door.get("/api/sets/")

    def unreachable() -> str:
        raise OperationalError("connection refused")

    monkeypatch.setattr(cache_version, "_read", unreachable)
    answer = front_door.get("/api/sets/")
    assert answer.status == 503
    assert answer["Retry-After"] == "10"
