"""What the builder and the deck page show beside the list: counts by kind, class, speed and
element, the cost curve (drawn as server-rendered SVG), and what I own of it."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from django.template.loader import render_to_string
from django.utils.safestring import SafeString

from catalog.models import Card
from collection.models import CollectionEntry
from decks.models import MAIN, Deck, DeckEntry
from rules_check.model import KIND_ORDER, TROOP

CURVE_MAX = 7  # costs of 7 and more share the last bar


@dataclass
class Line:
    entry: DeckEntry
    owned: int = 0

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
    """Everything shown about a deck, in a fixed number of queries (2, 3 with a collection)."""
    entries = list(deck.entries.select_related("card", "card__set").order_by("card__position"))
    owned: dict[int, int] = {}
    view = DeckView(deck=deck)
    if user is not None and user.is_authenticated:
        view.with_collection = True
        owned = {
            e.card_id: e.total for e in CollectionEntry.objects.filter(user=user, card__in=[e.card_id for e in entries])
        }
    lines = [Line(entry, owned.get(entry.card_id, 0)) for entry in entries]
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
    view.missing = [line for line in lines if view.with_collection and line.missing]
    return view


def curve_svg(curve: list[tuple[str, int]], width: int = 320, height: int = 140) -> SafeString:
    """The cost curve as an SVG bar chart (templates/decks/_curve.svg, like the card face): no
    chart library, no JavaScript, crisp at any size. Here only the geometry is worked out."""
    top = max((n for _, n in curve), default=0) or 1
    bar_w = width / len(curve)
    chart_h = height - 36
    bars = []
    for i, (label, n) in enumerate(curve):
        h = round(chart_h * n / top, 1)
        x = round(i * bar_w + 4, 1)
        y = round(16 + chart_h - h, 1)
        w = round(bar_w - 8, 1)
        bars.append(
            {
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
    context = {"bars": bars, "width": width, "height": height, "label_y": height - 6}
    return render_to_string("decks/_curve.svg", context)
