"""The Django side of `rules_check`: the one adapter through which pages, the API and the
command line check decks, so that all of them give the same verdict.

It turns catalogue rows into `CardFacts`, resolves what players type (codes and aliases, names
in either script, full pinyin) to cards, and hands plain data to `rules_check`.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass

from catalog import cache_version, textkeys
from catalog.models import Card
from rules_check import (
    DEFAULT_FORMAT,
    CardFacts,
    Deck,
    Entry,
    ParsedList,
    Verdict,
    check,
    get_format,
    normalize_code,
    parse,
)
from rules_check.messages import problem


def card_facts(card: Card) -> CardFacts:
    return CardFacts(
        code=card.code,
        name=card.name,
        kind=card.kind,
        name_key=card.name_key,
        cost=card.cost,
        troop_class=card.troop_class,
        speed=card.speed,
        element=card.element,
    )


@dataclass(frozen=True)
class CatalogIndex:
    """Every card by code, by same-name key and by unique full pinyin: a parse costs no query."""

    version: str
    by_code: dict[str, CardFacts]
    by_name: dict[str, CardFacts]
    by_pinyin: dict[str, CardFacts]

    @classmethod
    def build(cls, version: str) -> CatalogIndex:
        by_code: dict[str, CardFacts] = {}
        by_name: dict[str, CardFacts] = {}
        pinyin_owners: dict[str, set[str]] = {}
        for card in Card.objects.order_by("position"):
            facts = card_facts(card)
            by_code[card.code] = facts
            # Two cards share a name only across kinds (貂蟬 the general and the awakened
            # general): the first in catalogue order wins; a code picks the other.
            by_name.setdefault(card.name_key, facts)
            for reading in filter(None, card.pinyin_key.split("|")):
                pinyin_owners.setdefault(reading, set()).add(card.name_key)
        by_pinyin = {
            reading: by_name[next(iter(owners))] for reading, owners in pinyin_owners.items() if len(owners) == 1
        }
        return cls(version=version, by_code=by_code, by_name=by_name, by_pinyin=by_pinyin)

    def lookup(self, text: str) -> CardFacts | None:
        code = normalize_code(text)
        if code is not None:
            return self.by_code.get(code)
        found = self.by_name.get(textkeys.name_key(text))
        if found is None and text.isascii():
            found = self.by_pinyin.get(textkeys.fold_pinyin(text))
        return found


_index: CatalogIndex | None = None
_lock = threading.Lock()


def catalog_index() -> CatalogIndex:
    """The index of the current catalogue, rebuilt when the catalogue version changes."""
    global _index
    version = cache_version.current()
    index = _index
    if index is None or index.version != version:
        with _lock:
            if _index is None or _index.version != version:
                _index = CatalogIndex.build(version)
            index = _index
    return index


def check_list(text: str, format_name: str = DEFAULT_FORMAT) -> tuple[ParsedList, Verdict]:
    """Parse a deck list and check it. Raises rules_check.DeckListError for input that is not a
    list at all, and rules_check.FormatError for an unknown format."""
    fmt = get_format(format_name)
    parsed = parse(text, catalog_index().lookup)
    return parsed, check(parsed.deck, fmt, parsed.problems)


@dataclass(frozen=True)
class RequestedEntry:
    card: str
    count: int


def check_structured(
    general: str | None,
    cards: list[RequestedEntry],
    reinforcements: list[RequestedEntry],
    format_name: str = DEFAULT_FORMAT,
) -> Verdict:
    """Check a deck given by card codes (or names). Unknown cards are `unknown_card` problems."""
    fmt = get_format(format_name)
    index = catalog_index()
    deck = Deck()
    earlier = []
    sections = (
        ("generals", [RequestedEntry(general, 1)] if general else []),
        ("main", cards),
        ("reinforcements", reinforcements),
    )
    for section, entries in sections:
        for requested in entries:
            found = index.lookup(requested.card)
            if found is None:
                earlier.append(problem("unknown_card", text=requested.card[:60]))
            else:
                getattr(deck, section).append(Entry(card=found, count=requested.count))
    return check(deck, fmt, earlier)
