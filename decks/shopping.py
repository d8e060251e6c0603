"""The shopping list: the cards missing to build several decks at once (and the wishlist), as
the sum of what they take minus what the reader has available for them."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from catalog.models import Card
from collection.models import WishlistEntry
from collection.queries import Availability, availability
from decks.models import Deck, DeckEntry
from webutil.csv import csv_text


@dataclass
class ShoppingLine:
    card: Card
    needed: int = 0
    available: int = 0
    # Copies the reader's other built decks (not among the chosen ones) hold: [(name, copies)].
    held: list[tuple[str, int]] = field(default_factory=list)

    @property
    def missing(self) -> int:
        return max(0, self.needed - self.available)


def shopping_list(user: Any, decks: list[Deck], *, with_wishlist: bool = False) -> list[ShoppingLine]:
    """Per card, the copies the chosen decks take together (and the wishlist wants), and how many
    of them the reader lacks. The chosen decks that are built use their own copies. Five queries,
    however many decks."""
    need: dict[int, int] = {}
    for deck in decks:
        if deck.general_id is not None:
            need[deck.general_id] = need.get(deck.general_id, 0) + 1
    for card_id, count in DeckEntry.objects.filter(deck__in=decks).values_list("card", "count"):
        need[card_id] = need.get(card_id, 0) + count
    if with_wishlist:
        for card_id, wanted in WishlistEntry.objects.filter(user=user).values_list("card", "wanted"):
            need[card_id] = need.get(card_id, 0) + wanted
    found = availability(user, need, besides=[d.allocation_id for d in decks if d.allocation_id])
    cards = Card.objects.with_set().filter(pk__in=need).order_by("position")
    lines = []
    for card in cards:
        item = found.get(card.pk, Availability())
        lines.append(ShoppingLine(card, need[card.pk], item.available, item.held))
    return lines


def as_text(lines: list[ShoppingLine]) -> str:
    """One line per missing card, as a deck list reads it back: "2 新兵 (YXJQ-003)"."""
    return "".join(f"{line.missing} {line.card.name} ({line.card.code})\n" for line in lines if line.missing)


def as_csv(lines: list[ShoppingLine]) -> str:
    rows = ([ln.card.code, ln.card.name, ln.needed, ln.available, ln.missing] for ln in lines if ln.missing)
    return csv_text(["code", "name", "needed", "available", "missing"], rows)
