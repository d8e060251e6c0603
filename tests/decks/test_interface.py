"""Faults in the deck pages found by trying the site as a new player would; each test fails without its fix."""

from __future__ import annotations

import re

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client

from decks.models import Deck
from tests.support.collection_helpers import own
from tests.support.deck_helpers import LEGAL_MAIN, make_deck
from tests.support.decklists import ILLEGAL
from tests.support.readers import reader

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("english")]


def test_the_builder_shows_no_general_chosen_when_there_is_none(alice_client: Client, alice) -> None:
    deck = make_deck(alice, general=None)
    html = alice_client.get(f"/decks/{deck.pk}/build/").content.decode()
    select = html[html.index('class="general-select"') :]
    select = select[: select.index("</select>")]
    assert select.count(" selected") == 1 and '<option value="" selected>' in select
    # choosing the placeholder keeps the deck without a general instead of failing
    assert alice_client.post(f"/decks/{deck.pk}/change/", {"action": "general", "card": ""}).status_code == 302
    assert Deck.objects.get(pk=deck.pk).general is None


def test_the_history_counts_cards_not_distinct_cards(alice_client: Client, alice) -> None:
    deck = make_deck(alice, main={"YXJQ-003": 3, "YXJQ-004": 2})
    html = alice_client.get(f"/decks/{deck.pk}/history/").content.decode()
    assert '<td class="num">5</td>' in html


def test_the_sheet_title_is_said_once_in_chinese(alice_client: Client, alice, settings) -> None:
    from django.utils import translation

    deck = make_deck(alice)
    with translation.override("zh-hant"):
        alice_client.post("/i18n/setlang/", {"language": "zh-hant", "next": "/"})
        html = alice_client.get(f"/decks/{deck.pk}/sheet/").content.decode()
    assert html.count("牌庫登記表") == 1


def test_checking_an_empty_list_asks_for_one(client: Client) -> None:
    response = client.post("/check/", {"list": "   \n", "format": "standard"})
    html = response.content.decode()
    assert response.status_code == 400 and "Paste a deck list" in html and "0 cards" not in html


def test_the_check_many_table_shows_names_and_messages_not_codes(client: Client) -> None:
    files = [
        SimpleUploadedFile("b.txt", ILLEGAL.encode()),
        SimpleUploadedFile("c.txt", "武將: 劉備\n3 不存在\n".encode()),
    ]
    html = client.post("/check/many/", {"files": files, "format": "standard"}).content.decode()
    table = html[html.index("<table") :]
    assert "unknown_card:" not in table and "too_many_copies:" not in table
    general_cell = table[table.index("c.txt") :].split("</td>")[2]
    assert "劉備" in general_cell and "WJ-001" in general_cell


def test_a_deck_code_used_as_a_general_choice_is_refused_cleanly(alice_client: Client, alice) -> None:
    deck = make_deck(alice, main=LEGAL_MAIN)
    response = alice_client.post(f"/decks/{deck.pk}/change/", {"action": "general", "card": "nope"})
    assert response.status_code == 400


def test_copying_a_list_and_saving_a_deck_as_mine_are_two_verbs(alice, bob) -> None:
    from tests.support.deck_helpers import make_deck

    deck = make_deck(alice, public=True)
    for language, copy, clone in (("zh-hant", "複製牌表", "存成我的牌庫"), ("zh-hans", "复制牌表", "存为我的牌库")):
        html = reader(language, bob).get(f"/decks/{deck.pk}/").content.decode()
        assert copy in html and clone in html


@pytest.mark.usefixtures("english")
def test_the_builder_opens_with_the_decks_name_format_and_visibility(alice_client: Client, alice) -> None:
    deck = make_deck(alice, main={"YXJQ-003": 3})
    deck.description = "先手快攻"
    deck.save()
    html = alice_client.get(f"/decks/{deck.pk}/build/").content.decode()
    head = html[html.index('<form method="post" class="deck-head"') :]
    head = head[: head.index("</form>")]
    row = head[: head.index('<details class="deck-more"')]
    # in view, before the search and the deck, and not folded away
    assert html.index('class="deck-head"') < html.index('class="builder"')
    for name in ("name", "format", "visibility"):
        assert f'name="{name}"' in row
    assert '<details class="deck-settings"' not in html
    # the rest of the settings belong to the same form, so Save keeps them
    assert 'name="description"' in head and 'name="tags"' in head and 'name="built"' in head
    response = alice_client.post(
        f"/decks/{deck.pk}/build/",
        {"name": "快攻", "format": deck.format, "description": "先手快攻", "tags": "", "visibility": "public"},
    )
    assert response.status_code == 302
    deck = Deck.objects.get(pk=deck.pk)
    assert (deck.name, deck.public, deck.description) == ("快攻", True, "先手快攻")


@pytest.mark.parametrize(("language", "cost", "owned"), [("en", "cost", "owned"), ("zh-hant", "費用", "持有")])
def test_each_deck_line_labels_its_figures(alice_client: Client, alice, language: str, cost: str, owned: str) -> None:
    own(alice, YXJQ_003=1)
    deck = make_deck(alice, main={"YXJQ-003": 3})
    alice_client.cookies["django_language"] = language
    for path in (f"/decks/{deck.pk}/build/", f"/decks/{deck.pk}/"):
        html = alice_client.get(path).content.decode()
        line = html[html.index('data-code="YXJQ-003"') :]
        line = line[: line.index("</li>")]
        assert re.search(rf'<span class="cost"><span class="fig-label">{cost}</span> \d', line), path
        assert f'<span class="fig-label">{owned}</span> 1/3' in line, path


@pytest.mark.usefixtures("english")
def test_deck_list_addresses_are_tidied_too(alice_client: Client) -> None:
    response = alice_client.get("/decks/?faction=&format=standard&legal=&sort=updated")
    assert response.status_code == 302 and response["Location"] == "/decks/?format=standard"
    mine = alice_client.get("/decks/mine/?tag=&sort=updated")
    assert mine.status_code == 302 and mine["Location"] == "/decks/mine/"
    # a chosen sort other than the default stays
    assert alice_client.get("/decks/?sort=newest").status_code == 200
