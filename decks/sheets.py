"""Deck registration sheets: one printed page a deck, for a saved deck or a list submitted to an
event. Both are first made rules_check's plain Deck, so one template prints them all."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from catalog.lookup import catalog_index
from decks import deckcode
from decks.legality import check_list, deck_for_rules
from decks.presenters import group_by_kind
from groups import formats
from rules_check import CardFacts, Deck, Entry, Verdict, check


@dataclass
class Sheet:
    verdict: Verdict
    format_label: str
    deck_name: str = ""
    player: str = ""
    event: str = ""
    date: str = ""
    general: CardFacts | None = None
    groups: list[dict[str, Any]] = field(default_factory=list)  # presenters.group_by_kind
    reinforcements: list[Entry] = field(default_factory=list)
    main_count: int = 0
    deck_code: str = ""


def _merged(entries: list[Entry], order: dict[str, int]) -> list[Entry]:
    """One line a card (a list may name a card on two lines), in catalogue order."""
    counts: Counter[str] = Counter()
    cards: dict[str, CardFacts] = {}
    for entry in entries:
        counts[entry.card.code] += entry.count
        cards[entry.card.code] = entry.card
    return [Entry(cards[code], counts[code]) for code in sorted(counts, key=lambda c: order.get(c, 0))]


def make_sheet(deck: Deck, verdict: Verdict, format_name: str, format_label: str, **heading: Any) -> Sheet:
    order = {code: i for i, code in enumerate(catalog_index().by_code)}  # catalogue order
    main, reinforcements = _merged(deck.main, order), _merged(deck.reinforcements, order)
    general = deck.generals[0].card if deck.generals else None
    sheet = Sheet(verdict=verdict, format_label=format_label, general=general, **heading)
    sheet.groups = group_by_kind(main)
    sheet.reinforcements = reinforcements
    sheet.main_count = sum(e.count for e in main)
    try:
        sheet.deck_code = deckcode.encode(
            format_name,
            general.code if general else None,
            {e.card.code: e.count for e in main},
            {e.card.code: e.count for e in reinforcements},
        )
    except (ValueError, OverflowError, IndexError):  # counts no deck code can hold: the sheet goes without
        sheet.deck_code = ""
    return sheet


def sheet_for_snapshot(data: Any, format_label: str, **heading: str) -> Sheet:
    """The sheet of a saved deck (decks.services.DeckData)."""
    rules_deck = deck_for_rules(data)
    return make_sheet(rules_deck, check(rules_deck, formats.stored(data.format)), data.format, format_label, **heading)


def sheet_for_list(text: str, format_name: str, format_label: str, **heading: str) -> Sheet:
    """The sheet of a submitted deck list. Raises DeckListError for text that is no list."""
    parsed, verdict = check_list(text, format_name)
    return make_sheet(parsed.deck, verdict, format_name, format_label, **heading)
