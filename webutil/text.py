"""Text from users, made safe to store and show again."""

from __future__ import annotations

import re

# Bidirectional controls (embeddings, overrides, isolates, marks): an RLO in a deck name turns
# the rest of a line around ("‮gpj.exe" shows as "exe.jpg"). No name, note or count needs one.
BIDI_CONTROLS = "\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"
_DELETE_BIDI = str.maketrans("", "", BIDI_CONTROLS)
BIDI = re.compile(f"[{BIDI_CONTROLS}]")


# Chinese characters (the unified ideographs and their extensions and compatibility forms).
CJK = re.compile(r"[\u3400-\u9fff\uf900-\ufaff]")


def strip_bidi(text: str) -> str:
    return text.translate(_DELETE_BIDI)


class UnsafeText(ValueError):
    """Text that no field may hold: a NUL (PostgreSQL refuses it) or a lone surrogate (not
    Unicode text at all: it cannot be encoded to store or to answer)."""


_LONE_SURROGATE = re.compile("[\ud800-\udfff]")


def unsafe_reason(text: str) -> str | None:
    """Why `text` cannot be kept ("NUL", "surrogate"), or None when it can."""
    if "\x00" in text:
        return "NUL"
    if _LONE_SURROGATE.search(text):
        return "surrogate"
    return None


def clean_document(value: object, where: str = "") -> object:
    """A parsed JSON document with every string (keys too) cleaned as form input is: bidi
    controls removed; a NUL or a lone surrogate raises UnsafeText naming where it was."""
    if isinstance(value, str):
        reason = unsafe_reason(value)
        if reason is not None:
            raise UnsafeText(reason, where)
        return strip_bidi(value)
    if isinstance(value, list):
        return [clean_document(item, f"{where}[{i}]") for i, item in enumerate(value)]
    if isinstance(value, dict):
        cleaned = {}
        for key, item in value.items():
            safe_key = clean_document(key, where) if isinstance(key, str) else key
            inner = f"{where}.{safe_key}" if where else str(safe_key)
            cleaned[safe_key] = clean_document(item, inner)
        return cleaned
    return value


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
