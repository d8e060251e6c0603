"""rules_check speaks Chinese (Traditional) and English; the site speaks three languages."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from groups import formats
from rules_check import DEFAULT_FORMAT, FORMATS
from webutil.i18n import wants_english, wants_simplified
from webutil.mainland import interface_simplified


def format_label(name: str, house_name: str | None = None) -> str:
    """A format's name in the reader's language ("標準賽制", "标准赛制", "Standard"); a house
    format's is the name its group gave it (`house_name`, when the caller read it already)."""
    fmt = FORMATS.get(name)
    if fmt is not None:
        return pick(fmt.label, fmt.label_en)
    if house_name is None:
        house = formats.house_format(name)
        if house is None:  # gone with its group: read as the default (groups.formats.stored)
            return format_label(DEFAULT_FORMAT)
        house_name = house.name
    return house_name


def label_formats(objects: Sequence[Any]) -> None:
    """Read the names of the house formats of a list of decks or events in one query, for their
    `format_label`: a page of them costs the same whatever formats they have."""
    names = formats.names_of(o.format for o in objects)
    for o in objects:
        if o.format in names:
            o.house_format_name = names[o.format]


def pick(message_zh: str, message_en: str) -> str:
    if wants_english():
        return message_en
    # Interface text, not card data: phrase by phrase as the catalogues are (預設 → 默认).
    return interface_simplified(message_zh) if wants_simplified() else message_zh
