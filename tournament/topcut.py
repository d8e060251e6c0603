"""The top cut: single elimination seeded by the standings (1 v 8, 4 v 5, 2 v 7, 3 v 6 for 8)."""

from __future__ import annotations

SIZES = (4, 8, 16)


def _seed_order(size: int) -> list[int]:
    """Seeds in bracket order, so that 1 and 2 meet only in the final: [1, 8, 4, 5, 2, 7, 3, 6]."""
    order = [1]
    while len(order) < size:
        n = len(order) * 2
        order = [x for s in order for x in (s, n + 1 - s)]
    return order


def bracket_pairs(seeded: list[int]) -> list[tuple[int, int]]:
    """The first round of the cut: players in standings order (best first), paired by seed."""
    size = len(seeded)
    if size not in SIZES:
        raise ValueError("a top cut is of 4, 8 or 16 players")
    order = _seed_order(size)
    return [(seeded[order[i] - 1], seeded[order[i + 1] - 1]) for i in range(0, size, 2)]
