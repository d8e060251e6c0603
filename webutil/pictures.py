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
    """`address` as a QR code (medium error correction), `scale` pixels a module; `size`: then
    resized to that many pixels a side."""
    out = io.BytesIO()
    segno.make(address, error="m").save(out, kind="png", scale=scale, border=border, dark=INK)
    out.seek(0)
    picture = Image.open(out).convert("RGB")
    return picture.resize((size, size)) if size else picture


def png(picture: Image.Image) -> bytes:
    out = io.BytesIO()
    picture.save(out, "PNG", optimize=True)
    return out.getvalue()
