"""Finding public decks by the cards they play (#51's first part): `card=` with an optional least
count, `without=`, and the deck query language (has:, -has:, by:, updated, general:, words of
the name), on the deck list page and the API alike, with names in either script, pinyin, codes
and WD- aliases; every bad input a 400 that says what is wrong."""

from __future__ import annotations

import re
from datetime import timedelta
from urllib.parse import quote

import pytest
from django.test import Client
from django.utils import timezone

from decks.models import Deck, DeckName
from decks.search import cards_condition
from tests.support.deck_helpers import LEGAL_MAIN, make_deck

pytestmark = pytest.mark.django_db

XINBING, HUOGONG, JIU = "YXJQ-003", "YXJQ-010", "YXJQ-002"


@pytest.fixture
def decks(alice, bob):
    """Three public decks and a private one: which play 新兵 (how many) and 火攻."""
    plain = make_deck(alice, name="蜀漢步兵", public=True)  # 新兵 ×3, no 火攻
    fire = dict(LEGAL_MAIN, **{HUOGONG: 3})
    fire[XINBING] = 1
    burning = make_deck(bob, name="火攻流", public=True, general="WJ-002", main=fire)  # 新兵 ×1, 火攻 ×3
    no_recruits = dict(LEGAL_MAIN)
    del no_recruits[XINBING]
    without = make_deck(bob, name="无新兵", public=True, main=no_recruits | {JIU: 3})
    hidden = make_deck(alice, name="秘密", public=False)  # plays 新兵: never listed to others
    Deck.objects.filter(pk=burning.pk).update(like_count=2)
    return {"plain": plain, "fire": burning, "without": without, "hidden": hidden}


def _page(query: str, client: Client | None = None) -> tuple[int, set[str]]:
    answer = (client or Client()).get(f"/decks/?{query}")
    names = set(re.findall(r'<a href="/decks/\d+/">(?:<span lang="zh[^"]*">)?([^<]+)', answer.content.decode()))
    return answer.status_code, names


def _api(query: str) -> tuple[int, set[str]]:
    answer = Client().get(f"/api/decks/?public=1&{query}")
    return answer.status_code, {d["name"] for d in answer.json()["results"]} if answer.status_code == 200 else set()


@pytest.mark.parametrize(
    ("query", "found"),
    [
        ("card=新兵&without=火攻", {"蜀漢步兵"}),
        ("card=新兵", {"蜀漢步兵", "火攻流"}),
        ("card=xinbing", {"蜀漢步兵", "火攻流"}),  # pinyin
        ("card=YXJQ-003:2", {"蜀漢步兵"}),  # a code with a least count
        ("card=新兵:3&card=酒", set()),
        ("card=酒&card=要塞守军", {"无新兵"}),  # Simplified
        ("without=新兵", {"无新兵"}),
        ("card=新兵:4", set()),
    ],
)
def test_decks_are_found_by_the_cards_they_play_on_the_page_and_the_api(decks, query: str, found: set[str]) -> None:
    assert _page(query) == (200, found)
    assert _api(query) == (200, found)


@pytest.mark.parametrize(
    ("q", "found"),
    [
        ("has:新兵:3 -has:火攻", {"蜀漢步兵"}),
        ("has:xinbing -has:huogong", {"蜀漢步兵"}),
        ("by:bob", {"火攻流", "无新兵"}),
        ("by:BOB has:火攻", {"火攻流"}),
        ("general:曹操", {"火攻流"}),
        ("general:WJ-001 -has:酒", {"蜀漢步兵"}),
        ("步兵", {"蜀漢步兵"}),  # a word of the deck's name, in either script
        ("步兵 or 火攻流", {"蜀漢步兵", "火攻流"}),
        (f"updated>{(timezone.now() - timedelta(days=1)).date()}", {"蜀漢步兵", "火攻流", "无新兵"}),
        (f"updated<{(timezone.now() - timedelta(days=1)).date()}", set()),
        ("likes>=1", {"火攻流"}),
        ("likes:0 has:新兵", {"蜀漢步兵"}),
    ],
)
def test_the_deck_query_language(decks, q: str, found: set[str]) -> None:
    assert _page(f"q={quote(q)}") == (200, found)
    assert _api(f"q={quote(q)}") == (200, found)


