"""Deck registration sheets: one printed page a deck, for a saved deck or a list submitted to an
event. Both are first made rules_check's plain Deck, so one template prints them all."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from catalog.lookup import catalog_index
from decks import deckcode
from decks.legality import check_list, deck_for_rules
from rules_check import CardFacts, Deck, Verdict, check, get_format

_KIND_ORDER = ["troop", "tactic", "general", "awakened_general", "vice_general", "reinforcement"]


@dataclass(frozen=True)
class SheetLine:
    count: int
    card: CardFacts


@dataclass
class Sheet:
    verdict: Verdict
    format_label: str
    deck_name: str = ""
    player: str = ""
    event: str = ""
    date: str = ""
    general: CardFacts | None = None
    groups: list[tuple[str, list[SheetLine], int]] = field(default_factory=list)
    reinforcements: list[SheetLine] = field(default_factory=list)
    main_count: int = 0
    deck_code: str = ""


def _merged(entries: list) -> dict[str, int]:  # type: ignore[type-arg]
    counts: Counter[str] = Counter()
    for entry in entries:
        counts[entry.card.code] += entry.count
    return dict(counts)


def make_sheet(deck: Deck, verdict: Verdict, format_name: str, format_label: str, **heading: str) -> Sheet:
    index = catalog_index()
    order = {code: i for i, code in enumerate(index.by_code)}  # catalogue order
    main, reinforcements = _merged(deck.main), _merged(deck.reinforcements)
    general = deck.generals[0].card if deck.generals else None
    sheet = Sheet(verdict=verdict, format_label=format_label, general=general, **heading)
    grouped: dict[str, list[SheetLine]] = {}
    for code in sorted(main, key=lambda c: order.get(c, 0)):
        grouped.setdefault(index.by_code[code].kind, []).append(SheetLine(main[code], index.by_code[code]))
    sheet.groups = [(k, grouped[k], sum(x.count for x in grouped[k])) for k in _KIND_ORDER if k in grouped]
    in_order = sorted(reinforcements, key=lambda c: order.get(c, 0))
    sheet.reinforcements = [SheetLine(reinforcements[c], index.by_code[c]) for c in in_order]
    sheet.main_count = sum(main.values())
    try:
        sheet.deck_code = deckcode.encode(format_name, general.code if general else None, main, reinforcements)
    except (ValueError, OverflowError, IndexError):  # counts no deck code can hold: the sheet goes without
        sheet.deck_code = ""
    return sheet


def sheet_for_snapshot(data: Any, format_label: str, **heading: str) -> Sheet:
    """The sheet of a saved deck (decks.services.DeckData)."""
    rules_deck = deck_for_rules(data)
    return make_sheet(rules_deck, check(rules_deck, get_format(data.format)), data.format, format_label, **heading)


def sheet_for_list(text: str, format_name: str, format_label: str, **heading: str) -> Sheet:
    """The sheet of a submitted deck list. Raises DeckListError for text that is no list."""
    parsed, verdict = check_list(text, format_name)
    return make_sheet(parsed.deck, verdict, format_name, format_label, **heading)
