"""A card's printed code as a recogniser reads it: `YXJQ-004`, `五道·001`, with the usual
confusions of letters and digits (O/0, I/1, S/5, B/8, Z/2), J read for I and C for G, and any
dash, dot or nothing between the set and the number."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable

# The set part and the number part of a code, anywhere in a line of text.
_CODE = re.compile(r"(五道|[A-Z0-9]{2,4})\s*[-‐‑‒–—―·・.．:：_]?\s*([0-9OIL|SBZ]{3})(?![0-9])")
_AS_DIGIT = str.maketrans({"O": "0", "I": "1", "L": "1", "|": "1", "S": "5", "B": "8", "Z": "2"})
_AS_LETTER = str.maketrans({"0": "O", "1": "I", "5": "S", "8": "B", "2": "Z"})
# Letters a recogniser reads for one another in this font: each pair costs one correction.
_LOOK_ALIKE = {("J", "I"), ("I", "J"), ("C", "G"), ("G", "C"), ("O", "Q"), ("Q", "O"), ("U", "V"), ("V", "U")}


def _clean(text: str) -> str:
    """Full-width forms folded (Ｙ→Y, －→-), upper case."""
    return unicodedata.normalize("NFKC", text).upper()


def _prefix_cost(read: str, known: str) -> int | None:
    """Corrections that turn the set part as read into a known one (None: too different)."""
    if len(read) != len(known):
        return None
    cost = 0
    for a, b in zip(read, known, strict=True):
        if a != b:
            if (a, b) not in _LOOK_ALIKE:
                return None
            cost += 1
    return cost if cost <= 1 else None


def normalize_code(text: str, prefixes: Iterable[str]) -> list[tuple[str, int]]:
    """Every code of a known set (`prefixes`: YXJQ, 五道…) that `text` may show, with the number
    of corrections each took (0: read as printed), fewest first."""
    found: dict[str, int] = {}
    known = list(prefixes)
    for match in _CODE.finditer(_clean(text)):
        raw_prefix, raw_number = match.group(1), match.group(2)
        number = raw_number.translate(_AS_DIGIT)
        fixes = sum(1 for a, b in zip(raw_number, number, strict=True) if a != b)
        prefix = raw_prefix if raw_prefix == "五道" else raw_prefix.translate(_AS_LETTER)
        fixes += sum(1 for a, b in zip(raw_prefix, prefix, strict=True) if a != b)
        separator = "·" if prefix == "五道" else "-"
        for candidate in known:
            cost = 0 if candidate == prefix else _prefix_cost(prefix, candidate)
            if cost is not None:
                code = f"{candidate}{separator}{number}"
                found[code] = min(found.get(code, 99), fixes + cost)
    return sorted(found.items(), key=lambda item: (item[1], item[0]))
