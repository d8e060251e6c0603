"""Card codes as players type them, reduced to the printed form.

`YXJQ-003`, `yxjq3`, `YXJQ 003` are one code; the supplementary series prints `五道·001` and
accepts `WD-001` and `wd1`; the seed's typo `YCWJ-,001` reads as `YCWJ-001`.
"""

from __future__ import annotations

import re
import unicodedata

# Printed prefixes, and how each is joined to its number.
_PREFIXES: dict[str, tuple[str, str]] = {
    "YXJQ": ("YXJQ", "-"),
    "LSHJ": ("LSHJ", "-"),
    "GMGD": ("GMGD", "-"),
    "WD": ("五道", "·"),
    "五道": ("五道", "·"),
    "WJ": ("WJ", "-"),
    "YCWJ": ("YCWJ", "-"),
    "FJ": ("FJ", "-"),
    "YJ": ("YJ", "-"),
}
# The code prefixes as typed in Latin letters (五道 is typed WD).
ASCII_PREFIXES = tuple(prefix for prefix in _PREFIXES if prefix.isascii())
_CODE = re.compile(
    r"^(?P<prefix>YXJQ|LSHJ|GMGD|YCWJ|WJ|FJ|YJ|WD|五道)[\s\-·•.,_\u30fb\uff0d\u2010-\u2015]*(?P<number>\d{1,4})$",
    re.IGNORECASE,
)


def normalize_code(text: str) -> str | None:
    """The printed code for `text`, or None when `text` is not shaped like a card code."""
    # NFKC folds full-width letters, digits and dashes (ＹＸＪＱ－００３) to ASCII.
    cleaned = unicodedata.normalize("NFKC", text).strip().replace(" ", "")
    match = _CODE.match(cleaned)
    if match is None:
        return None
    printed, joiner = _PREFIXES[match.group("prefix").upper()]
    number = int(match.group("number"))
    if number == 0 or number > 999:
        return None
    return f"{printed}{joiner}{number:03d}"
