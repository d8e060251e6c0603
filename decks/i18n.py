"""rules_check speaks Chinese (Traditional) and English; the site speaks three languages."""

from __future__ import annotations

from django.utils.translation import get_language

from catalog.textkeys import to_simplified
from rules_check import FORMATS


def format_label(name: str) -> str:
    """A format's name in the reader's language ("標準賽制", "标准赛制", "Standard")."""
    fmt = FORMATS.get(name)
    return pick(fmt.label, fmt.label_en) if fmt else name


def pick(message_zh: str, message_en: str) -> str:
    language = (get_language() or "").lower()
    if language.startswith("en"):
        return message_en
    if language in ("zh-hans", "zh-cn", "zh-sg"):
        return to_simplified(message_zh)
    return message_zh
