"""Card codes as players type them, reduced to the printed form.

`YXJQ-003`, `yxjq3`, `YXJQ 003` are one code; the supplementary series prints `五道·001` and
accepts `WD-001` and `wd1`; the printed table's typo `YCWJ-,001` reads as `YCWJ-001`.
"""

from __future__ import annotations

import re
import unicodedata

# The printed code prefixes, each with the mark that joins it to its number. Append only: a deck
# code stores a card's prefix as its index in this tuple (decks.deckcode).
PRINTED_PREFIXES: tuple[tuple[str, str], ...] = (
    ("YXJQ", "-"),
    ("LSHJ", "-"),
    ("GMGD", "-"),
    ("五道", "·"),
    ("WJ", "-"),
    ("YCWJ", "-"),
    ("FJ", "-"),
    ("YJ", "-"),
)
JOINERS: dict[str, str] = dict(PRINTED_PREFIXES)
# How players may type a prefix (五道 is typed WD), to the printed prefix.
_TYPED: dict[str, str] = {printed: printed for printed, _ in PRINTED_PREFIXES} | {"WD": "五道"}
# The code prefixes as typed in Latin letters.
ASCII_PREFIXES = tuple(prefix for prefix in _TYPED if prefix.isascii())
# Longest first, so that YCWJ is not read as Y + CWJ.
_ALTERNATIVES = "|".join(sorted(_TYPED, key=len, reverse=True))
_CODE = re.compile(
    rf"^(?P<prefix>{_ALTERNATIVES})[\s\-·•.,_\u30fb\uff0d\u2010-\u2015]*(?P<number>\d{{1,4}})$",
    re.IGNORECASE,
)


def normalize_code(text: str) -> str | None:
    """The printed code for `text`, or None when `text` is not shaped like a card code."""
    # NFKC folds full-width letters, digits and dashes (ＹＸＪＱ－００３) to ASCII.
    cleaned = unicodedata.normalize("NFKC", text).strip().replace(" ", "")
    match = _CODE.match(cleaned)
    if match is None:
        return None
    printed = _TYPED[match.group("prefix").upper()]
    joiner = JOINERS[printed]
    number = int(match.group("number"))
    if number == 0 or number > 999:
        return None
    return f"{printed}{joiner}{number:03d}"
