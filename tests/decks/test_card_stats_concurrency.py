"""Two counts of what the community plays at once (two workers): both finish, and every card
keeps one row of figures. Real threads and transactions, on SQLite here and PostgreSQL in CI."""

from __future__ import annotations

import pytest

from catalog.models import Card
from decks.card_stats import compute
from decks.models import CardStats
from tests.support.concurrency import at_once
from tests.support.deck_helpers import make_deck

pytestmark = pytest.mark.django_db(transaction=True)


def test_two_counts_at_once_leave_one_row_a_card(racer) -> None:
    make_deck(racer, name="公開", main={"YXJQ-003": 3}, public=True)
    compute()  # rows to write over
    assert at_once(compute, compute) == [1, 1]
    assert CardStats.objects.count() == Card.objects.count()
    assert CardStats.objects.get(card__code="YXJQ-003").deck_count == 1
