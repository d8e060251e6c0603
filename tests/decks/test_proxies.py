"""Proxies to print: the deck's faces at real card size, nine to an A4 page."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from tests.support.deck_helpers import LEGAL_MAIN, make_deck

pytestmark = pytest.mark.django_db


def test_every_copy_and_the_general_nine_to_a_page(alice) -> None:
    deck = make_deck(alice, public=True)
    page = Client().get(f"/decks/{deck.pk}/proxies/").content.decode()
    faces = re.findall(r'<img class="proxy" lang="[^"]*" src="/cards/([^/]+)/face.svg"', page)
    assert len(faces) == 1 + sum(LEGAL_MAIN.values())
    assert faces[0] == "WJ-001" and faces.count("YXJQ-003") == 3
    assert page.count('class="proxy-page"') == -(-len(faces) // 9)


def test_a_private_decks_proxies_are_its_owners_only(alice, bob) -> None:
    deck = make_deck(alice)
    owner = Client()
    owner.force_login(alice)
    assert owner.get(f"/decks/{deck.pk}/proxies/").status_code == 200
    other = Client()
    other.force_login(bob)
    assert other.get(f"/decks/{deck.pk}/proxies/").status_code == 404
    assert Client().get(f"/decks/{deck.pk}/proxies/").status_code == 404


def test_a_huge_count_stops_at_thirty_pages(alice) -> None:
    deck = make_deck(alice, public=True, main={"YXJQ-003": 999})
    page = Client().get(f"/decks/{deck.pk}/proxies/").content.decode()
    assert page.count('<img class="proxy"') == 270 and 'role="status"' in page