@pytest.mark.parametrize(
    ("query", "said"),
    [
        ("card=不存在的牌", "No card is called “不存在的牌”"),
        ("card=新兵:0", "A deck holds 1 to 60 copies"),
        ("card=新兵:99", "A deck holds 1 to 60 copies"),
        ("without=%00", ""),  # refused at the door, as every NUL byte is
        ("card=" + "新" * 61, "at most 60 characters"),
        ("&".join(["card=新兵"] * 9), "at most 8 cards"),
        ("q=" + quote("has:"), "has: needs a value"),
        ("q=" + quote("has:沒有這張"), "No card is called"),
        ("q=" + quote("likes>=many"), "likes needs a whole number"),
        ("q=" + quote("liked>=5"), "Unknown keyword “liked”"),
        ("q=" + quote("updated>yesterday"), "updated needs a day"),
        ("q=" + quote("by<alice"), "by takes : or ="),
        ("q=" + quote(" ".join(f"has:{c}" for c in ["新兵", "酒", "火攻"] * 3)), "at most 8 cards"),
    ],
)
def test_a_search_that_cannot_be_read_is_a_400_that_says_why(decks, query: str, said: str, english) -> None:
    page = Client().get(f"/decks/?{query}")
    assert page.status_code == 400 and said in page.content.decode()
    api = Client().get(f"/api/decks/?public=1&{query}")
    assert api.status_code == 400 and said in str(api.json())


def test_a_private_deck_is_never_found_by_others_and_mine_are_searched_too(decks, alice) -> None:
    assert "秘密" not in _page("card=新兵")[1] and "秘密" not in _api("card=新兵")[1]
    mine = Client()
    mine.force_login(alice)
    listed = mine.get("/api/decks/?card=新兵&without=火攻").json()["results"]
    assert {d["name"] for d in listed} == {"蜀漢步兵", "秘密"}  # my own decks, private ones too


def test_the_card_set_follows_every_save(decks) -> None:
    from decks.data import DeckData
    from decks.services import save_deck, snapshot_of

    deck = decks["plain"]
    assert dict(deck.names.values_list("name_key", "copies"))["新兵"] == 3
    data = snapshot_of(deck)
    main = dict(data.main)
    del main[XINBING]
    save_deck(deck, DeckData(data.name, data.format, data.general, main | {HUOGONG: 2}, {}))
    stored = dict(DeckName.objects.filter(deck=deck).values_list("name_key", "copies"))
    assert "新兵" not in stored and stored["火攻"] == 2
    assert _page("card=火攻:2") == (200, {"蜀漢步兵", "火攻流"})
    Deck.objects.filter(pk=deck.pk).delete()
    assert not DeckName.objects.filter(deck_id=deck.pk).exists()


def test_the_page_keeps_the_search_in_its_fields(decks, english) -> None:
    html = Client().get("/decks/?card=新兵:2&card=酒&without=火攻&q=" + quote("by:alice")).content.decode()
    values = re.findall(r'name="card" value="([^"]*)"', html)
    assert values == ["新兵:2", "酒", ""]  # what was asked, and a field for one more
    assert re.findall(r'name="without" value="([^"]*)"', html) == ["火攻"]
    assert 'name="q" value="by:alice"' in html and 'list="deck-card-names"' in html


def test_each_deck_keeps_its_card_names_and_postgresql_searches_them_by_index(decks) -> None:
    from django.db import connection

    plain = Deck.objects.get(pk=decks["plain"].pk)
    assert plain.card_names.split("|") == sorted(DeckName.objects.filter(deck=plain).values_list("name_key", flat=True))
    if connection.vendor != "postgresql":
        return  # SQLite reads the DeckName rows
    found = Deck.objects.filter(cards_condition(["新兵", "YXJQ-004"], ["火攻"]))
    with connection.cursor() as cursor:
        # Few rows here: a plain scan would win; without it, the planner says what it can use.
        cursor.execute("SET LOCAL enable_seqscan = off")
        cursor.execute("SET LOCAL enable_indexscan = off")
        sql, params = found.values("pk").query.sql_with_params()
        cursor.execute("EXPLAIN " + sql, params)
        plan = "\n".join(row[0] for row in cursor.fetchall())
    assert "deck_card_names_gin" in plan, plan


@pytest.mark.django_db(transaction=True)
def test_the_migration_fills_the_card_names_of_every_deck(alice) -> None:
    from django.db import connection
    from django.db.migrations.executor import MigrationExecutor

    from catalog.loading import load_catalog

    load_catalog()  # real transactions: this test brings its own committed catalogue
    deck = make_deck(alice, name="舊牌庫", public=True)
    expected = Deck.objects.get(pk=deck.pk).card_names
    Deck.objects.filter(pk=deck.pk).update(card_names="")
    executor = MigrationExecutor(connection)
    executor.migrate([("decks", "0018_featured_decks")])
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(executor.loader.graph.leaf_nodes())
    assert expected and Deck.objects.get(pk=deck.pk).card_names == expected
