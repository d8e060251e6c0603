from __future__ import annotations

from django import template
from django.utils.safestring import SafeString

from webutil.qr import qr_svg

register = template.Library()


@register.filter
def qr(text: str) -> SafeString | str:
    """A QR code of `text` (a deck code on its registration sheet: a photo of the printed sheet
    is read exactly)."""
    return qr_svg(text) if text else ""
