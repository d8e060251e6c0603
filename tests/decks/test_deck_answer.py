"""An answer made by a function (decks.api.decks.deck_json) is the answer its serializer
documents."""

from __future__ import annotations

from typing import get_type_hints

import pytest

from decks.api.decks import DeckAnswer, DeckOutputSerializer, deck_json
from decks.models import Deck
from tests.conftest import logged_in
from tests.support.deck_helpers import make_deck

pytestmark = pytest.mark.django_db


def test_the_deck_answer_has_exactly_the_documented_fields(alice) -> None:
    documented = set(DeckOutputSerializer().fields)
    assert set(get_type_hints(DeckAnswer)) == documented
    deck = make_deck(alice, name="型別")
    answer = deck_json(deck)
    # groups (and link, when unlisted): to its owner only; liked, bookmarked: to a logged-in reader
    assert set(answer) == documented - {"owned", "missing", "groups", "liked", "bookmarked", "link"}
    assert set(deck_json(deck, reader=alice)) == documented - {"owned", "missing", "liked", "bookmarked", "link"}
    Deck.objects.filter(pk=deck.pk).update(visibility="unlisted", link_token="t" * 22)
    listed = logged_in(alice).get("/api/decks/").json()["results"][0]
    assert set(listed) == documented and listed == logged_in(alice).get(f"/api/decks/{deck.pk}/").json() | {
        "owned": listed["owned"],
        "missing": listed["missing"],
    }
