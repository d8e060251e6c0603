""" "Close enough": the few cards to buy that make the most decks buildable from a collection.

A deck the reader could build but for a few copies needs a small set of cards (its gap: card →
copies, read from the bits each deck keeps, decks.needs). A purchase makes buildable every deck
whose gap it covers. The suggestions are the gaps themselves and the unions of two of the
commonest, within the copies allowed, ranked by how many decks they unlock, then by how few
copies they take. The decks read are the legal ones the reader may read and does not own
(public, or shared with a group of theirs), missing between 1 and `missing` copies.

Bounded: one query for the decks (the gap counted and its bits taken in the database, as the
"buildable" filter does), at most MAX_CANDIDATES of them read, each gap sent as bytes and kept as
one integer (a union is an OR, a sub-purchase a subset of its bits; the bit strings are whole
64-bit words, needs.width, so the bytes hold no padding), the unions of the PAIRED commonest gaps
only, and the sub-purchases of a purchase of at most MAX_MISSING copies are few (at most
2^MAX_MISSING).
"""

from __future__ import annotations

import heapq
from collections.abc import Iterator
from dataclasses import dataclass, field
from itertools import combinations
from typing import Any

from django.db.models import Exists, OuterRef, Q

from catalog.lookup import catalog_index
from collection.queries import availability
from decks import needs
from decks.models import PUBLIC, Deck
from groups.models import Membership

MAX_MISSING = 5
DEFAULT_MISSING = 3
# Suggestions answered, and decks named for each.
MAX_SUGGESTIONS = 10
DECKS_NAMED = 10
# Decks read at most (those missing fewest copies first): enough for every real gap, a bound on
# the request whatever the number of decks.
MAX_CANDIDATES = 20_000
# The commonest gaps whose unions in pairs are tried as purchases.
PAIRED = 40

# A gap, or a purchase: the bits of needs & lack as one integer (the leftmost bit the highest), one
# bit a copy.
Purchase = int


@dataclass
class Suggestion:
    buy: list[tuple[str, int]]  # card code, copies
    unlocks: int
    decks: list[int] = field(default_factory=list)

    @property
    def copies(self) -> int:
        return sum(n for _code, n in self.buy)


def _readable_by(user: Any) -> Q:
    shared = Deck.groups.through.objects.filter(
        deck=OuterRef("pk"), group__in=Membership.objects.filter(user=user).values("group")
    )
    return PUBLIC | Q(Exists(shared))


def _parts(purchase: Purchase) -> Iterator[Purchase]:
    """Every non-empty sub-purchase (its bits' non-empty subsets; at most 2^MAX_MISSING). A gap's
    bits for a card are consecutive from the reader's first missing copy, so only the subsets that
    cut each card's copies can be gaps."""
    part = purchase
    while part:
        yield part
        part = (part - 1) & purchase


def _per_card(purchase: Purchase, width: int) -> list[tuple[int, int]]:
    """(slot, copies) of a purchase, in catalogue order: bit i from the left is slot i // LEVELS."""
    per_slot: dict[int, int] = {}
    while purchase:
        low = purchase & -purchase
        slot = (width - low.bit_length()) // needs.LEVELS
        per_slot[slot] = per_slot.get(slot, 0) + 1
        purchase ^= low
    return sorted(per_slot.items())


def close_enough(user: Any, missing: int = DEFAULT_MISSING) -> list[Suggestion]:
    """The purchases of at most `missing` copies that unlock the most decks for `user`."""
    missing = max(1, min(missing, MAX_MISSING))
    available = {pk: item.available for pk, item in availability(user).items()}
    mask = needs.lack_mask(available)
    rows = (
        Deck.objects.filter(_readable_by(user), is_legal=True, needs_over=False)
        .exclude(owner=user)
        .annotate(missing=needs.MissingCopies(mask))
        .filter(missing__gte=1, missing__lte=missing)
        .annotate(shared=needs.SharedBits(mask))
        .order_by("missing", "-updated", "-pk")
        .values_list("pk", "shared")[:MAX_CANDIDATES]
    )
    decks_of: dict[Purchase, list[int]] = {}
    for pk, shared in rows:
        if shared:
            decks_of.setdefault(int.from_bytes(shared, "big"), []).append(pk)
    counts = {gap: len(pks) for gap, pks in decks_of.items()}
    common = heapq.nlargest(PAIRED, counts, key=counts.__getitem__)
    unions = (a | b for a, b in combinations(common, 2))
    purchases = set(counts) | {joined for joined in unions if joined.bit_count() <= missing}
    # Every suggestion is a gap or the union of two, so each sub-purchase of it misses a gap it
    # covers and unlocks fewer decks: no suggestion holds copies that gain nothing, unchecked.
    unlocks = {purchase: sum(counts.get(part, 0) for part in _parts(purchase)) for purchase in purchases}
    ranked = heapq.nsmallest(MAX_SUGGESTIONS, purchases, key=lambda p: (-unlocks[p], p.bit_count(), -p))
    code_of = _codes_by_slot()
    width = len(mask)
    out: list[Suggestion] = []
    for purchase in ranked:
        decks = sorted((pk for part in _parts(purchase) for pk in decks_of.get(part, ())), reverse=True)
        buy = [(code_of[slot], n) for slot, n in _per_card(purchase, width)]
        out.append(Suggestion(buy, unlocks[purchase], decks[:DECKS_NAMED]))
    return out


def _codes_by_slot() -> dict[int, str]:
    code_by_pk = catalog_index().code_by_pk
    return {slot: code_by_pk[pk] for pk, slot in needs.slots().items()}


# Why "what to buy next" suggests nothing, in the order they are looked for.
NO_COLLECTION, NO_DECKS, ALL_BUILDABLE, TOO_FAR = "no_collection", "no_decks", "all_buildable", "too_far"


@dataclass(frozen=True)
class Nothing:
    """Why there is no suggestion, and for TOO_FAR the fewest copies the nearest deck misses."""

    reason: str
    nearest: int | None = None


def why_nothing(user: Any) -> Nothing:
    """Why close_enough() found nothing to suggest: no collection counted yet, no legal deck
    shared with the reader, every such deck buildable already, or all too far. Three queries."""
    available = {pk: item.available for pk, item in availability(user).items()}
    if not any(available.values()):
        return Nothing(NO_COLLECTION)
    readable = Deck.objects.filter(_readable_by(user), is_legal=True, needs_over=False).exclude(owner=user)
    nearest = (
        readable.annotate(missing=needs.MissingCopies(needs.lack_mask(available)))
        .filter(missing__gte=1)
        .order_by("missing")
        .values_list("missing", flat=True)
        .first()
    )
    if nearest is not None:
        return Nothing(TOO_FAR, int(nearest))
    return Nothing(ALL_BUILDABLE) if readable.exists() else Nothing(NO_DECKS)
