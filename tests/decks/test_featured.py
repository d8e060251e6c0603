"""Decks of the week (#51): staff pick public decks; the home page shows the picks, the week's
most liked and the newest public decks, at a fixed number of queries."""

from __future__ import annotations

import pytest
from django.test import Client

from decks.models import FeaturedDeck
from tests.conftest import logged_in
from tests.support.deck_helpers import make_deck

pytestmark = pytest.mark.django_db


def test_staff_feature_a_deck_and_the_home_page_shows_it(alice, bob, charlie, english) -> None:
    picked = make_deck(alice, name="本週精選", public=True)
    liked = make_deck(alice, name="大家喜歡", public=True)
    make_deck(alice, name="私人", public=False)
    logged_in(bob).post(f"/api/decks/{liked.pk}/like/")
    assert logged_in(bob).post(f"/decks/{picked.pk}/feature/").status_code == 404  # staff only
    assert logged_in(charlie).post(f"/decks/{picked.pk}/feature/").status_code == 302
    assert FeaturedDeck.objects.filter(deck=picked).count() == 1
    home = Client().get("/").content.decode()
    featured_part = home[home.index("Decks of the week") : home.index("Most liked this week")]
    assert "本週精選" in featured_part and "大家喜歡" not in featured_part
    liked_part = home[home.index("Most liked this week") : home.index("Newest public decks")]
    assert "大家喜歡" in liked_part
    assert "私人" not in home
    assert "Deck of the week" in logged_in(charlie).get(f"/decks/{picked.pk}/").content.decode()
    logged_in(charlie).post(f"/decks/{picked.pk}/feature/", {"action": "unfeature"})
    assert "Decks of the week" not in Client().get("/").content.decode()


def test_only_public_decks_are_featured(alice, charlie) -> None:
    private = make_deck(alice, name="私人", public=False)
    assert logged_in(charlie).post(f"/decks/{private.pk}/feature/").status_code == 404  # staff cannot read it
    charlie_deck = make_deck(charlie, name="自己的私人", public=False)
    assert logged_in(charlie).post(f"/decks/{charlie_deck.pk}/feature/").status_code == 400
    assert not FeaturedDeck.objects.exists()
