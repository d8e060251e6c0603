"""Draw odds and sample hands on deck pages and in the API; two decks compared."""

from __future__ import annotations

from fractions import Fraction
from math import comb

import pytest
from django.test import Client

from tests.conftest import logged_in
from tests.support.deck_helpers import make_deck

pytestmark = pytest.mark.django_db

# 40 cards: 13 troops × 3 and one tactic (LEGAL_MAIN).


def test_odds_for_a_card_by_name_as_json(client: Client, bob) -> None:
    deck = make_deck(bob, public=True)
    got = client.get(f"/api/decks/{deck.pk}/odds/?card=YXJQ-003&k=1")
    assert got.status_code == 200, got.content
    body = got.json()
    assert (body["deck_size"], body["matching"], body["k"], body["method"]) == (40, 3, 1, "exact")
    assert body["first"][0] == round(float(1 - Fraction(comb(37, 5), comb(40, 5))), 6)
    assert body["first"][1] == round(1513596 / 3838380, 6)
    assert body["second"][1] == round(float(1 - Fraction(comb(37, 7), comb(40, 7))), 6)
    assert body["first_mulligan"][1] == round(771 / 1235, 6)
    # By name: 新兵 typed in either script or pinyin is the same choice.
    assert client.get(f"/api/decks/{deck.pk}/odds/?card=新兵").json()["matching"] == 3


def test_odds_for_a_query_over_the_deck(client: Client, bob) -> None:
    deck = make_deck(bob, public=True, main={"YXJQ-003": 3, "YXJQ-004": 3, "YXJQ-001": 1})
    every = client.get(f"/api/decks/{deck.pk}/odds/?q=kind:troop").json()
    assert every["matching"] == 6 and every["deck_size"] == 7
    assert every["first"][0] == 1.0  # 5 cards out of 7 with 6 troops
    # The tactic alone; a card of unknown cost never matches cost<=N.
    assert client.get(f"/api/decks/{deck.pk}/odds/?q=kind:tactic").json()["matching"] == 1


@pytest.mark.parametrize(
    "query",
    [
        "",
        "card=NOPE-999",
        "q=class:dragon",
        "card=YXJQ-003&k=0",
        "card=YXJQ-003&k=abc",
        "card=YXJQ-003&k=99999999999999999999",
        "card=YXJQ-003&q=kind:troop",
        "q=%00",
    ],
)
def test_bad_odds_requests_are_400(client: Client, bob, query: str) -> None:
    deck = make_deck(bob, public=True)
    assert client.get(f"/api/decks/{deck.pk}/odds/?{query}").status_code == 400
    assert client.get(f"/decks/{deck.pk}/odds/?{query}").status_code == (200 if not query else 400)


def test_odds_of_a_private_deck_are_private(client: Client, alice, bob) -> None:
    deck = make_deck(alice)
    assert client.get(f"/api/decks/{deck.pk}/odds/?card=YXJQ-003").status_code == 404
    assert logged_in(bob).get(f"/decks/{deck.pk}/odds/?card=YXJQ-003").status_code == 404
    assert logged_in(alice).get(f"/decks/{deck.pk}/odds/?card=YXJQ-003").status_code == 200


def test_the_odds_page_shows_a_table_and_a_chart(client: Client, bob) -> None:
    deck = make_deck(bob, public=True)
    page = client.get(f"/decks/{deck.pk}/")
    assert 'id="odds"' in page.content.decode() and 'id="sample"' in page.content.decode()
    html = client.get(f"/decks/{deck.pk}/odds/?card=YXJQ-003&k=1").content.decode()
    assert "<svg" in html and "34%" in html and "39%" in html and "62%" in html
    partial = client.get(f"/decks/{deck.pk}/odds/?card=YXJQ-003", headers={"HX-Request": "true"}).content.decode()
    assert partial.startswith('<section id="odds"') and "<html" not in partial


def test_a_sample_hand_draws_turns_and_mulligans_from_its_seed(client: Client, bob) -> None:
    deck = make_deck(bob, public=True)
    url = f"/decks/{deck.pk}/sample/"
    first = client.get(url + "?seed=5").content.decode()
    hand = first[first.index('<section id="sample"') :]
    assert hand == (again := client.get(url + "?seed=5").content.decode())[again.index('<section id="sample"') :]
    assert first.count('name="aside"') == 5
    turn2 = client.get(url + "?seed=5&turn=2").content.decode()
    assert turn2.count('class="new"') == 3  # 1 + 2 cards for the first player
    second = client.get(url + "?seed=5&turn=1&second=1").content.decode()
    assert second.count('class="new"') == 2
    mulled = client.get(url + "?seed=5&aside=0&aside=1").content.decode()
    assert "調度" in mulled and 'name="aside" value="0"' in mulled
    partial = client.get(url + "?seed=5", headers={"HX-Request": "true"}).content.decode()
    assert partial.startswith('<section id="sample"')
    for bad in ("seed=abc", "seed=-1", "turn=99", "aside=7", "seed=1" + "0" * 30):
        assert client.get(f"{url}?{bad}").status_code == 400


