"""Swiss pairings.

- Round 1 is random: the players shuffled with the round's seed (recorded, so it can be
  reproduced) and paired in order.
- Later rounds pair within score groups; no two players meet twice; floats between groups are as
  few and as small as possible; with an odd count the bye goes to a player of the lowest score
  group who has not had one, chosen inside the matching, so that a pairing without rematches is
  always found when one exists.

Up to GLOBAL_UP_TO players, one maximum-weight matching (networkx) over every player decides:
a pair costs the square of its score gap, so the pairing has the fewest and smallest floats
there are (tested against every possible pairing). A global matching over 512 players takes
about 3 s, so larger events are paired score group by score group: each group is matched with
the players floated down from above (who are paired first), what does not pair floats down, and
the last group takes the bye; only when that leaves someone unpaired does the global matching
decide. Each group's floats are then as few as it allows, which is nearly always the global
best. Weights are integers.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Set

import networkx as nx

BYE = None
_BYE_NODE = -1
GLOBAL_UP_TO = 128


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
) -> list[tuple[int, int | None]]:
    """Pairs for the next round (a, b), b None for the bye, best score groups first."""
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
    found = _by_groups(order, scores, met, had_bye, lot) if len(order) > GLOBAL_UP_TO else None
    if found is None:
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
) -> list[tuple[int, int | None]] | None:
    groups: dict[int, list[int]] = {}
    for p in order:
        groups.setdefault(scores.get(p, 0), []).append(p)
    levels = sorted(groups, reverse=True)
    ascending = sorted(groups)
    spread = SPREAD
    pairs: list[tuple[int, int | None]] = []
    floating: list[int] = []
    for number, level in enumerate(levels):
        members = floating + groups[level]
        last = number == len(levels) - 1
        graph = nx.Graph()
        graph.add_nodes_from(members)
        carried = set(floating)
        for i, a in enumerate(members):
            for b in members[i + 1 :]:
                if frozenset((a, b)) in met:
                    continue
                # Pair those floated down first: nobody should float twice.
                bonus = 10**6 * ((a in carried) + (b in carried))
                graph.add_edge(a, b, weight=_weight(a, b, scores, lot, spread) + bonus)
        if last and len(members) % 2:
            for p in members:
                if p not in had_bye:
                    graph.add_edge(p, _BYE_NODE, weight=_bye_weight(scores.get(p, 0), ascending))
        matching = nx.max_weight_matching(graph, maxcardinality=True)
        paired: set[int] = set()
        for a, b in matching:
            if _BYE_NODE in (a, b):
                pairs.append((b if a == _BYE_NODE else a, BYE))
                paired.add(b if a == _BYE_NODE else a)
            else:
                pairs.append((a, b))
                paired.update((a, b))
        floating = [p for p in members if p not in paired]
        if last and floating:
            return None  # someone is left: only the global matching can say whether it can be done
    return pairs


def _global(
    order: list[int],
    scores: Mapping[int, int],
    met: Set[frozenset[int]],
    had_bye: Set[int],
    lot: Mapping[int, int],
) -> list[tuple[int, int | None]]:
    graph = nx.Graph()
    graph.add_nodes_from(order)
    spread = SPREAD
    ascending = sorted({scores.get(p, 0) for p in order})
    for i, a in enumerate(order):
        for b in order[i + 1 :]:
            if frozenset((a, b)) not in met:
                graph.add_edge(a, b, weight=_weight(a, b, scores, lot, spread))
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
