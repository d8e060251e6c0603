"""The pages' layout: what a player needs first is where they look first."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from decks.models import Deck
from tests.support.collection_helpers import own
from tests.support.deck_helpers import make_deck

pytestmark = pytest.mark.django_db


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
    for name in ("name", "format", "public"):
        assert f'name="{name}"' in row
    assert '<details class="deck-settings"' not in html
    # the rest of the settings belong to the same form, so Save keeps them
    assert 'name="description"' in head and 'name="tags"' in head and 'name="built"' in head
    response = alice_client.post(
        f"/decks/{deck.pk}/build/",
        {"name": "快攻", "format": deck.format, "description": "先手快攻", "tags": "", "public": "on"},
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
def test_my_collections_address_is_tidied_too(alice_client: Client) -> None:
    response = alice_client.get("/collection/?q=&kind=general&sort=code")
    assert response.status_code == 302 and response["Location"] == "/collection/?kind=general"


@pytest.mark.usefixtures("english")
def test_a_collection_row_is_one_form_and_a_stepper_ignores_the_typed_counts(alice_client: Client, alice) -> None:
    from collection.models import CollectionEntry

    own(alice, YXJQ_003=1)
    html = alice_client.get("/collection/").content.decode()
    row = html[html.index('id="counter-') :]
    row = row[: row.index("</div>")]
    assert row.count("<form") == 1 and row.count("csrfmiddlewaretoken") == 1
    assert 'name="quantity"' in row and 'value="inc"' in row
    # the stepper posts the typed fields too, half-typed or not: +1 still counts one copy
    sent = {"action": "inc", "quantity": "99999", "foil_quantity": "x", "next": "/collection/"}
    assert alice_client.post("/collection/cards/YXJQ-003/", sent).status_code == 302
    assert CollectionEntry.objects.get(user=alice, card__code="YXJQ-003").quantity == 2
    # Set reads them, and refuses what is out of range
    refused = alice_client.post("/collection/cards/YXJQ-003/", {**sent, "action": "set"})
    assert refused.status_code == 400
    assert CollectionEntry.objects.get(user=alice, card__code="YXJQ-003").quantity == 2


@pytest.mark.usefixtures("english")
def test_deck_list_addresses_are_tidied_too(alice_client: Client) -> None:
    response = alice_client.get("/decks/?faction=&format=standard&legal=&sort=updated")
    assert response.status_code == 302 and response["Location"] == "/decks/?format=standard"
    mine = alice_client.get("/decks/mine/?tag=&sort=updated")
    assert mine.status_code == 302 and mine["Location"] == "/decks/mine/"
    # a chosen sort other than the default stays
    assert alice_client.get("/decks/?sort=newest").status_code == 200


@pytest.mark.usefixtures("english")
def test_a_chip_marks_chinese_typed_into_a_filter(client: Client) -> None:
    html = client.get("/cards/?affiliation=%E8%9C%80").content.decode()
    chips = html[html.index('<ul class="in-use"') :]
    chips = " ".join(chips[: chips.index("</ul>")].split())
    assert 'Affiliation: <span lang="zh">蜀</span>' in chips
