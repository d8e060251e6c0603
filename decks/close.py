""" "Close enough": the few cards to buy that make the most decks buildable from a collection.

A deck the reader could build but for a few copies needs a small set of cards (its gap: card →
copies, read from the bits each deck keeps, decks.needs). A purchase makes buildable every deck
whose gap it covers. The suggestions are the gaps themselves and the unions of two of the
commonest, within the copies allowed, ranked by how many decks they unlock, then by how few
copies they take. The decks read are the legal ones the reader may read and does not own
(public, or shared with a group of theirs), missing between 1 and `missing` copies.

Bounded: one query for the decks (the gap counted and its bits taken in the database, as the
"buildable" filter does), at most MAX_CANDIDATES of them read, each gap read from its few set bits,
the unions of the PAIRED commonest gaps only, and the sub-purchases of a purchase of at most
MAX_MISSING copies are few (at most 2^MAX_MISSING).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from itertools import combinations
from typing import Any

from django.db.models import Exists, OuterRef, Q

from catalog.lookup import catalog_index
from collection.queries import availability
from decks import needs
from decks.models import Deck
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

Gap = tuple[tuple[int, int], ...]  # sorted (slot, copies)


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
    return Q(public=True) | Q(Exists(shared))


def _gap(shared: str) -> Gap:
    """The copies a deck lacks per slot, from the bits its needs and the reader's lack share."""
    per_slot: dict[int, int] = {}
    at = shared.find("1")
    while at != -1:
        slot = at // needs.LEVELS
        per_slot[slot] = per_slot.get(slot, 0) + 1
        at = shared.find("1", at + 1)
    return tuple(sorted(per_slot.items()))


def _parts(purchase: Gap) -> list[Gap]:
    """Every non-empty sub-purchase: what each card's copies could be cut to (itself included)."""
    parts: list[Gap] = [()]
    for slot, most in purchase:
        parts = [(*part, (slot, n)) if n else part for part in parts for n in range(most + 1)]
    return parts[1:]  # the first is the empty purchase


def _union(a: Gap, b: Gap) -> Gap:
    merged = dict(a)
    for slot, n in b:
        merged[slot] = max(merged.get(slot, 0), n)
    return tuple(sorted(merged.items()))


def _copies(purchase: Gap) -> int:
    return sum(n for _slot, n in purchase)


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
    decks_of: dict[Gap, list[int]] = {}
    for pk, shared in rows:
        if shared:
            decks_of.setdefault(_gap(shared), []).append(pk)
    counts = {gap: len(pks) for gap, pks in decks_of.items()}
    common = sorted(counts, key=lambda gap: -counts[gap])[:PAIRED]
    unions = (_union(a, b) for a, b in combinations(common, 2))
    purchases = set(counts) | {joined for joined in unions if _copies(joined) <= missing}
    # What each purchase unlocks: the decks of every gap it covers (its sub-purchases that are gaps).
    covered = {purchase: [part for part in _parts(purchase) if part in counts] for purchase in purchases}
    unlocks = {purchase: sum(counts[part] for part in parts) for purchase, parts in covered.items()}
    ranked = sorted(purchases, key=lambda p: (-unlocks[p], _copies(p), p))
    code_of = _codes_by_slot()
    out: list[Suggestion] = []
    for purchase in ranked:
        # A purchase that unlocks no more than a smaller one it contains: its extra copies gain nothing.
        if any(unlocks.get(part, -1) >= unlocks[purchase] for part in _parts(purchase) if part != purchase):
            continue
        decks = sorted((pk for part in covered[purchase] for pk in decks_of[part]), reverse=True)
        out.append(Suggestion([(code_of[slot], n) for slot, n in purchase], unlocks[purchase], decks[:DECKS_NAMED]))
        if len(out) == MAX_SUGGESTIONS:
            break
    return out


def _codes_by_slot() -> dict[int, str]:
    code_by_pk = catalog_index().code_by_pk
    return {slot: code_by_pk[pk] for pk, slot in needs.slots().items()}
