"""Whole numbers as people and programs send them in query strings, forms, CSV cells and files.

`str.isdigit()` is true for "²" and "٣", which `int()` refuses or reads as 3: every number the
site reads goes through `whole_number`, which takes ASCII digits only.
"""

from __future__ import annotations

import re

_ASCII_WHOLE = re.compile(r"[0-9]+")


def whole_number(raw: object, *, low: int = 0, high: int | None = None, max_digits: int = 18) -> int | None:
    """`raw` as an int when it is ASCII digits (at most `max_digits`) within [low, high]; else None."""
    if not isinstance(raw, str) or not 0 < len(raw) <= max_digits or not _ASCII_WHOLE.fullmatch(raw):
        return None
    value = int(raw)
    if value < low or (high is not None and value > high):
        return None
    return value
