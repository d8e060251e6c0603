"""Retries count once: a write sent with an Idempotency-Key (the API's header, or the hidden field
every form of the site carries) is done once; its retry gets the first answer again, another
request under the same key a 422; a write that failed leaves neither its changes nor its key;
two sends at the same moment do it once (threads, SQLite and PostgreSQL)."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.db import OperationalError
from django.test import Client
from django.utils import timezone
from rest_framework.authtoken.models import Token

from accounts.models import IdempotentAnswer
from catalog.loading import load_catalog
from collection import services
from collection.models import CollectionEntry
from tests.support.concurrency import at_once

ADD = '{"add": 1}'


def _owned(user, code: str = "YXJQ-003") -> int:
    entry = CollectionEntry.objects.filter(user=user, card__code=code).first()
    return entry.quantity if entry else 0


@pytest.mark.django_db
def test_an_api_write_sent_again_with_its_key_is_answered_again_not_done_again(alice, alice_client) -> None:
    first = alice_client.patch(
        "/api/collection/YXJQ-003/", ADD, content_type="application/json", HTTP_IDEMPOTENCY_KEY="k-1"
    )
    again = alice_client.patch(
        "/api/collection/YXJQ-003/", ADD, content_type="application/json", HTTP_IDEMPOTENCY_KEY="k-1"
    )
    assert first.status_code == again.status_code == 200 and again["Idempotent-Replayed"] == "true"
    assert again.json() == first.json() and _owned(alice) == 1
    other = alice_client.patch(
        "/api/collection/YXJQ-003/", '{"add": 2}', content_type="application/json", HTTP_IDEMPOTENCY_KEY="k-1"
    )
    assert other.status_code == 422 and _owned(alice) == 1
    fresh = alice_client.patch(
        "/api/collection/YXJQ-003/", ADD, content_type="application/json", HTTP_IDEMPOTENCY_KEY="k-2"
    )
    assert fresh.status_code == 200 and _owned(alice) == 2
    bad = alice_client.patch(
        "/api/collection/YXJQ-003/", ADD, content_type="application/json", HTTP_IDEMPOTENCY_KEY="k\u00e9y"
    )
    assert bad.status_code == 400 and _owned(alice) == 2


@pytest.mark.django_db
def test_keys_are_each_user_s_and_work_with_a_token(alice, bob) -> None:
    for user in (alice, bob):
        token = Token.objects.create(user=user)
        client = Client(HTTP_AUTHORIZATION=f"Token {token.key}")
        for _ in range(3):
            sent = client.post(
                "/api/decks/",
                {"name": "同一副", "list": "3 新兵"},
                content_type="application/json",
                HTTP_IDEMPOTENCY_KEY="same",
            )
            assert sent.status_code == 201
    assert {u.username: u.decks.count() for u in (alice, bob)} == {"alice": 1, "bob": 1}


@pytest.mark.django_db
def test_a_write_that_failed_leaves_neither_its_change_nor_its_key(alice, alice_client, monkeypatch) -> None:
    real = services.change_counts

    def then_fail(*args, **kwargs):
        real(*args, **kwargs)  # the row is written, then the database goes away
        raise OperationalError("server closed the connection unexpectedly")

    monkeypatch.setattr("collection.api.change_counts", then_fail, raising=False)
    monkeypatch.setattr(services, "change_counts", then_fail)
    client = Client(raise_request_exception=False)
    client.force_login(alice)
    failed = client.patch("/api/collection/YXJQ-003/", ADD, content_type="application/json", HTTP_IDEMPOTENCY_KEY="r")
    assert failed.status_code == 503 and _owned(alice) == 0 and not IdempotentAnswer.objects.exists()
    monkeypatch.undo()
    retried = client.patch("/api/collection/YXJQ-003/", ADD, content_type="application/json", HTTP_IDEMPOTENCY_KEY="r")
    assert retried.status_code == 200 and _owned(alice) == 1


@pytest.mark.django_db
def test_a_form_sent_twice_is_done_once_and_live_taps_each_count(alice, alice_client) -> None:
    page = alice_client.get("/cards/YXJQ-003/").content.decode()
    keys = re.findall(r'name="idempotency_key" value="([0-9a-f]{32})"', page)
    assert keys and len(set(keys)) == len(keys)  # every form of the page its own key
    form = {"action": "inc", "idempotency_key": keys[0]}
    first = alice_client.post("/collection/cards/YXJQ-003/", form)
    again = alice_client.post("/collection/cards/YXJQ-003/", form)  # a double tap, a reload that posts
    assert first.status_code == again.status_code and again["Idempotent-Replayed"] == "true"
    assert _owned(alice) == 1
    for _ in range(2):  # htmx's live taps send the same form on purpose: each counts
        alice_client.post("/collection/cards/YXJQ-003/", form, HTTP_HX_REQUEST="true")
    assert _owned(alice) == 3


@pytest.mark.django_db
def test_a_key_is_kept_a_day(alice, alice_client) -> None:
    alice_client.patch("/api/collection/YXJQ-003/", ADD, content_type="application/json", HTTP_IDEMPOTENCY_KEY="d")
    IdempotentAnswer.objects.update(created=timezone.now() - timedelta(days=1, seconds=1))
    alice_client.patch("/api/collection/YXJQ-003/", ADD, content_type="application/json", HTTP_IDEMPOTENCY_KEY="d")
    assert _owned(alice) == 2 and IdempotentAnswer.objects.count() == 1


@pytest.mark.django_db(transaction=True)
def test_the_same_key_sent_at_once_is_done_once() -> None:
    load_catalog()  # real transactions: this test brings its own committed catalogue
    user = get_user_model().objects.create_user("twice", password="x-very-long-password-1")

    def send() -> int:
        client = Client()
        client.force_login(user)
        return client.patch(
            "/api/collection/YXJQ-003/", ADD, content_type="application/json", HTTP_IDEMPOTENCY_KEY="once"
        ).status_code

    statuses = at_once(*[send] * 6)
    assert set(statuses) <= {200, 409} and 200 in statuses
    assert _owned(user) == 1
