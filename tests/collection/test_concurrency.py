"""Collection writes that two tabs can make at once, made at once: real threads, real transactions,
on SQLite here and PostgreSQL in CI. Each fails without its row lock."""

from __future__ import annotations

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client

from collection.models import CollectionChange, CollectionEntry
from collection.services import change_counts
from tests.conftest import logged_in
from tests.support.concurrency import at_once

pytestmark = pytest.mark.django_db(transaction=True)


def test_confirming_an_import_twice_at_once_applies_it_once(racer) -> None:
    first = logged_in(racer)
    upload = SimpleUploadedFile("c.csv", b"code,quantity\nYXJQ-003,2\nYXJQ-004,1\n", "text/csv")
    assert first.post("/collection/import/", {"file": upload, "mode": "add"}).status_code == 200
    second = Client()
    second.cookies = first.cookies  # the same browser: one session, two tabs (or a double click)

    statuses = at_once(
        lambda: first.post("/collection/import/", {"confirm": "1"}).status_code,
        lambda: second.post("/collection/import/", {"confirm": "1"}).status_code,
    )
    assert sorted(statuses) == [302, 400]
    assert CollectionEntry.objects.get(user=racer, card__code="YXJQ-003").quantity == 2
    assert CollectionChange.objects.filter(user=racer, source="import").count() == 2


def test_an_import_racing_a_plus_one_for_a_new_card_never_500s(racer) -> None:
    from catalog.models import Card

    client = logged_in(racer)
    upload = SimpleUploadedFile("c.csv", b"code,quantity\nYXJQ-005,2\n", "text/csv")
    assert client.post("/collection/import/", {"file": upload, "mode": "add"}).status_code == 200
    card = Card.objects.get(code="YXJQ-005")

    results = at_once(
        lambda: client.post("/collection/import/", {"confirm": "1"}).status_code,
        lambda: change_counts(racer, card, add=1).quantity,
    )
    assert results[0] in (302, 400)
    quantity = CollectionEntry.objects.get(user=racer, card=card).quantity
    assert quantity == (3 if results[0] == 302 else 1)  # applied after the +1 was seen, or refused whole


def test_undoing_one_change_twice_at_once_undoes_it_once(racer) -> None:
    from catalog.models import Card

    card = Card.objects.get(code="YXJQ-003")
    change_counts(racer, card, add=2)
    change = CollectionChange.objects.get(user=racer)

    def undo() -> int:
        return logged_in(racer).post(f"/collection/history/{change.pk}/undo/", {"confirm": "yes"}).status_code

    statuses = at_once(undo, undo)
    assert sorted(statuses)[0] in (200, 302) and 500 not in statuses
    assert CollectionEntry.objects.get(user=racer, card=card).quantity == 0
