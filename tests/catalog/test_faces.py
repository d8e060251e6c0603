"""SVG card faces drawn from the data: every kind, known and unknown facts, valid SVG."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

import pytest
from django.test import Client

from catalog import cache_version

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("english")]
SVG = "{http://www.w3.org/2000/svg}"


def face(client: Client, code: str) -> tuple[ET.Element, str]:
    response = client.get(f"/cards/{code}/face.svg")
    assert response.status_code == 200 and response["Content-Type"] == "image/svg+xml"
    assert "max-age" in response["Cache-Control"]
    text = response.content.decode()
    return ET.fromstring(text), text  # well-formed XML, or this raises


def texts(root: ET.Element) -> list[str]:
    return ["".join(t.itertext()).strip() for t in root.iter(f"{SVG}text")]


@pytest.mark.parametrize(
    ("code", "kind", "must_show"),
    [
        ("YXJQ-003", "troop", ["新兵", "2", "1", "3", "Troop · Infantry", "江湖散人", "★", "YXJQ-003"]),
        ("LSHJ-011", "tactic", ["誘敵深入", "2", "Element: Metal", "★"]),
        ("WJ-001", "general", ["劉備", "35", "Life", "★★", "WJ-001"]),
        ("YCWJ-001", "awakened_general", ["張寶", "31", "Awakening: 4 武魂"]),
        ("YJ-001", "reinforcement", ["黃巾義軍", "1", "江湖散人"]),
    ],
)
def test_faces_of_every_kind_with_known_facts(client: Client, code: str, kind: str, must_show: list[str]) -> None:
    root, raw = face(client, code)
    shown = texts(root)
    for fact in must_show:
        assert any(fact in t for t in shown), (fact, shown)
    assert f'class="face kind-{kind}"' in raw


def test_the_frame_and_metal_colours_follow_kind_and_tier(client: Client) -> None:
    _, troop = face(client, "YXJQ-003")
    _, general = face(client, "WJ-008")
    assert 'fill="#2f5d3a"' in troop and 'fill="#b0703f"' in troop  # troop green, bronze
    assert 'fill="#8c2f1b"' in general and 'fill="#d4a82a"' in general  # general red, gold


@pytest.mark.parametrize(
    ("code", "unknowns"),
    [
        ("GMGD-001", ["?", "Effect text not yet recorded", "unknown"]),  # troop: cost, power, health, text, rarity
        ("GMGD-022", ["?", "Element: unknown", "Effect text not yet recorded"]),  # tactic: cost, element, text
        ("FJ-001", ["?", "unknown"]),  # vice general: life, rarity, skills
        ("YJ-002", ["unknown"]),  # reinforcement: rarity
    ],
)
def test_unknown_facts_are_shown_as_unknown_not_blank(client: Client, code: str, unknowns: list[str]) -> None:
    root, raw = face(client, code)
    shown = texts(root)
    for word in unknowns:
        assert any(word in t for t in shown) or word in raw, (word, shown)


def test_general_skills_are_on_the_face(client: Client) -> None:
    _, raw = face(client, "WJ-007")
    assert "【國色】" in raw and "【流離】" in raw


def test_faces_in_the_grid_the_card_page_and_the_deck_page(client: Client, alice_client: Client, alice) -> None:
    from tests.support.deck_helpers import make_deck

    grid = client.get("/cards/?view=grid&set=YXJQ&kind=tactic").content.decode()
    assert grid.count('<svg class="face') == 4
    assert client.get("/cards/?set=YXJQ&kind=tactic").content.decode().count('<svg class="face') == 4  # remembered
    assert '<svg class="face' not in client.get("/cards/?view=list").content.decode()
    assert '<svg class="face kind-general"' in client.get("/cards/WJ-001/").content.decode()
    deck = make_deck(alice)
    # A deck's grid and the builder's search show each face as one image of the drawn face.
    page = alice_client.get(f"/decks/{deck.pk}/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert page.count('<img class="face-image-only"') == 15 and '<svg class="face' not in page  # general + entries
    assert f'alt="{deck.general.name} {deck.general.code}" lang="zh-Hant"' in page  # the image names the card
    version = cache_version.current()
    src = re.search(r'<img class="face-image-only" src="([^"]+)"', page)
    assert src and src.group(1) == f"/cards/{deck.general.code}/face.svg?v={version}&amp;lang=en"
    answer = alice_client.get(src.group(1).replace("&amp;", "&"))
    assert answer["Content-Type"] == "image/svg+xml" and b'<svg class="face kind-general"' in answer.content

    search = alice_client.get(
        f"/decks/{deck.pk}/build/?q=&set=YXJQ&kind=tactic", HTTP_HX_REQUEST="true", HTTP_HX_TARGET="search-results"
    ).content.decode()
    assert search.count('<img class="face-image-only"') == 4  # the builder's search results
    assert '<svg class="face' not in search and 'alt=""' in search  # beside the card's name: decorative


def test_an_unknown_code_has_no_face(client: Client) -> None:
    assert client.get("/cards/NOPE/face.svg").status_code == 404


def test_troop_and_tactic_faces_show_what_is_known() -> None:
    from catalog.models import Card

    card = Card.objects.get(code="WJ-004")  # a general with skills: the text box is shared by every kind
    troop = Card.objects.filter(kind="troop", text__isnull=True, affiliation__isnull=False).first()
    assert troop is not None and card.text
    client = Client()
    _, raw = face(client, troop.code)
    assert troop.affiliation in raw and "Effect text not yet recorded" in raw and 'face-text face-text-missing"' in raw
    Card.objects.filter(pk=troop.pk).update(text="登場時，摸一張牌。")
    _, raw = face(client, troop.code)
    assert "登場時，摸一張牌。" in raw and "face-text face-text-missing" not in raw


def test_a_face_file_is_in_the_language_its_address_names(client: Client) -> None:
    # Whoever asks for ?lang=en gets the English face, whatever their own language: a shared
    # cache may hand one answer to everyone asking for that address.
    from catalog.models import Card

    card = Card.objects.filter(kind="troop", text__isnull=True).first()
    assert card is not None
    url = f"/cards/{card.code}/face.svg"
    english = client.get(url + "?lang=en", HTTP_ACCEPT_LANGUAGE="zh-Hant").content.decode()
    chinese = client.get(url + "?lang=zh-hant", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Effect text not yet recorded" in english and "Effect text not yet recorded" not in chinese
    # An unknown language in the address: the reader's own, as before.
    assert "Effect text not yet recorded" in client.get(url + "?lang=xx", HTTP_ACCEPT_LANGUAGE="en").content.decode()
