"""The Django side of `rules_check`: the one adapter through which pages, the API and the
command line check decks, so that all of them give the same verdict.

It resolves what players type to cards (catalog.lookup) and hands plain data to `rules_check`.
"""

from __future__ import annotations

import hashlib
import threading
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any

from catalog import cache_version
from catalog.lookup import catalog_index
from groups import formats
from rules_check import (
    DEFAULT_FORMAT,
    Deck,
    Entry,
    Format,
    ParsedList,
    Verdict,
    check,
    parse,
)
from rules_check.formats import rules_of
from rules_check.messages import problem


def check_list(text: str, format_name: str | Format = DEFAULT_FORMAT) -> tuple[ParsedList, Verdict]:
    """Parse a deck list and check it, in a format given by key (official or a house format) or
    as a Format already resolved. Raises rules_check.DeckListError for input that is not a list at
    all, and rules_check.FormatError for an unknown format."""
    fmt = format_name if isinstance(format_name, Format) else formats.resolve(format_name)
    parsed = parse(text, catalog_index().lookup)
    return parsed, check(parsed.deck, fmt, parsed.problems)


def remembered_verdict(text: str, format_name: str = DEFAULT_FORMAT) -> Verdict:
    """check_list()'s verdict, remembered per catalogue version. An event's pages check its fifty
    lists on every view, and a list, once sent, seldom changes: parsing and checking them again
    was a third of the organiser's page at 50 lists. A verdict is immutable (frozen), so one is
    shared safely; a list that is no list at all raises each time, as check_list does. The key
    holds a digest of the list, not the list (up to 64 KiB each)."""
    fmt = formats.resolve(format_name)
    digest = hashlib.blake2b(text.encode(), digest_size=16).digest()
    # The format's rules, not only its key: a house format edited is checked anew at once.
    key = (cache_version.current(), repr(rules_of(fmt)), digest)
    with _remembered_lock:
        verdict = _remembered.get(key)
        if verdict is not None:
            _remembered.move_to_end(key)
            return verdict
    verdict = check_list(text, fmt)[1]
    with _remembered_lock:
        _remembered[key] = verdict
        while len(_remembered) > REMEMBERED_VERDICTS:
            _remembered.popitem(last=False)
    return verdict


# Enough for the lists of the events being run at once; the oldest go first.
REMEMBERED_VERDICTS = 4096
_remembered: OrderedDict[tuple[str, str, bytes], Verdict] = OrderedDict()
_remembered_lock = threading.Lock()


@dataclass(frozen=True)
class RequestedEntry:
    card: str
    count: int


def check_structured(
    general: str | None,
    cards: list[RequestedEntry],
    reinforcements: list[RequestedEntry],
    format_name: str | Format = DEFAULT_FORMAT,
) -> Verdict:
    """Check a deck given by card codes (or names). Unknown cards are `unknown_card` problems."""
    fmt = format_name if isinstance(format_name, Format) else formats.resolve(format_name)
    index = catalog_index()
    deck = Deck()
    sections = (
        ("generals", [RequestedEntry(general, 1)] if general else []),
        ("main", cards),
        ("reinforcements", reinforcements),
    )
    unknown: dict[str, None] = {}  # one problem for each unknown name, however often it is sent
    for section, entries in sections:
        for requested in entries:
            found = index.lookup(requested.card)
            if found is None:
                unknown.setdefault(requested.card[:60])
            else:
                getattr(deck, section).append(Entry(card=found, count=requested.count))
    return check(deck, fmt, [problem("unknown_card", text=text) for text in unknown])


def deck_for_rules(data: Any) -> Deck:
    """A stored deck (decks.services.DeckData) as rules_check's plain data: no query, the
    catalogue index resolves every code, so a deck of any size costs the same."""
    index = catalog_index()
    return Deck(
        generals=[Entry(index.by_code[data.general])] if data.general else [],
        main=[Entry(index.by_code[code], count) for code, count in data.main.items()],
        reinforcements=[Entry(index.by_code[code], count) for code, count in data.reinforcements.items()],
    )


def check_deck_snapshot(data: Any, fmt: Format | None = None) -> Verdict:
    """A stored deck's verdict in its format (`fmt`, when the caller resolved it already)."""
    return check(deck_for_rules(data), fmt or formats.stored(data.format))
