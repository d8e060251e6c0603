""" "What to buy next": the few copies that make the most shared decks buildable from my collection."""

from __future__ import annotations

import pytest
from django.test import Client

from decks import services
from decks.close import close_enough
from tests.conftest import logged_in
from tests.support.collection_helpers import own
from tests.support.deck_helpers import LEGAL_MAIN, make_deck
from tests.support.group_helpers import make_group

pytestmark = pytest.mark.django_db


def _without(card: str, **more: int) -> dict[str, int]:
    """LEGAL_MAIN less one troop's three copies, plus `more` (by code, underscores for dashes)."""
    main = {code: n for code, n in LEGAL_MAIN.items() if code != card}
    return main | {code.replace("_", "-"): n for code, n in more.items()}


@pytest.fixture
def shelf(alice, bob, charlie):
    """Alice owns every card of LEGAL_MAIN three times but 新兵 (YXJQ-003) twice, and 劉備; no 重裝騎士
    (YXJQ-018). Others' decks around her, each named by what it lacks."""
    own(alice, WJ_001=1, **{code.replace("-", "_"): 3 for code in LEGAL_MAIN} | {"YXJQ_003": 2})
    group = make_group(alice, charlie)
    decks = {
        "a": make_deck(bob, name="差一張新兵 A", public=True),
        "b": make_deck(bob, name="差一張新兵 B", public=True),
        "c": make_deck(bob, name="差四張", public=True, main=_without("YXJQ-017", YXJQ_018=3)),
        "d": make_deck(charlie, name="團裡的", main=_without("YXJQ-017", YXJQ_018=1, YXJQ_001=3)),
        "private": make_deck(bob, name="私人的"),
        "mine": make_deck(alice, name="我自己的", public=True),
        "illegal": make_deck(bob, name="不合法", public=True, main=LEGAL_MAIN | {"YXJQ-004": 4}),
    }
    services.set_groups(decks["d"], [group])
    assert not decks["illegal"].is_legal
    return decks


def _buy(suggestion) -> dict[str, int]:
    return dict(suggestion.buy)


def test_the_purchase_that_unlocks_most_comes_first(alice, shelf) -> None:
    found = close_enough(alice, 3)
    first = found[0]
    assert _buy(first) == {"YXJQ-003": 1, "YXJQ-018": 1}
    assert first.unlocks == 3
    assert set(first.decks) == {shelf["a"].pk, shelf["b"].pk, shelf["d"].pk}
    # One 新兵 alone unlocks two: a smaller purchase, shown after it.
    assert any(_buy(s) == {"YXJQ-003": 1} and s.unlocks == 2 for s in found)
    # Never: the private deck, her own, the illegal one; nor a deck needing 4 copies at 3.
    named = {pk for s in found for pk in s.decks}
    assert named.isdisjoint({shelf[k].pk for k in ("private", "mine", "illegal", "c")})


def test_more_copies_allowed_unlock_more(alice, shelf) -> None:
    first = close_enough(alice, 4)[0]
    assert _buy(first) == {"YXJQ-003": 1, "YXJQ-018": 3} and first.unlocks == 4


def test_a_purchase_that_adds_nothing_is_not_suggested(alice, shelf) -> None:
    for suggestion in close_enough(alice, 5):
        smaller = [s for s in close_enough(alice, 5) if set(_buy(s).items()) < set(_buy(suggestion).items())]
        assert all(s.unlocks < suggestion.unlocks for s in smaller)


def test_the_api_answers_the_named_fields_and_refuses_bad_bounds(alice, shelf) -> None:
    client = logged_in(alice)
    answer = client.get("/api/decks/close/?missing=3")
    assert answer.status_code == 200
    first = answer.json()[0]
    assert set(first) == {"buy", "unlocks", "decks"}
    assert first["buy"] == [
        {"card": "YXJQ-003", "name": "新兵", "count": 1},
        {"card": "YXJQ-018", "name": "重裝騎士", "count": 1},
    ]
    assert first["unlocks"] == 3 and len(first["decks"]) == 3
    assert client.get("/api/decks/close/").json() == answer.json()  # 3 by default
    for bad in ("0", "6", "３", "-1", "1e3", "x", "9" * 40):
        assert client.get("/api/decks/close/", {"missing": bad}).status_code == 400, bad
    assert Client().get("/api/decks/close/").status_code == 401


def test_the_shopping_page_says_what_to_buy_next(alice, shelf, english) -> None:
    client = logged_in(alice)
    page = client.get("/decks/shopping/").content.decode()
    assert "3 more decks become buildable" in page
    assert "團裡的" in page and "私人的" not in page
    assert client.get("/decks/shopping/?missing=9").status_code == 400
    assert "4 more decks become buildable" in client.get("/decks/shopping/?missing=4").content.decode()


def _nothing(client: Client, query: str = "") -> str:
    page = client.get(f"/decks/shopping/{query}").content.decode()
    assert 'id="nothing-to-buy"' in page
    return page.split('id="nothing-to-buy"', 1)[1].split("</div>", 1)[0]


def test_with_no_collection_it_says_so_and_where_to_count(bob, english) -> None:
    said = _nothing(logged_in(bob))
    assert "your collection is empty" in said
    assert 'href="/collection/"' in said and 'href="/collection/scan/"' in said


def test_with_no_deck_shared_it_points_to_public_decks_and_groups(bob, english) -> None:
    own(bob, YXJQ_003=1)
    said = _nothing(logged_in(bob))
    assert "Nobody shares a legal deck with you yet" in said
    assert 'href="/decks/"' in said and 'href="/groups/"' in said


def test_when_everything_is_buildable_it_says_there_is_nothing_to_buy(alice, bob, english) -> None:
    own(alice, WJ_001=1, **{code.replace("-", "_"): 3 for code in LEGAL_MAIN})
    make_deck(bob, name="都有了", public=True)
    said = _nothing(logged_in(alice))
    assert "already builds every legal deck shared with you" in said


def test_when_every_deck_is_too_far_it_says_how_far_and_offers_to_look_further(alice, bob, english) -> None:
    own(alice, WJ_001=1, **{code.replace("-", "_"): 3 for code in LEGAL_MAIN})
    make_deck(bob, name="差三張", public=True, main=_without("YXJQ-017", YXJQ_018=3))
    client = logged_in(alice)
    said = _nothing(client, "?missing=2")
    assert "the nearest misses 3 copies" in said
    assert 'href="?missing=3#next"' in said
    assert "1 more deck becomes buildable" in client.get("/decks/shopping/?missing=3").content.decode()
