"""Whole catalogue answers kept for anonymous API clients (catalog.stored_answers): the second
identical request is answered before sessions, CSRF, authentication and DRF, with the same body
and headers, its own request id, the throttles counted, and a catalogue change seen at once."""

from __future__ import annotations

import pytest
from django.core.cache import caches
from django.test import Client
from rest_framework.throttling import SimpleRateThrottle

from catalog import cache_version
from catalog.stored_answers import stored_answers

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("local_caches")]


def served_whole() -> float:
    return stored_answers._value.get()


def test_the_second_anonymous_request_is_served_whole_with_the_same_answer(client: Client) -> None:
    first = client.get("/api/cards/?page_size=50", HTTP_ACCEPT_ENCODING="gzip")
    before = served_whole()
    second = client.get("/api/cards/?page_size=50", HTTP_ACCEPT_ENCODING="gzip")
    assert served_whole() == before + 1
    assert second.status_code == 200
    assert second.content == first.content
    for header in ("Content-Type", "Content-Encoding", "ETag", "Cache-Control", "Vary", "Content-Security-Policy"):
        assert second[header] == first[header], header
    assert second["X-Frame-Options"] == first["X-Frame-Options"]
    # made for each request, never replayed
    assert second["X-Request-ID"] != first["X-Request-ID"]


def test_a_held_etag_gets_a_bodyless_304(client: Client) -> None:
    etag = client.get("/api/cards/YXJQ-003/")["ETag"]
    before = served_whole()
    again = client.get("/api/cards/YXJQ-003/", HTTP_IF_NONE_MATCH=etag)
    assert again.status_code == 304 and again.content == b""
    assert served_whole() == before + 1


def test_a_catalogue_change_is_seen_at_once(client: Client) -> None:
    from catalog.models import Card

    client.get("/api/cards/YXJQ-003/")
    Card.objects.filter(code="YXJQ-003").update(text="新的技能文字")
    cache_version.bump()
    assert "新的技能文字" in client.get("/api/cards/YXJQ-003/").json()["text"]


def test_signed_in_or_cookie_carrying_requests_take_the_whole_stack(client: Client, alice_client: Client) -> None:
    client.get("/api/sets/")
    before = served_whole()
    assert alice_client.get("/api/sets/").status_code == 200
    assert client.get("/api/sets/", HTTP_AUTHORIZATION="Token nonsense").status_code == 401
    client.cookies["django_language"] = "en"
    assert client.get("/api/sets/").status_code == 200
    assert served_whole() == before


def test_answers_served_whole_are_throttled_as_drf_counts(client: Client, monkeypatch) -> None:
    monkeypatch.setitem(SimpleRateThrottle.THROTTLE_RATES, "anon", "3/minute")
    statuses = [client.get("/api/sets/").status_code for _ in range(5)]
    assert statuses == [200, 200, 200, 429, 429]
    refused = client.get("/api/sets/")
    assert refused.status_code == 429 and int(refused["Retry-After"]) > 0


def test_errors_and_other_parts_of_the_api_are_never_kept(client: Client) -> None:
    for _ in range(2):
        assert client.get("/api/cards/NOPE-999/").status_code == 404
        assert client.get("/api/cards/?cost=").status_code == 400
    assert not [k for k in caches["default"]._cache if "catalog-answer:" in k]
