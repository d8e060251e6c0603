"""rules_check speaks Chinese (Traditional) and English; the site speaks three languages."""

from __future__ import annotations

from catalog.textkeys import to_simplified
from rules_check import FORMATS
from webutil.i18n import wants_english, wants_simplified


def format_label(name: str) -> str:
    """A format's name in the reader's language ("標準賽制", "标准赛制", "Standard")."""
    fmt = FORMATS.get(name)
    return pick(fmt.label, fmt.label_en) if fmt else name


def pick(message_zh: str, message_en: str) -> str:
    if wants_english():
        return message_en
    return to_simplified(message_zh) if wants_simplified() else message_zh
