"""Faults in the card pages found by trying the site as a new player would; each test fails without its fix."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from tests.support.catalogue import CARD_COUNT
from tests.support.readers import reader

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("english")]


def test_set_the_counts_is_not_a_card_set_in_chinese(alice_client) -> None:
    # One English word, two meanings: the counter's button (設定) and the card set (系列).
    alice_client.post("/i18n/setlang/", {"language": "zh-hant", "next": "/"})
    html = alice_client.get("/cards/YXJQ-003/").content.decode()
    assert '<button name="action" value="set">設定</button>' in html
    assert "系列" in alice_client.get("/cards/").content.decode()


def test_the_set_filter_shows_the_chinese_name_marked_and_its_pinyin_on_english_pages() -> None:
    html = reader("en").get("/cards/").content.decode()
    chip = re.search(r'value="YXJQ"[^>]*>\s*(.*?)</label>', html, re.S)
    assert chip is not None
    assert '<span lang="zh-Hant">英雄崛起</span>' in chip.group(1) and 'class="pinyin"' in chip.group(1)


def test_health_and_life_have_two_names_and_the_bar_counts_what_is_known() -> None:
    html = reader("zh-hant").get("/cards/incomplete/").content.decode()
    headings = re.findall(r'<th scope="col">([^<]+)</th>', html)
    assert "生命" in headings and "血量" in headings
    assert len(headings) == len(set(headings))
    cell = re.search(r'width="(\d+)" height="10"/></svg><span class="num">(\d+)/(\d+)</span>', html)
    assert cell is not None
    percent, known, applies = (int(g) for g in cell.groups())
    assert percent == round(100 * known / applies)


def test_the_filter_count_follows_each_tick_out_of_the_panel() -> None:
    client = reader("en")
    page = client.get("/cards/").content.decode()
    assert 'id="filter-count"' in page and f"{CARD_COUNT} cards found" in page and 'href="#results"' in page
    live = client.get("/cards/?faction=wei", HTTP_HX_REQUEST="true", HTTP_HX_TARGET="results").content.decode()
    count = re.search(r'<span id="filter-count"[^>]*hx-swap-oob="innerHTML"[^>]*>\s*(\d+) cards found', live)
    assert count is not None and 0 < int(count.group(1)) < CARD_COUNT


def test_a_cards_face_as_a_file_carries_its_own_text_style_and_shrinks_long_text(client: Client) -> None:
    response = client.get("/cards/YCWJ-003/face.svg")
    svg = response.content.decode()
    assert response.status_code == 200 and "<style>" in svg and "face-text longer" in svg
    assert "style-src 'unsafe-inline'" in response["Content-Security-Policy"]
    assert "script-src" not in response["Content-Security-Policy"]
    inlined = client.get("/cards/YCWJ-003/").content.decode()
    assert "<style>" not in inlined  # on a page, site.css styles the face


@pytest.mark.usefixtures("english")
def test_shared_catalogue_addresses_carry_only_the_filters_in_use(client: Client) -> None:
    # what a plain form sends: every field, most of them empty, and the default sort
    sent = "/cards/?q=&kind=troop&faction=wei&affiliation=&stars=&cost=&cost_min=&cost_max=3&sort=code"
    response = client.get(sent)
    assert response.status_code == 302
    assert response["Location"] == "/cards/?kind=troop&faction=wei&cost_max=3"
    # live (htmx): answered at once, and the address put in the history is the tidy one
    live = client.get(sent, headers={"HX-Request": "true", "HX-Target": "results"})
    assert live.status_code == 200 and live["HX-Push-Url"] == "/cards/?kind=troop&faction=wei&cost_max=3"
    tidy = client.get("/cards/?kind=troop&faction=wei&cost_max=3")
    assert tidy.status_code == 200 and "HX-Push-Url" not in tidy
    # the panel is folded once applied; chips name what is chosen, each removing itself
    html = tidy.content.decode()
    assert '<details class="filter-panel">' in html and "3 in use" in html
    chips = html[html.index('<ul class="in-use"') :]
    chips = " ".join(chips[: chips.index("</ul>")].split())
    assert 'href="/cards/?faction=wei&amp;cost_max=3"' in chips  # without the kind
    assert 'href="/cards/?kind=troop&amp;cost_max=3"' in chips  # without the faction
    assert 'href="/cards/?kind=troop&amp;faction=wei"' in chips  # without the cost
    assert "Faction: Wei" in chips and "Cost at most: 3" in chips


def test_the_filter_panel_opens_to_show_what_was_refused(client: Client) -> None:
    html = client.get("/cards/?stars=9").content.decode()
    assert '<details class="filter-panel" open>' in html


@pytest.mark.usefixtures("english")
def test_a_chip_marks_chinese_typed_into_a_filter(client: Client) -> None:
    html = client.get("/cards/?affiliation=%E8%9C%80").content.decode()
    chips = html[html.index('<ul class="in-use"') :]
    chips = " ".join(chips[: chips.index("</ul>")].split())
    assert 'Affiliation: <span lang="zh">蜀</span>' in chips


@pytest.mark.parametrize(
    ("language", "hint", "wrong"),
    [
        ("en", "class:cavalry cost&lt;=3", "class:騎兵"),
        ("zh-hans", "class:骑兵", "class:騎兵"),
        ("zh-hant", "class:騎兵", "class:骑兵"),
    ],
)
def test_the_search_hint_is_in_the_readers_words(language: str, hint: str, wrong: str) -> None:
    page = reader(language).get("/cards/").content.decode()
    hints = page.split('class="hint"', 1)[1].split("</p>", 1)[0]
    assert hint in hints and wrong not in hints


@pytest.mark.parametrize("typed", ["lvbu", "lubu", "lyubu", "lübu", "Lü Bu"])
def test_lu_bu_is_shown_with_his_u_umlaut_and_found_however_it_is_typed(typed: str) -> None:
    page = reader("en").get("/cards/WJ-008/").content.decode()
    assert "Lü Bu" in page and "lv bu" not in page
    found = Client().get("/api/cards/", {"q": typed}).json()
    assert "WJ-008" in [card["code"] for card in found["results"]]
