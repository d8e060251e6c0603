"""Where people play: one list of regions, kept as data (data/regions.json): the provinces and
regions of China, Taiwan, Hong Kong, Macau, and "elsewhere". A profile's region is where the user
plays ("near me"); an event's is where it is held. Each name is written in the three languages
as its readers write it, not converted."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from webutil.i18n import wants_english, wants_simplified

# The longest slug the list may hold: the model fields' max_length.
SLUG_LENGTH = 20


@dataclass(frozen=True)
class Region:
    slug: str
    zh_hant: str
    zh_hans: str
    en: str

    @property
    def label(self) -> str:
        """The region's name in the reader's language."""
        if wants_english():
            return self.en
        return self.zh_hans if wants_simplified() else self.zh_hant


@cache
def regions() -> dict[str, Region]:
    """Every region, in the list's order (mainland China's by the order of its codes, then Taiwan,
    Hong Kong, Macau and elsewhere)."""
    rows = json.loads((Path(__file__).parent / "data" / "regions.json").read_text(encoding="utf-8"))
    return {row["slug"]: Region(**row) for row in rows}


def choices() -> list[tuple[str, str]]:
    """(slug, slug) for a model field: the name is the page's to show, in its language."""
    return [(slug, slug) for slug in regions()]


def label(slug: str) -> str:
    """A region's name in the reader's language; "" for none."""
    region = regions().get(slug)
    return region.label if region else ""


def labelled() -> list[tuple[str, str]]:
    """(slug, name) of every region for a form's choice, in the reader's language."""
    return [(slug, region.label) for slug, region in regions().items()]


def form_choices(empty: Any) -> Callable[[], list[tuple[str, str]]]:
    """A form field's choices: `empty` ("— all —") first, then every region. A callable, so the
    names are read in the reader's language each time the form is drawn or checked."""
    return lambda: [("", str(empty)), *labelled()]
