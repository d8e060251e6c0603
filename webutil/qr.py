"""QR codes drawn on our own pages (segno, no network): the venue's address on the pairings
printout, a deck's code on its registration sheet."""

from __future__ import annotations

import segno
from django.utils.safestring import SafeString, mark_safe


def qr_svg(text: str) -> SafeString:
    """A QR code of `text` as inline SVG."""
    code = segno.make(text, error="m")
    svg = code.svg_inline(scale=4, dark="#1d1b19", light="#ffffff", omitsize=True)
    return mark_safe(svg.replace("<svg ", '<svg role="img" aria-label="QR" class="qr" ', 1))  # noqa: S308 (segno's own SVG)
