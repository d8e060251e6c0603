"""The deck-picture cache holds one picture a deck and language, replaced when the deck changes
(it grew without bound in Redis: a key per update time)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.core.cache import cache
from django.test import Client
from django.utils import timezone

from decks.models import Deck
from tests.support.deck_helpers import make_deck

pytestmark = pytest.mark.django_db


def test_the_deck_picture_cache_holds_one_picture_a_deck_and_language(alice) -> None:
    cache.clear()
    deck = make_deck(alice, public=True)
    client = Client()
    first = client.get(f"/decks/{deck.pk}/image.png", HTTP_ACCEPT_LANGUAGE="en").content
    for n, name in enumerate(("一", "二", "三"), start=1):  # three changes, each drawn again
        Deck.objects.filter(pk=deck.pk).update(name=name, updated=timezone.now() + timedelta(seconds=n))
        assert client.get(f"/decks/{deck.pk}/image.png", HTTP_ACCEPT_LANGUAGE="en").status_code == 200
    client.get(f"/decks/{deck.pk}/image.png", HTTP_ACCEPT_LANGUAGE="zh-hant")
    if isinstance(cache._cache, dict):  # locmem's own store
        keys = [key for key in cache._cache if f"deck-image:{deck.pk}:" in key]
    else:  # Redis: its keys
        keys = cache._cache.get_client(None, write=False).keys(f"*deck-image:{deck.pk}:*")
    assert len(keys) == 2  # one a language, each replaced on change
    assert client.get(f"/decks/{deck.pk}/image.png", HTTP_ACCEPT_LANGUAGE="en").content != first