# --- compare -----------------------------------------------------------------------------------


def test_compare_two_decks_by_card_name(client: Client, alice, bob) -> None:
    a = make_deck(bob, name="甲", public=True, main={"YXJQ-003": 3, "YXJQ-004": 2, "YXJQ-005": 1})
    b = make_deck(bob, name="乙", public=True, main={"YXJQ-003": 3, "YXJQ-004": 3, "YXJQ-006": 2})
    got = client.get(f"/api/decks/compare/?a={a.pk}&b={b.pk}")
    assert got.status_code == 200
    body = got.json()
    assert [(e["card"], e["count"]) for e in body["only_a"]] == [("YXJQ-005", 1)]
    assert [(e["card"], e["count"]) for e in body["only_b"]] == [("YXJQ-006", 2)]
    assert [(e["name"], e["a"], e["b"]) for e in body["changed"]] == [("羽林內醫", 2, 3)]
    assert [(e["name"], e["count"]) for e in body["same"]] == [("新兵", 3)]
    html = client.get(f"/decks/compare/?a={a.pk}&b=/decks/{b.pk}/").content.decode()
    assert "甲" in html and "乙" in html and "curves" in html and "羽林內醫" in html
    assert client.get("/decks/compare/").status_code == 200


def test_compare_refuses_private_decks_of_others_and_bad_ids(client: Client, alice, bob) -> None:
    mine = make_deck(alice)
    public = make_deck(bob, public=True)
    assert client.get(f"/api/decks/compare/?a={mine.pk}&b={public.pk}").status_code == 404
    assert logged_in(alice).get(f"/api/decks/compare/?a={mine.pk}&b={public.pk}").status_code == 200
    assert client.get(f"/decks/compare/?a={mine.pk}&b={public.pk}").status_code == 404
    for bad in ("a=x&b=1", "a=1", "a=-1&b=2", "a=1" + "0" * 30 + f"&b={public.pk}"):
        assert client.get(f"/api/decks/compare/?{bad}").status_code == 400
    assert client.get("/decks/compare/?a=abc").status_code == 404


def test_compare_offers_my_decks_and_my_groups_decks_as_choices(alice, bob, charlie, english) -> None:
    from decks import services
    from tests.support.group_helpers import make_group

    mine = make_deck(alice, name="我的牌")
    group = make_group(alice, bob, name="週五牌局")
    theirs = make_deck(bob, name="鮑伯的牌")
    services.set_groups(theirs, [group])
    make_deck(charlie, name="查理的私人牌")  # not mine, not shared: never offered
    page = logged_in(alice).get("/decks/compare/").content.decode()
    side_a = page.split('name="a"', 1)[1].split("</select>", 1)[0]
    assert '<optgroup label="My decks">' in side_a and f'<option value="{mine.pk}">我的牌</option>' in side_a
    assert '<optgroup label="週五牌局">' in side_a and f'<option value="{theirs.pk}">鮑伯的牌 · bob</option>' in side_a
    assert "查理的私人牌" not in page
    assert 'name="a_link"' in page and 'name="b_link"' in page
    # A choice from each list compares; a pasted address wins over a choice.
    chosen = logged_in(alice).get(f"/decks/compare/?a={mine.pk}&b={theirs.pk}").content.decode()
    assert "我的牌" in chosen and "鮑伯的牌" in chosen and "curves" in chosen
    public = make_deck(charlie, name="查理的公開牌", public=True)
    pasted = (
        logged_in(alice)
        .get(f"/decks/compare/?a={mine.pk}&b={theirs.pk}&b_link=http://testserver/decks/{public.pk}/")
        .content.decode()
    )
    assert "查理的公開牌" in pasted and f'value="/decks/{public.pk}/"' in pasted  # shown as pasted


def test_compare_from_a_public_decks_page_keeps_it_as_its_address(client: Client, bob, english) -> None:
    public = make_deck(bob, name="公開的", public=True)
    page = client.get(f"/decks/compare/?a={public.pk}").content.decode()
    assert f'name="a_link" value="/decks/{public.pk}/"' in page  # a visitor has no list: the address
