"""What the site's drawn pictures (a deck for chat, link previews) share: the paper and ink
colours, a QR code as an image and the PNG they are sent as. The text is drawn with
webutil.glyphs, in the font the repository ships."""

from __future__ import annotations

import io

import segno
from PIL import Image

PAPER = "#fbf7ee"
INK = "#1d1b19"
MUTED = "#5b554e"


def qr_image(address: str, *, scale: int, border: int, size: int | None = None) -> Image.Image:
    """`address` as a QR code (medium error correction), `scale` pixels a module; `size`: as
    many whole pixels a module as fit that many pixels a side, centred on paper of that size.
    Whole pixels keep every module sharp: a resampled code blurs, and cameras then misread it."""
    code = segno.make(address, error="m")
    if size:
        modules = code.symbol_size(scale=1, border=border)[0]
        scale = max(1, int(size // modules))
    out = io.BytesIO()
    code.save(out, kind="png", scale=scale, border=border, dark=INK)
    out.seek(0)
    picture = Image.open(out).convert("RGB")
    if not size:
        return picture
    sheet = Image.new("RGB", (size, size), "white")
    sheet.paste(picture, ((size - picture.width) // 2, (size - picture.height) // 2))
    return sheet


def png(picture: Image.Image) -> bytes:
    out = io.BytesIO()
    picture.save(out, "PNG", optimize=True)
    return out.getvalue()
