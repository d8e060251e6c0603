"""Swiss pairings.

- Round 1 is random: the players shuffled with the round's seed (recorded, so it can be
  reproduced) and paired in order.
- Later rounds pair within score groups; no two players meet twice; floats between groups are as
  few and as small as possible; with an odd count the bye goes to a player of the lowest score
  group who has not had one, chosen inside the matching, so that a pairing without rematches is
  always found when one exists.

Up to GLOBAL_UP_TO players, one maximum-weight matching (networkx) over every player decides:
a pair costs the square of its score gap, so the pairing has the fewest and smallest floats
there are (tested against every possible pairing). That matching grows with the cube of the
players (3 s at 512, a minute at 2,048), so larger events are paired in two steps:

- the bye first, by its rule: the lowest score group, and there the lowest placed player who
  has not had one (the next in that order only if the rest cannot be paired without it);
- then a greedy pass down the score groups in the seeded order, those floated down from above
  first; where a group leaves more floating than its parity asks, its last few pairs are
  reopened and matched exactly with them; whoever is left at the bottom is matched exactly
  with the lowest 4, 16, 64, then 256 pairs reopened.

Measured by bench/tournament.py: every round of 2,048 players in a few milliseconds, with the
global optimum's floats on every round where it can be computed (512 players). A search that
runs past its time (TIME_LIMIT) is refused with PairingError, never a stall. Weights are
integers.
"""

from __future__ import annotations

import random
import time
from collections.abc import Mapping, Set

import networkx as nx

BYE = None
_BYE_NODE = -1
GLOBAL_UP_TO = 128
# Large events: how long the repair may look before the round is refused (never a stall), how
# many of the lowest pairs it reopens at each step, and how many players in turn may take the bye.
TIME_LIMIT = 5.0
REPAIR_WINDOWS = (4, 16, 64, 256)
BYE_CANDIDATES = 8
GROUP_WINDOW = 6


class PairingError(ValueError):
    """No pairing without rematches (and without a second bye) exists."""


def _rng(seed: int) -> random.Random:
    return random.Random(seed)  # noqa: S311 (a recorded, reproducible draw, not a secret)


def pair_round(
    players: list[int],
    scores: Mapping[int, int],
    met: Set[frozenset[int]],
    had_bye: Set[int],
    seed: int,
    time_limit: float = TIME_LIMIT,
) -> list[tuple[int, int | None]]:
    """Pairs for the next round (a, b), b None for the bye, best score groups first. Raises
    PairingError when no pairing is found (for a large event: within `time_limit` seconds)."""
    if len(players) < 2:
        raise PairingError("at least two players are needed")
    rng = _rng(seed)
    order = sorted(players)
    rng.shuffle(order)  # the seeded order breaks every tie, here and in the matchings
    if all(scores.get(p, 0) == 0 for p in players) and not met and not had_bye:
        pairs: list[tuple[int, int | None]] = [(order[i], order[i + 1]) for i in range(0, len(order) - 1, 2)]
        if len(order) % 2:
            pairs.append((order[-1], BYE))
        return pairs
    lot = {p: i for i, p in enumerate(order)}
    if len(order) > GLOBAL_UP_TO:
        found = _by_groups(order, scores, met, had_bye, lot, time.monotonic() + time_limit)
    else:
        found = _global(order, scores, met, had_bye, lot)
    return sorted(found, key=lambda pair: _pair_key(pair, scores, lot))


def _pair_key(pair: tuple[int, int | None], scores: Mapping[int, int], lot: Mapping[int, int]) -> tuple[int, ...]:
    a, b = pair
    if b is None:
        return (1, 0, 0)
    top = max(scores.get(a, 0), scores.get(b, 0))
    return (0, -top, min(lot[a], lot[b]))


# Every weight is SPREAD minus costs, so all are positive. A bye above the lowest score group
# costs more than all the floats of a round together: the bye's rule comes first.
SPREAD = 10**13
BYE_STEP = 10**9


def _bye_weight(score: int, levels: list[int]) -> int:
    return SPREAD - BYE_STEP * levels.index(score)


def _weight(a: int, b: int, scores: Mapping[int, int], lot: Mapping[int, int], spread: int) -> int:
    # A float costs the square of the score gap (two small floats beat one large one). Between
    # equally good pairings the seeded order in which the players enter the graph decides: equal
    # weights also keep the matching fast (varied ones made it ten times slower at 256 players).
    gap = scores.get(a, 0) - scores.get(b, 0)
    return spread - gap * gap * 1000


def _by_groups(
    order: list[int],
    scores: Mapping[int, int],
    met: Set[frozenset[int]],
    had_bye: Set[int],
    lot: Mapping[int, int],
    deadline: float,
) -> list[tuple[int, int | None]]:
    """Large events: the bye first, by its rule (the lowest score group, the lowest placed there
    who has not had one), then everyone else by `_greedy`; should that fail for this bye, the
    next candidate takes it."""
    if len(order) % 2 == 0:
        found = _greedy(order, scores, met, lot, deadline)
        if found is None:
            raise PairingError("no pairing without a rematch was found")
        return found
    candidates = sorted((p for p in order if p not in had_bye), key=lambda p: (scores.get(p, 0), -lot[p]))
    for bye in candidates[:BYE_CANDIDATES]:
        rest = [p for p in order if p != bye]
        found = _greedy(rest, scores, met, lot, deadline)
        if found is not None:
            return [*found, (bye, BYE)]
    raise PairingError("no pairing without a rematch or a second bye was found")


