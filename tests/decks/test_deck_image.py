"""A deck as one picture for chat: drawn in the shipped font, its QR code opens the deck, names
in the reader's script, served to whoever may read the deck and kept per version and language."""

from __future__ import annotations

import io

import pytest
from django.test import Client
from PIL import Image

from decks import deckcode
from tests.support.deck_helpers import make_deck
from tests.support.image_helpers import qr_texts

pytestmark = pytest.mark.django_db


def _picture(response) -> Image.Image:
    assert response.status_code == 200 and response["Content-Type"] == "image/png"
    return Image.open(io.BytesIO(response.content))


def test_the_picture_opens_the_deck_and_holds_its_code(alice, alice_client: Client) -> None:
    deck = make_deck(alice, name="蜀漢步兵𠀋", public=True)  # a character the font lacks: a □, no error
    picture = _picture(Client().get(f"/decks/{deck.pk}/image.png"))
    assert picture.width == 1080 and picture.height > 900
    [found] = qr_texts(picture)
    assert found.endswith(f"/decks/{deck.pk}/")
    page = alice_client.get(f"/decks/{deck.pk}/").content.decode()
    assert f'href="/decks/{deck.pk}/image.png"' in page
    code = page.split('id="deck-code">', 1)[1].split("<", 1)[0]
    assert deckcode.decode(code).general == "WJ-001"  # the code printed under it is the deck's


def test_a_private_deck_picture_is_its_owners_only(alice, alice_client: Client, bob_client: Client) -> None:
    deck = make_deck(alice, name="秘密", public=False)
    assert Client().get(f"/decks/{deck.pk}/image.png").status_code == 404
    assert bob_client.get(f"/decks/{deck.pk}/image.png").status_code == 404
    answer = alice_client.get(f"/decks/{deck.pk}/image.png")
    _picture(answer)
    assert answer["Cache-Control"].startswith("private")


def test_the_picture_follows_the_language_and_the_deck(alice, alice_client: Client) -> None:
    deck = make_deck(alice, name="蜀漢步兵", public=True)
    traditional = Client().get(f"/decks/{deck.pk}/image.png").content
    simplified = Client(headers={"accept-language": "zh-hans"}).get(f"/decks/{deck.pk}/image.png").content
    english = Client(headers={"accept-language": "en"}).get(f"/decks/{deck.pk}/image.png").content
    assert len({traditional, simplified, english}) == 3
    assert Client().get(f"/decks/{deck.pk}/image.png").content == traditional  # kept
    alice_client.post(f"/decks/{deck.pk}/change/", {"action": "inc", "card": "YXJQ-010"})
    assert Client().get(f"/decks/{deck.pk}/image.png").content != traditional  # a new version


def test_a_public_decks_page_previews_in_chat_and_a_private_one_does_not(alice, alice_client: Client) -> None:
    public = make_deck(alice, name="蜀漢步兵", public=True)
    page = Client().get(f"/decks/{public.pk}/").content.decode()
    assert '<meta property="og:title" content="蜀漢步兵">' in page
    assert f'<meta property="og:image" content="http://testserver/decks/{public.pk}/image.png">' in page
    assert '<meta name="twitter:card" content="summary_large_image">' in page
    private = make_deck(alice, name="秘密", public=False)
    assert "og:image" not in alice_client.get(f"/decks/{private.pk}/").content.decode()
