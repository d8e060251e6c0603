"""The font the site draws pictures with: Noto Sans CJK TC cut down by `manage.py fontsubset` and
kept in the repository (static/fonts/, its licence beside it), never a system font. Text is made
drawable in it first: a character the font lacks becomes a visible placeholder, never dropped."""

from __future__ import annotations

from functools import cache
from pathlib import Path

from PIL import ImageFont

FONT = Path(__file__).resolve().parents[1] / "static" / "fonts" / "NotoSansCJKtc-Zongheng.otf"
# Drawn in the place of a character the font lacks.
PLACEHOLDER = "\u25a1"  # □


@cache
def covered() -> frozenset[str]:
    """The characters the shipped font draws."""
    from fontTools.ttLib import TTFont  # start-up: read once, when a picture is first drawn

    with TTFont(str(FONT), lazy=True) as font:
        return frozenset(chr(code) for code in font.getBestCmap())


def drawable(text: str) -> str:
    """`text` with each character the font cannot draw (and each control character) as the
    placeholder; spaces and line breaks kept."""
    have = covered()
    return "".join(c if c in have or c in " \n" else PLACEHOLDER for c in text)


@cache
def font(size: int) -> ImageFont.FreeTypeFont:
    return ImageFont.truetype(str(FONT), size)
