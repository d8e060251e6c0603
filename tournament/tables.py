"""Table numbers for a round's pairs: players who need a fixed table (accessibility) sit there,
everyone else fills the other tables in the pairs' order (best score groups first).

A pair with two fixed tables takes the lower; when two pairs ask for one table, the first in
order gets it and the other takes the lowest free table, like everyone else.
"""

from __future__ import annotations

from collections.abc import Mapping


def assign_tables(pairs: list[tuple[int, int | None]], fixed: Mapping[int, int]) -> list[tuple[int, int, int | None]]:
    """(table, a, b) for each pair, sorted by table."""
    wanted: dict[int, int] = {}  # pair index -> table
    taken: set[int] = set()
    for i, (a, b) in enumerate(pairs):
        asks = sorted(t for t in (fixed.get(a), fixed.get(b) if b is not None else None) if t)
        free = [t for t in asks if t not in taken]
        if free:
            wanted[i] = free[0]
            taken.add(free[0])
    tables: list[tuple[int, int, int | None]] = []
    next_free = 1
    for i, (a, b) in enumerate(pairs):
        table = wanted.get(i)
        if table is None:
            while next_free in taken:
                next_free += 1
            table = next_free
            taken.add(table)
        tables.append((table, a, b))
    return sorted(tables)
