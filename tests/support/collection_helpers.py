"""Helpers for collection tests: give a user cards in one line."""

from __future__ import annotations

from typing import Any

from catalog.models import Card
from collection.services import set_counts


def own(user: Any, **counts: int | tuple[int, int]) -> None:
    """own(alice, YXJQ_003=3, WJ_001=(1, 1)): quantity, or (quantity, foil), by code."""
    for key, value in counts.items():
        code = key.replace("_", "-").replace("WD-", "五道·")
        quantity, foil = value if isinstance(value, tuple) else (value, 0)
        set_counts(user, Card.objects.get(code=code), quantity=quantity, foil_quantity=foil)
