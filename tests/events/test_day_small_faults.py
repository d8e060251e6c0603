"""Small faults seen in the walk of a tournament day, each fixed: the top cut's tabs name their
round, no standings before round 1, a dropped player marked in the standings, a round's state
read as a phrase, and the wording of Simplified pages."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from events import day
from tests.conftest import logged_in
from tests.events.test_tournament_day import make_event, play_round
from tests.support.readers import reader

pytestmark = pytest.mark.django_db


def _text(page: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", page))


def test_the_top_cuts_tab_names_its_round(alice, english) -> None:
    event = make_event(alice, players=8, top_cut=8)
    for _ in range(3):
        play_round(event)
    day.pair_top_cut(event)
    page = logged_in(alice).get(f"/events/{event.pk}/day/").content.decode()
    tabs = _text(page.split('class="pager round-nav"', 1)[1].split("</nav>", 1)[0])
    assert "Quarter-finals" in tabs and " 4 " not in f" {tabs} "


def test_before_round_1_there_are_no_standings_and_a_dropped_player_is_marked(alice, english) -> None:
    event = make_event(alice, players=4)
    page = logged_in(alice).get(f"/events/{event.pk}/day/").content.decode()
    assert "No standings yet" in page and "cards standings" not in page
    play_round(event)
    dropped = event.players.order_by("pk").first()
    day.set_dropped(dropped, True)
    standings = logged_in(alice).get(f"/events/{event.pk}/day/").content.decode().split("cards standings", 1)[1]
    row = next(r for r in standings.split("<tr>") if dropped.name in r)
    assert "(dropped)" in row


def test_a_rounds_state_reads_as_a_phrase(alice, english) -> None:
    event = make_event(alice, players=4)
    play_round(event)
    page = _text(logged_in(alice).get(f"/events/{event.pk}/day/").content.decode())
    assert "Round 1 · every result is in" in page


def test_simplified_pages_use_mainland_words(alice) -> None:
    # The rules' own message (Traditional in rules_check) reads 默认 on a Simplified page, 預設
    # on a Traditional one; best of is 赛制 (BO1/BO3); information is 信息.
    for language, expected, wrong in (("zh-hans", "默认武将", "预设"), ("zh-hant", "預設武將", "默認")):
        page = reader(language).post("/check/", {"list": "3 YXJQ-003", "format": "standard"}).content.decode()
        assert expected in page and wrong not in page
    event = make_event(alice, players=4)
    settings_page = reader("zh-hans", alice).get(f"/events/{event.pk}/day/").content.decode()
    assert "赛制（BO1/BO3）" in settings_page and "局数制" not in settings_page
    assert "资料" not in reader("zh-hans").get("/cards/incomplete/").content.decode().replace("资料来源", "")
    assert Client().get("/").status_code == 200


def test_the_players_own_table_comes_first_on_their_page(alice, bob, english) -> None:
    event = make_event(alice, players=4)
    mine = event.players.order_by("pk").first()
    mine.user = bob
    mine.save()
    day.pair_next_round(event)
    page = logged_in(bob).get(f"/e/{event.token}/").content.decode()
    main = page.split("<main", 1)[1]
    assert main.index("my-match") < main.index('class="note"')  # before the notes about lists
    assert re.search(r"Round 1 · table \d+", _text(main))
