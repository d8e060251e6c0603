""" "Close enough": the few cards to buy that make the most decks buildable from a collection.

A deck the reader could build but for a few copies needs a small set of cards (its gap: card →
copies, read from the bits each deck keeps, decks.needs). A purchase makes buildable every deck
whose gap it covers. The suggestions are the gaps themselves and the unions of two of the
commonest, within the copies allowed, ranked by how many decks they unlock, then by how few
copies they take. The decks read are the legal ones the reader may read and does not own
(public, or shared with a group of theirs), missing between 1 and `missing` copies.

Bounded: one query for the decks (the gap counted in the database, as the "buildable" filter
does), at most MAX_CANDIDATES of them read, each gap decoded from its bits in Python, and the
sub-purchases of a purchase of at most MAX_MISSING copies are few (at most 2^MAX_MISSING).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from itertools import combinations, product
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
PAIRED = 100

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


def _gap(bits: str, lack: int, width: int) -> Gap:
    """The copies a deck lacks per slot: the bits its needs and the reader's lack share."""
    short = int(bits, 2) & lack
    per_slot: Counter[int] = Counter()
    while short:
        low = short & -short
        position = width - low.bit_length()  # the bit's index in the string, from the left
        per_slot[position // needs.LEVELS] += 1
        short ^= low
    return tuple(sorted(per_slot.items()))


def _parts(purchase: Gap) -> Iterator[Gap]:
    """Every non-empty sub-purchase: what each card's copies could be cut to."""
    for counts in product(*(range(n + 1) for _slot, n in purchase)):
        part = tuple((slot, n) for (slot, _most), n in zip(purchase, counts, strict=True) if n)
        if part:
            yield part


def _union(a: Gap, b: Gap) -> Gap:
    merged = dict(a)
    for slot, n in b:
        merged[slot] = max(merged.get(slot, 0), n)
    return tuple(sorted(merged.items()))


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
        .order_by("missing", "-updated", "-pk")
        .values_list("pk", "needs")[:MAX_CANDIDATES]
    )
    lack, width = int(mask, 2), len(mask)
    decks_of: dict[Gap, list[int]] = {}
    for pk, bits in rows:
        if bits and len(bits) == width:
            decks_of.setdefault(_gap(bits, lack, width), []).append(pk)
    common = sorted(decks_of, key=lambda gap: -len(decks_of[gap]))[:PAIRED]
    unions = (_union(a, b) for a, b in combinations(common, 2))
    purchases = set(decks_of) | {joined for joined in unions if sum(n for _s, n in joined) <= missing}
    code_of = _codes_by_slot()
    ranked = []
    for purchase in purchases:
        unlocked = [pk for part in _parts(purchase) for pk in decks_of.get(part, [])]
        ranked.append((len(unlocked), -sum(n for _s, n in purchase), purchase, unlocked))
    ranked.sort(key=lambda row: (-row[0], -row[1], row[2]))
    return [
        Suggestion([(code_of[slot], n) for slot, n in purchase], count, sorted(unlocked, reverse=True)[:DECKS_NAMED])
        for count, _copies, purchase, unlocked in _dominant(ranked)[:MAX_SUGGESTIONS]
    ]


def _dominant(ranked: list[tuple[int, int, Gap, list[int]]]) -> list[tuple[int, int, Gap, list[int]]]:
    """Leave out a purchase that unlocks no more than a smaller one it contains: buying the extra
    copies would gain nothing."""
    best: dict[Gap, int] = {}
    kept = []
    for row in ranked:
        count, _copies, purchase, _unlocked = row
        if any(best.get(part, -1) >= count for part in _parts(purchase) if part != purchase):
            continue
        best[purchase] = count
        kept.append(row)
    return kept


def _codes_by_slot() -> dict[int, str]:
    code_by_pk = catalog_index().code_by_pk
    return {slot: code_by_pk[pk] for pk, slot in needs.slots().items()}
