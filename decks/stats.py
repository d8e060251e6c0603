"""What the builder and the deck page show beside the list: counts by kind, class, speed and
element, the cost curve (drawn as server-rendered SVG), and what I own of it."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from django.template.loader import render_to_string
from django.utils.safestring import SafeString
from django.utils.translation import get_language

from catalog.models import Card
from collection.queries import Availability, availability
from decks.models import MAIN, Deck, DeckEntry
from rules_check.model import KIND_ORDER, TROOP

CURVE_MAX = 7  # costs of 7 and more share the last bar


@dataclass
class Line:
    entry: DeckEntry
    # The reader's copies of the card that this deck may use: owned (foils too) minus those
    # in the reader's other built decks.
    owned: int = 0
    # Where the reader's other built decks hold copies: [(deck name, copies)].
    held: list[tuple[str, int]] = field(default_factory=list)
    over_committed: bool = False

    @property
    def card(self) -> Card:
        return self.entry.card

    @property
    def missing(self) -> int:
        return max(0, self.entry.count - self.owned)


@dataclass
class DeckView:
    deck: Deck
    groups: list[tuple[str, list[Line]]] = field(default_factory=list)
    reinforcements: list[Line] = field(default_factory=list)
    by_kind: Counter[str] = field(default_factory=Counter)
    by_class: Counter[str] = field(default_factory=Counter)
    by_speed: Counter[str] = field(default_factory=Counter)
    by_element: Counter[str] = field(default_factory=Counter)
    curve: list[tuple[str, int]] = field(default_factory=list)
    unknown_cost: int = 0
    average_cost: float | None = None
    main_count: int = 0
    missing: list[Line] = field(default_factory=list)
    with_collection: bool = False
    general: Line | None = None
    # The deck's entries as read (with their cards): its snapshot comes from them, not a query.
    entries: list[DeckEntry] = field(default_factory=list)
    # Copies the deck takes (general and reinforcements too) and how many of them are available.
    needed_total: int = 0
    available_total: int = 0

    @property
    def available_percent(self) -> int:
        """The share of copies available, in whole percent (0 for a deck of no cards)."""
        return round(100 * self.available_total / self.needed_total) if self.needed_total else 0

    # Lists for templates: a template's `counter.items` would look up the key "items" first.
    @property
    def kinds(self) -> list[tuple[str, int]]:
        return list(self.by_kind.items())

    @property
    def classes(self) -> list[tuple[str, int]]:
        return list(self.by_class.items())

    @property
    def speeds(self) -> list[tuple[str, int]]:
        return list(self.by_speed.items())

    @property
    def elements(self) -> list[tuple[str, int]]:
        return list(self.by_element.items())

    @property
    def missing_total(self) -> int:
        return sum(line.missing for line in self.missing)


def deck_view(deck: Deck, user: Any = None) -> DeckView:
    """Everything shown about a deck, in a fixed number of queries (2, 4 with a collection).

    Against a collection, a card's copies are shared by its entries and the general: the
    deck may use what the reader owns minus what their other built decks hold."""
    entries = list(deck.entries.select_related("card").order_by("card__position"))
    view = DeckView(deck=deck, entries=entries[:])
    if deck.general_id is not None:
        entries.append(DeckEntry(deck=deck, card=deck.general, section="general", count=1))
    found: dict[int, Availability] = {}
    if user is not None and user.is_authenticated:
        view.with_collection = True
        mine = deck.owner_id == user.pk
        found = availability(user, {e.card_id for e in entries}, besides=[deck.allocation_id] if mine else [])
    lines = _lines(entries, found)
    if deck.general_id is not None:
        view.general = lines.pop()
    main = [line for line in lines if line.entry.section == MAIN]
    view.reinforcements = [line for line in lines if line.entry.section != MAIN]
    grouped: dict[str, list[Line]] = {}
    for line in main:
        grouped.setdefault(line.card.kind, []).append(line)
    view.groups = [(kind, grouped[kind]) for kind in KIND_ORDER if kind in grouped]
    costs: Counter[int] = Counter()
    total_cost = 0
    for line in main:
        card, count = line.card, line.entry.count
        view.main_count += count
        view.by_kind[card.kind] += count
        if card.troop_class and card.kind == TROOP:
            view.by_class[card.troop_class] += count
        if card.speed:
            view.by_speed[card.speed] += count
        if card.element:
            view.by_element[card.element] += count
        if card.is_deck_card:
            if card.cost is None:
                view.unknown_cost += count
            else:
                costs[min(card.cost, CURVE_MAX)] += count
                total_cost += card.cost * count
    view.curve = [(f"{c}+" if c == CURVE_MAX else str(c), costs[c]) for c in range(CURVE_MAX + 1)]
    known = sum(costs.values())
    view.average_cost = round(total_cost / known, 2) if known else None
    every = [*lines, *([view.general] if view.general else [])]
    view.missing = [line for line in every if view.with_collection and line.missing]
    view.needed_total = sum(line.entry.count for line in every)
    view.available_total = view.needed_total - sum(line.missing for line in view.missing)
    return view


def _lines(entries: list[DeckEntry], found: dict[int, Availability]) -> list[Line]:
    """One line per entry; a card in two places (say the general and the main deck) shares its
    available copies between them, in list order."""
    left = {card_id: item.available for card_id, item in found.items()}
    lines = []
    for entry in entries:
        item = found.get(entry.card_id, Availability())
        have = left.get(entry.card_id, 0)
        left[entry.card_id] = have - min(entry.count, have)
        lines.append(Line(entry, have, item.held, item.over_committed))
    return lines


def curve_svg(curve: list[tuple[str, int]], width: int = 320, height: int = 140) -> SafeString:
    """The cost curve as an SVG bar chart (templates/decks/_curve.svg, like the card face): no
    chart library, no JavaScript, crisp at any size. Here only the geometry is worked out. Decks
    share a few hundred curves: each is drawn once per language (its label is translated)."""
    return _curve_svg(tuple(curve), width, height, get_language() or "")


@lru_cache(maxsize=2048)
def _curve_svg(curve: tuple[tuple[str, int], ...], width: int, height: int, language: str) -> SafeString:
    context = {"bars": curve_bars([list(curve)], width, height), "width": width, "height": height}
    return render_to_string("decks/_curve.svg", context | {"label_y": height - 6})


def curve_bars(curves: list[list[tuple[str, int]]], width: int, height: int) -> list[dict[str, Any]]:
    """Bars of one or more curves on one scale, side by side per cost (series 0, 1, … as `css`)."""
    top = max((n for curve in curves for _, n in curve), default=0) or 1
    slot = width / len(curves[0])
    w = round((slot - 8) / len(curves), 1)
    chart_h = height - 36
    bars = []
    for i, costs in enumerate(zip(*curves, strict=True)):
        for j, (label, n) in enumerate(costs):
            h = round(chart_h * n / top, 1)
            x = round(i * slot + 4 + j * w, 1)
            y = round(16 + chart_h - h, 1)
            bars.append(
                {
                    "css": "ab"[j] if len(curves) > 1 else "",
                    "label": label,
                    "n": n,
                    "x": x,
                    "y": y,
                    "w": w,
                    "h": h,
                    "middle": round(x + w / 2, 1),
                    "top": round(y - 3, 1),
                }
            )
    return bars
