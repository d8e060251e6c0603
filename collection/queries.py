"""Reads of a collection: counts beside catalogue rows, set completion, what is missing, spares.

Each costs a fixed number of queries, whatever the size of the collection or the page.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from django.db.models import Count, F, IntegerField, OuterRef, QuerySet, Subquery, Sum, Value
from django.db.models.functions import Coalesce

from catalog.models import Card, CardQuerySet, CardSet
from catalog.vocab import Tier
from collection.models import AllocatedCard, CollectionChange, CollectionEntry, WishlistEntry
from rules_check.formats import playset_size


def with_counts(cards: QuerySet[Card], user: Any) -> QuerySet[Card]:
    """Catalogue rows with `owned`, `owned_foil` and `in_built` (copies set aside in built decks)
    of this user (None for anonymous): no extra query."""
    if not user.is_authenticated:
        none = Value(None, IntegerField())
        return cards.annotate(owned=none, owned_foil=none, in_built=none)
    mine = CollectionEntry.objects.filter(user=user, card=OuterRef("pk"))
    held = (
        AllocatedCard.objects.filter(allocation__user=user, card=OuterRef("pk"))
        .values("card")
        .annotate(n=Sum("copies"))
        .values("n")
    )
    return cards.annotate(
        owned=Coalesce(Subquery(mine.values("quantity")[:1]), 0),
        owned_foil=Coalesce(Subquery(mine.values("foil_quantity")[:1]), 0),
        in_built=Coalesce(Subquery(held[:1]), 0),
    )


@dataclass
class Availability:
    """One card of one user: copies owned (foils count), and where the built decks hold some."""

    owned: int = 0
    # (allocation name, copies) of the allocations other than the one asked about.
    held: list[tuple[str, int]] = field(default_factory=list)
    # Copies in every allocation, the one asked about included.
    committed: int = 0
    by_allocation: dict[int, int] = field(default_factory=dict)

    @property
    def elsewhere(self) -> int:
        return sum(n for _, n in self.held)

    @property
    def available(self) -> int:
        return max(0, self.owned - self.elsewhere)

    @property
    def over_committed(self) -> bool:
        return self.committed > self.owned


def availability(
    user: Any, card_ids: Iterable[int] | None = None, *, besides: Iterable[int | None] = ()
) -> dict[int, Availability]:
    """Per card: owned copies, minus those in the user's allocations other than `besides` (the
    built decks being looked at, whose own copies are theirs to use). Two queries."""
    besides = set(besides)
    if not user.is_authenticated:
        return {}
    entries = CollectionEntry.objects.filter(user=user)
    allocated = AllocatedCard.objects.filter(allocation__user=user).select_related("allocation")
    if card_ids is not None:
        ids = list(card_ids)
        entries, allocated = entries.filter(card__in=ids), allocated.filter(card__in=ids)
    out: dict[int, Availability] = {}
    # Plain rows: a whole collection is a few hundred, read on every signed-in deck list.
    for card_id, quantity, foil in entries.values_list("card_id", "quantity", "foil_quantity"):
        out[card_id] = Availability(owned=quantity + foil)
    for row in allocated.order_by("allocation__name", "allocation_id"):
        item = out.setdefault(row.card_id, Availability())
        item.committed += row.copies
        item.by_allocation[row.allocation_id] = row.copies
        if row.allocation_id not in besides:
            item.held.append((row.allocation.name, row.copies))
    return out


def owned_cards(user: Any) -> CardQuerySet:
    """The catalogue restricted to what the user owns (regular or foil)."""
    return Card.objects.filter(pk__in=CollectionEntry.objects.owned_by(user).values("card"))


@dataclass
class Progress:
    total: int = 0
    owned: int = 0
    playsets: int = 0

    @property
    def owned_percent(self) -> int:
        return round(100 * self.owned / self.total) if self.total else 0

    @property
    def playset_percent(self) -> int:
        return round(100 * self.playsets / self.total) if self.total else 0

    def add(self, owned_copies: int, kind: str) -> None:
        self.total += 1
        self.owned += owned_copies > 0
        self.playsets += owned_copies >= playset_size(kind)


@dataclass
class SetCompletion:
    set: CardSet
    overall: Progress = field(default_factory=Progress)
    by_tier: dict[str, Progress] = field(default_factory=dict)


def completion(user: Any) -> list[SetCompletion]:
    """Per set: distinct cards owned and full playsets, overall and by rarity tier (3 queries)."""
    entries = CollectionEntry.objects.filter(user=user).only("card", "quantity", "foil_quantity")
    owned = {e.card_id: e.total for e in entries}
    sets = {s.pk: SetCompletion(set=s) for s in CardSet.objects.all()}
    for card_id, set_id, kind, tier in Card.objects.filter(set__isnull=False).values_list("pk", "set", "kind", "tier"):
        result = sets[set_id]
        copies = owned.get(card_id, 0)
        result.overall.add(copies, kind)
        result.by_tier.setdefault(tier or "unknown", Progress()).add(copies, kind)
    order = [*Tier.values, "unknown"]
    for result in sets.values():
        result.by_tier = dict(sorted(result.by_tier.items(), key=lambda item: order.index(item[0])))
    return list(sets.values())


@dataclass
class Lack:
    card: Card
    owned: int
    needed: int

    @property
    def missing(self) -> int:
        return self.needed - self.owned


def missing_in_set(user: Any, card_set: CardSet) -> list[Lack]:
    """Cards of the set the user lacks for a playset, with how many each (2 queries)."""
    owned = {e.card_id: e.total for e in CollectionEntry.objects.filter(user=user, card__set=card_set)}
    lacks = [Lack(card, owned.get(card.pk, 0), playset_size(card.kind)) for card in card_set.cards.all()]
    return [lack for lack in lacks if lack.missing > 0]


@dataclass
class Spare:
    entry: CollectionEntry
    spare: int


def spares(user: Any) -> list[Spare]:
    """Copies beyond a playset: the trade list (1 query)."""
    entries = CollectionEntry.objects.filter(user=user).select_related("card", "card__set").order_by("card__position")
    out = [Spare(e, e.total - playset_size(e.card.kind)) for e in entries]
    return [s for s in out if s.spare > 0]


def wishlist(user: Any) -> QuerySet[WishlistEntry]:
    return WishlistEntry.objects.filter(user=user).select_related("card", "card__set").order_by("card__position")


def short_of_built(user: Any) -> QuerySet[Card]:
    """The cards that the user's built decks take more of than they own (owned or not), with
    the counts of `with_counts`: what marking a deck built set aside without the copies."""
    held = Card.objects.filter(pk__in=AllocatedCard.objects.filter(allocation__user=user).values("card"))
    # in_built, owned and owned_foil are with_counts' annotations, which the type plugin cannot see
    return with_counts(held, user).filter(in_built__gt=F("owned") + F("owned_foil"))  # type: ignore[misc]


def short_copies(user: Any) -> int:
    """How many copies the built decks take that the user does not own (one query)."""
    lacking = short_of_built(user).values_list("in_built", "owned", "owned_foil")  # type: ignore[misc]
    return sum(held - owned - foil for held, owned, foil in lacking)


def totals(user: Any) -> dict[str, int]:
    agg = CollectionEntry.objects.owned_by(user).aggregate(
        cards=Count("id"), copies=Coalesce(Sum("quantity"), 0), foils=Coalesce(Sum("foil_quantity"), 0)
    )
    return {"cards": agg["cards"], "copies": agg["copies"], "foils": agg["foils"]}


@dataclass
class HistoryEntry:
    """One line of the history: one change, or the changes of one step (a photo, a file)."""

    changes: list[CollectionChange]

    @property
    def first(self) -> CollectionChange:
        return self.changes[0]

    @property
    def copies(self) -> int:
        """Copies added (negative: taken away) by this step, foil included."""
        return sum(c.quantity_after - c.quantity_before + c.foil_after - c.foil_before for c in self.changes)


def history(user: Any, limit: int = 200) -> list[HistoryEntry]:
    """The user's latest changes, newest first, the changes of one step as one entry: one query."""
    entries: list[HistoryEntry] = []
    by_batch: dict[Any, HistoryEntry] = {}
    for change in CollectionChange.objects.filter(user=user).select_related("card")[:limit]:
        entry = by_batch.get(change.batch) if change.batch else None
        if entry is None:
            entry = HistoryEntry([change])
            entries.append(entry)
            if change.batch:
                by_batch[change.batch] = entry
        else:
            entry.changes.append(change)
    return entries
