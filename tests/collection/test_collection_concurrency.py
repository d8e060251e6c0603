"""Twenty simultaneous "+1" requests on one row give exactly +20: increments happen in the
database. Real threads, real transactions, on whichever database the suite runs against
(SQLite locally, PostgreSQL too in CI)."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from django.test import Client

from catalog.loading import load_catalog
from catalog.models import Card
from collection.models import CollectionChange, CollectionEntry
from tests.support.concurrency import at_once

THREADS = 20


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("via", ["page", "api"])
def test_twenty_simultaneous_plus_ones(via: str) -> None:
    load_catalog()  # real transactions: this test brings its own committed catalogue
    user = get_user_model().objects.create_user("racer", password="x-very-long-password-1")
    card = Card.objects.get(code="YXJQ-003")
    clients = [Client() for _ in range(THREADS)]
    for client in clients:
        client.force_login(user)

    def plus_one(client: Client) -> Callable[[], int]:
        def send() -> int:
            if via == "page":
                response = client.post("/collection/cards/YXJQ-003/", {"action": "inc"}, HTTP_HX_REQUEST="true")
            else:
                response = client.patch("/api/collection/YXJQ-003/", '{"add": 1}', content_type="application/json")
            return response.status_code

        return send

    # at_once raises the first error a thread met, with its traceback.
    statuses = at_once(*(plus_one(client) for client in clients))

    assert statuses == [200] * THREADS, statuses
    entry = CollectionEntry.objects.get(user=user, card=card)
    assert entry.quantity == THREADS
    changes = CollectionChange.objects.filter(user=user).order_by("quantity_after")
    assert [c.quantity_after for c in changes] == list(range(1, THREADS + 1))  # each saw its own step
    assert connection.vendor in ("sqlite", "postgresql")