def _greedy(
    players: list[int],
    scores: Mapping[int, int],
    met: Set[frozenset[int]],
    lot: Mapping[int, int],
    deadline: float,
) -> list[tuple[int, int | None]] | None:
    """An even number of players, paired top down: within each score group in the seeded order,
    those floated down from above first; a player with nobody left to meet in the group floats
    down with the odd one out. Whoever is left at the bottom is paired by `_repair`."""
    groups: dict[int, list[int]] = {}
    for p in sorted(players, key=lambda p: lot[p]):
        groups.setdefault(scores.get(p, 0), []).append(p)
    pairs: list[tuple[int, int]] = []
    floating: list[int] = []
    for level in sorted(groups, reverse=True):
        carried = set(floating)
        pool = floating + groups[level]
        free = dict.fromkeys(pool)  # insertion-ordered: the order of the pool
        floating = []
        paired: list[tuple[int, int]] = []
        while free:
            a = next(iter(free))
            del free[a]
            b = next((q for q in free if frozenset((a, q)) not in met), None)
            if b is None:
                floating.append(a)
                continue
            del free[b]
            paired.append((a, b))
        if len(floating) > len(pool) % 2:
            # More float than the group's parity asks: the group's last pairs are opened again
            # and matched exactly with them (fewest floats, those from above paired first).
            window = paired[-GROUP_WINDOW:]
            loose = floating + [p for pair in window for p in pair]
            fixed = _matching(loose, scores, met, lot, carried, complete=False)
            if fixed is not None and 2 * len(fixed) > 2 * len(window):
                paired = paired[: len(paired) - len(window)] + fixed
                taken = {p for pair in fixed for p in pair}
                floating = [p for p in loose if p not in taken]
        pairs += paired
    if floating:
        return _repair(pairs, floating, scores, met, lot, deadline)
    return list(pairs)


def _repair(
    pairs: list[tuple[int, int]],
    left: list[int],
    scores: Mapping[int, int],
    met: Set[frozenset[int]],
    lot: Mapping[int, int],
    deadline: float,
) -> list[tuple[int, int | None]] | None:
    """Those left unpaired at the bottom, with the players of the lowest pairs, matched exactly
    (fewest and smallest floats, no rematch): the lowest 4 pairs first, then 16, 64, 256, while
    time is left. None when no such window pairs everyone."""
    for size in REPAIR_WINDOWS:
        if time.monotonic() > deadline:
            return None
        window = min(size, len(pairs))
        kept = pairs[: len(pairs) - window]
        loose = left + [p for pair in pairs[len(pairs) - window :] for p in pair]
        found = _matching(loose, scores, met, lot, set(left))
        if found is not None:
            return [*kept, *found]
        if window == len(pairs):
            return None
    return None


def _matching(
    players: list[int],
    scores: Mapping[int, int],
    met: Set[frozenset[int]],
    lot: Mapping[int, int],
    carried: Set[int],
    *,
    complete: bool = True,
) -> list[tuple[int, int]] | None:
    """The best pairing of a few players (most pairs, then the smallest floats, those in
    `carried` paired first); None if `complete` and someone is left."""
    ordered = sorted(players, key=lambda p: lot[p])
    graph = _graph(ordered, scores, met, lot, carried)
    matching = nx.max_weight_matching(graph, maxcardinality=True)
    if complete and 2 * len(matching) != len(ordered):
        return None
    return [(a, b) if lot[a] < lot[b] else (b, a) for a, b in matching]


def _graph(
    order: list[int], scores: Mapping[int, int], met: Set[frozenset[int]], lot: Mapping[int, int], carried: Set[int]
) -> nx.Graph:
    """Every pair that has not met, weighted by its float (those in `carried` paired first)."""
    graph = nx.Graph()
    graph.add_nodes_from(order)
    for i, a in enumerate(order):
        for b in order[i + 1 :]:
            if frozenset((a, b)) not in met:
                bonus = 10**6 * ((a in carried) + (b in carried))
                graph.add_edge(a, b, weight=_weight(a, b, scores, lot, SPREAD) + bonus)
    return graph


def _global(
    order: list[int],
    scores: Mapping[int, int],
    met: Set[frozenset[int]],
    had_bye: Set[int],
    lot: Mapping[int, int],
) -> list[tuple[int, int | None]]:
    graph = _graph(order, scores, met, lot, frozenset())
    ascending = sorted({scores.get(p, 0) for p in order})
    if len(order) % 2:
        for p in order:
            if p not in had_bye:
                graph.add_edge(p, _BYE_NODE, weight=_bye_weight(scores.get(p, 0), ascending))
    matching = nx.max_weight_matching(graph, maxcardinality=True)
    pairs: list[tuple[int, int | None]] = []
    for a, b in matching:
        if _BYE_NODE in (a, b):
            pairs.append((b if a == _BYE_NODE else a, BYE))
        else:
            pairs.append((a, b))
    covered = {p for pair in pairs for p in pair if p is not None}
    if covered != set(order):
        raise PairingError("no pairing without a rematch or a second bye exists")
    return pairs
