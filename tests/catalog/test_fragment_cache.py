"""Fragments cached until the catalogue changes: the filter panel (catalogue, my collection, the
builder) and the builder's list of generals. Each is keyed by what it shows, besides the
catalogue's version and the language: the query (the panel), the deck's general (the list). A
change to any of them shows at once."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from catalog import cache_version
from catalog.models import Card
from tests.support.deck_helpers import make_deck

pytestmark = pytest.mark.django_db


def panel(html: str) -> str:
    return html[html.index('<div class="search-row">') : html.index('<div class="filter-grid">')]


def test_the_filter_panel_follows_the_language_and_the_query(alice_client: Client) -> None:
    first = panel(alice_client.get("/cards/", HTTP_ACCEPT_LANGUAGE="zh-Hant").content.decode())
    again = panel(alice_client.get("/cards/", HTTP_ACCEPT_LANGUAGE="zh-Hant").content.decode())
    assert first == again and "亂世黃巾" in first and "篩選與排序" in first
    # The language: the simplified page has its own panel.
    simplified = panel(alice_client.get("/cards/", HTTP_ACCEPT_LANGUAGE="zh-CN").content.decode())
    assert "乱世黄巾" in simplified and "筛选与排序" in simplified
    # The query: the values chosen, and a refused value with its message.
    chosen = alice_client.get("/collection/?faction=wei", HTTP_ACCEPT_LANGUAGE="zh-Hant").content.decode()
    assert re.search(r'name="faction" value="wei" checked', chosen)
    refused = alice_client.get("/cards/?cost_min=x", HTTP_ACCEPT_LANGUAGE="en")
    assert refused.status_code == 400 and '<details class="filter-panel" open>' in refused.content.decode()
    assert '<details class="filter-panel">' in alice_client.get("/cards/", HTTP_ACCEPT_LANGUAGE="en").content.decode()


def test_the_builders_generals_follow_the_deck_and_the_catalogue(alice, alice_client: Client) -> None:
    deck = make_deck(alice, general=None)

    def options() -> str:
        html = alice_client.get(f"/decks/{deck.pk}/build/", HTTP_ACCEPT_LANGUAGE="zh-Hant").content.decode()
        start = html.index('class="general-select"')
        return html[start : html.index("</select>", start)]

    assert 'value="" selected' in options()
    alice_client.post(f"/decks/{deck.pk}/change/", {"action": "general", "card": "WJ-001"})
    chosen = options()
    assert 'value="WJ-001" selected' in chosen and 'value="" selected' not in chosen
    name = Card.objects.get(code="WJ-001").name
    Card.objects.filter(code="WJ-001").update(name=name + "（修訂）")
    cache_version.bump()
    assert f"{name}（修訂）" in options()
