"""Text from users, made safe to store and show again."""

from __future__ import annotations

import re

# Bidirectional controls (embeddings, overrides, isolates, marks): an RLO in a deck name turns
# the rest of a line around ("‮gpj.exe" shows as "exe.jpg"). No name, note or count needs one.
BIDI_CONTROLS = "\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"
_DELETE_BIDI = str.maketrans("", "", BIDI_CONTROLS)


# Chinese characters (the unified ideographs and their extensions and compatibility forms).
CJK = re.compile(r"[\u3400-\u9fff\uf900-\ufaff]")


def strip_bidi(text: str) -> str:
    return text.translate(_DELETE_BIDI)


# Encodings a spreadsheet program saves CSV in, tried in this order after the byte-order marks:
# UTF-8, then Excel's defaults on Traditional (Big5, as cp950) and Simplified (GBK, read as its
# superset GB18030) Chinese Windows.
LEGACY_ENCODINGS = [("cp950", "Big5"), ("gb18030", "GB18030 (GBK)")]


def decode_candidates(data: bytes) -> list[tuple[str, str]]:
    """Every reading of `data` that decodes cleanly, as (text, label of the encoding), best first.
    A byte-order mark or valid UTF-8 settles it; otherwise both Chinese encodings may decode the
    same bytes, and the caller picks the reading that makes sense."""
    if data.startswith(b"\xef\xbb\xbf"):
        return [(data[3:].decode("utf-8", errors="strict"), "UTF-8")] if _decodes(data[3:], "utf-8") else []
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        return [(data.decode("utf-16"), "UTF-16")] if _decodes(data, "utf-16") else []
    if _decodes(data, "utf-8"):
        return [(data.decode("utf-8"), "UTF-8")]
    return [(data.decode(codec), label) for codec, label in LEGACY_ENCODINGS if _decodes(data, codec)]


def _decodes(data: bytes, codec: str) -> bool:
    try:
        data.decode(codec)
    except (UnicodeDecodeError, LookupError):
        return False
    return True
