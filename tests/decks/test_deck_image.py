"""A deck as one picture for chat: drawn in the shipped font, its QR code opens the deck, names
in the reader's script, served to whoever may read the deck and kept per version and language."""

from __future__ import annotations

import io
import itertools

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


def test_the_two_columns_line_up_with_the_margins_and_a_gutter_between(alice) -> None:
    # The walk found the right column's costs short of the margin and the left column's costs
    # against the right column's counts.
    deck = make_deck(alice, name="蜀漢步兵", public=True)
    picture = _picture(Client().get(f"/decks/{deck.pk}/image.png")).convert("L")
    body = picture.crop((0, 260, picture.width, 260 + 8 * 46))  # the first eight rows of cards
    inked = [x for x in range(body.width) if min(body.crop((x, 0, x + 1, body.height)).getextrema()) < 160]
    assert 1020 <= max(inked) <= 1032  # the right column's costs end at the page's right margin
    middle = [x for x in inked if 480 < x < 600]
    gaps = [b - a for a, b in itertools.pairwise(middle)]
    assert max(gaps, default=120) >= 48  # an empty gutter between the columns
