"""The rules of the game as a reference: the sections of `catalog/data/rules.json` (taken from the
seeds by `manage.py extractrules`), read once per process and shown in the reader's script.

The file is part of the catalogue's data and ships with it; nothing in the database copies it, so
a rules page or answer costs no query."""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Literal

from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe

from catalog import textkeys
from webutil.i18n import wants_english, wants_simplified

DATA_FILE = Path(__file__).resolve().parent / "data" / "rules.json"

Script = Literal["zh_hant", "zh_hans", "en"]
SCRIPTS: tuple[Script, ...] = ("zh_hant", "zh_hans", "en")
# A search within the rules: a few words, never a paragraph.
MAX_QUERY = 40


@dataclass(frozen=True)
class Section:
    anchor: str
    parent: str | None
    title: dict[str, str | None]
    text: dict[str, str | None]
    zh_hans_from: str  # "001" (the Simplified seed's own text) or "000" (converted)

    def lines(self, script: Script) -> list[str]:
        return (self.text.get(script) or "").splitlines()

    def translated(self, script: Script) -> bool:
        return self.text.get(script) is not None


@dataclass(frozen=True)
class Older:
    """The older text of the rules in seed 001 (30–50 cards): superseded, shown as it is."""

    anchor: str
    title: str
    text: str

    def lines(self) -> list[str]:
        return self.text.splitlines()


@dataclass(frozen=True)
class Book:
    sections: tuple[Section, ...]
    older: Older

    def section(self, anchor: str) -> Section | None:
        return next((s for s in self.sections if s.anchor == anchor), None)

    def children(self, anchor: str | None) -> list[Section]:
        return [s for s in self.sections if s.parent == anchor]


@lru_cache(maxsize=1)
def book() -> Book:
    data = json.loads(DATA_FILE.read_text(encoding="utf-8"))
    sections = tuple(
        Section(s["anchor"], s["parent"], s["title"], s["text"], s["zh_hans_from"]) for s in data["sections"]
    )
    older = data["older"]
    return Book(sections, Older(older["anchor"], older["title"]["zh_hans"], older["text"]["zh_hans"]))


@lru_cache(maxsize=1)
def _searched() -> list[tuple[Section, str]]:
    """Each section with what a search reads of it (its titles and texts, in Traditional), made
    once per process: the rules do not change while it lives."""
    out = []
    for section in book().sections:
        parts = (section.title["zh_hant"], section.text["zh_hant"], section.text["zh_hans"])
        words = " ".join(textkeys.to_traditional(part or "") for part in parts)
        out.append((section, f"{words} {section.title.get('en') or ''}".casefold()))
    return out


def matching(query: str) -> list[Section]:
    """The sections whose title or text holds `query`, typed in either script."""
    wanted = textkeys.to_traditional(query.strip()).casefold()
    if not wanted:
        return []
    return [section for section, words in _searched() if wanted in words]


def reader_script() -> Script:
    """The script of the reader's language (English readers get English where there is some)."""
    if wants_english():
        return "en"
    return "zh_hans" if wants_simplified() else "zh_hant"


@dataclass
class Shown:
    """A section as a page shows it, in the reader's script."""

    anchor: str
    title: str
    lines: list[SafeString]
    children: list[Shown]
    converted: bool  # Simplified converted from the Traditional text (001 does not cover it)
    untranslated: bool  # an English reader gets the Traditional text
    matched: bool  # holds the searched words
    lang: str  # of the printed text (and, on Chinese pages, of the printed title)


def _highlighted(line: str, wanted: str) -> SafeString:
    """The line escaped, each occurrence of `wanted` in a <mark> (found in the plain text, so that
    a search never cuts into an escaped character)."""
    if not wanted:
        return escape(line)
    pieces = line.split(wanted)
    return mark_safe(f"<mark>{escape(wanted)}</mark>".join(escape(p) for p in pieces))  # noqa: S308 (escaped)


def shown(script: Script, query: str = "") -> list[Shown]:
    """The section tree for a page in `script`, the searched words marked."""
    text_script: Script = "zh_hant" if script == "en" else script
    wanted = query.strip()
    wanted = textkeys.to_simplified(wanted) if text_script == "zh_hans" else textkeys.to_traditional(wanted)
    hits = {s.anchor for s in matching(query)} if query.strip() else set()

    def one(section: Section) -> Shown:
        return Shown(
            anchor=section.anchor,
            title=section.title.get(script) or section.title["zh_hant"] or "",
            lines=[_highlighted(line, wanted) for line in section.lines(text_script)],
            children=[one(child) for child in book().children(section.anchor)],
            converted=script == "zh_hans" and section.zh_hans_from == "000",
            untranslated=not section.translated(script),
            matched=section.anchor in hits,
            lang="zh-Hans" if text_script == "zh_hans" else "zh-Hant",
        )

    return [one(section) for section in book().children(None)]
