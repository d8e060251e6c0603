"""Deck codes: a short, URL-safe string for a whole deck (format, general, entries by card code),
versioned like Hearthstone's deckstrings. The same deck always gives the same code.

Layout (then base64url without padding): version byte; format index; the general (a card ref,
or 0xFF for none); the main deck as a count of entries then (card ref, count) pairs; the same for
the reinforcements. A card ref is a prefix byte and its number as a varint; counts are varints.
Entries are sorted, so the order a deck was built in does not change its code.
"""

from __future__ import annotations

import base64
import binascii

from decks.data import DeckData
from rules_check.codes import JOINERS, PRINTED_PREFIXES, normalize_code

VERSION = 1
# A card's prefix is stored as its index in rules_check.codes.PRINTED_PREFIXES (append only).
_PREFIXES = [printed for printed, _joiner in PRINTED_PREFIXES]
# A format is stored as its index here. Pinned, not read from formats.json's order: append only,
# since the index is part of every code made with it. A format missing here cannot be encoded
# (tests/test_decks.py checks that every format of formats.json is listed).
FORMAT_TABLE: tuple[str, ...] = ("standard", "classic")
_NO_GENERAL = 0xFF
MAX_CODE_LENGTH = 2000


class DeckCodeError(ValueError):
    pass


def _varint(value: int) -> bytes:
    out = bytearray()
    while True:
        byte = value & 0x7F
        value >>= 7
        out.append(byte | (0x80 if value else 0))
        if not value:
            return bytes(out)


def _card_ref(code: str) -> tuple[int, int]:
    prefix, _, number = code.replace("·", "-").rpartition("-")
    return _PREFIXES.index(prefix), int(number)


def _encode_entries(entries: dict[str, int]) -> bytes:
    out = bytearray(_varint(len(entries)))
    for code in sorted(entries, key=_card_ref):
        prefix, number = _card_ref(code)
        out += bytes([prefix]) + _varint(number) + _varint(entries[code])
    return bytes(out)


def encode(format_name: str, general: str | None, main: dict[str, int], reinforcements: dict[str, int]) -> str:
    # A play group's house format means nothing outside the group: its decks travel as standard.
    data = bytearray([VERSION, FORMAT_TABLE.index(format_name) if format_name in FORMAT_TABLE else 0])
    if general is None:
        data.append(_NO_GENERAL)
    else:
        prefix, number = _card_ref(general)
        data += bytes([prefix]) + _varint(number)
    data += _encode_entries(main) + _encode_entries(reinforcements)
    return base64.urlsafe_b64encode(bytes(data)).decode().rstrip("=")


class _Reader:
    def __init__(self, data: bytes) -> None:
        self.data = data
        self.i = 0

    def byte(self) -> int:
        if self.i >= len(self.data):
            raise DeckCodeError("The deck code is cut short.")
        value = self.data[self.i]
        self.i += 1
        return value

    def varint(self) -> int:
        value, shift = 0, 0
        while True:
            byte = self.byte()
            value |= (byte & 0x7F) << shift
            if not byte & 0x80:
                return value
            shift += 7
            if shift > 28:
                raise DeckCodeError("The deck code holds a number that is far too large.")

    def card(self, prefix: int | None = None) -> str:
        prefix = self.byte() if prefix is None else prefix
        if prefix >= len(_PREFIXES):
            raise DeckCodeError("The deck code names an unknown kind of card code.")
        printed = _PREFIXES[prefix]
        code = normalize_code(f"{printed}{JOINERS[printed]}{self.varint():03d}")
        if code is None:
            raise DeckCodeError("The deck code names a card number that cannot exist.")
        return code

    def entries(self) -> dict[str, int]:
        count = self.varint()
        if count > 500:
            raise DeckCodeError("The deck code lists too many cards.")
        out: dict[str, int] = {}
        for _ in range(count):
            code = self.card()
            out[code] = out.get(code, 0) + self.varint()
        return out


def decode(text: str) -> DeckData:
    text = text.strip()
    if not text or len(text) > MAX_CODE_LENGTH:
        raise DeckCodeError("That is not a deck code.")
    try:
        data = base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
    except (binascii.Error, ValueError):
        raise DeckCodeError("That is not a deck code (it is not base64url).") from None
    reader = _Reader(data)
    if reader.byte() != VERSION:
        raise DeckCodeError("This deck code was made by another version of the site.")
    format_index = reader.byte()
    if format_index >= len(FORMAT_TABLE):
        raise DeckCodeError("The deck code names an unknown format.")
    first = reader.byte()
    general = None if first == _NO_GENERAL else reader.card(first)
    decoded = DeckData(
        name="", format=FORMAT_TABLE[format_index], general=general, main=reader.entries(), reinforcements={}
    )
    decoded.reinforcements = reader.entries()
    if reader.i != len(data):
        raise DeckCodeError("The deck code has extra data at its end.")
    return decoded


def looks_like_code(text: str) -> bool:
    stripped = text.strip()
    return (
        bool(stripped)
        and "\n" not in stripped
        and " " not in stripped
        and len(stripped) >= 6
        and all(ch.isascii() and (ch.isalnum() or ch in "-_") for ch in stripped)
    )
