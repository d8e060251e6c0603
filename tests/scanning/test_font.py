"""The shipped font draws what the site prints in pictures: the catalogue in both scripts, the
interface, and the common characters of Big5 and GB2312 that users type in names; a character it
lacks is drawn as a visible placeholder, never dropped."""

from __future__ import annotations

import pytest
from PIL import Image, ImageChops, ImageDraw

from catalog.management.commands.fontsubset import common_characters
from catalog.models import Card
from webutil.glyphs import PLACEHOLDER, covered, drawable, font

pytestmark = pytest.mark.django_db


def test_the_font_covers_the_catalogue_in_both_scripts_and_the_common_characters() -> None:
    have = covered()
    names = "".join(Card.objects.values_list("name", flat=True))
    simplified = "".join(Card.objects.values_list("name_simplified", flat=True))
    assert set(names + simplified) <= have
    common = common_characters()
    assert len(common) > 6_500 and common <= have
    assert {"龍", "龙", "曦", "晓", "曉"} <= have  # names people choose, in either script


def _ink(text: str) -> Image.Image:
    picture = Image.new("L", (400, 80), 255)
    ImageDraw.Draw(picture).text((10, 10), text, font=font(40), fill=0)
    return picture


def test_a_character_the_font_lacks_is_a_visible_placeholder() -> None:
    rare = "𠀋"  # CJK Extension B: outside the subset
    assert rare not in covered()
    assert drawable(f"我的{rare}牌庫\x00") == f"我的{PLACEHOLDER}牌庫{PLACEHOLDER}"
    assert drawable("劉備 three\nlines") == "劉備 three\nlines"
    # The placeholder draws ink where the character was: nothing is silently dropped.
    assert ImageChops.difference(_ink(drawable(f"甲{rare}乙")), _ink("甲乙")).getbbox() is not None
    assert ImageChops.difference(_ink(drawable(f"甲{rare}乙")), _ink(f"甲{PLACEHOLDER}乙")).getbbox() is None
