"""What a deck needs, kept on save as a string of bits, so that "buildable from my collection"
and "you own 52/60" are one pass over the public decks inside the database, not a join over
every deck entry (1.7 million at 100,000 decks) and not a Python loop.

Each card of the catalogue has a slot (its place in catalogue order) and LEVELS bits: bit k of a
slot is set when the deck needs more than k copies of that card (main deck, reinforcements and
the general together). A reader's "lack" mask sets bit k when they have k copies or fewer
available. The copies missing are then popcount(needs & lack): PostgreSQL's bit strings and
bit_count(); on SQLite a small registered function does the same.

A deck needing more than LEVELS copies of a card (only an illegal deck does, and rarely) is marked
`needs_over` and keeps those cards and counts beside its bits (`needs_more`): the copies missing
past the bits are then a few additions in the same pass (BeyondBits), not a read of its entries. The
reader's own built decks are checked entry by entry (their own copies are theirs to use). The
slots follow the catalogue version: decks.services.refresh_verdicts writes every deck's bits again
when the catalogue changes.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from django.db import models
from django.db.backends.base.base import BaseDatabaseWrapper
from django.db.models import F, Func, IntegerField
from django.db.models.sql.compiler import SQLCompiler

from catalog.lookup import catalog_index
from decks.data import DeckData

# The copy limit is 3, and a fourth copy is the usual mistake of an illegal deck: with a bit for it
# too, those decks stay in the one pass (at 100,000 decks, checking a tenth of them exactly made
# every signed-in deck list take seconds). A change here re-encodes every deck
# (decks.services.verdict_stamp).
LEVELS = 4


def slots() -> dict[int, int]:
    """Card pk → slot, in catalogue order (stable within a catalogue version)."""
    return {pk: i for i, pk in enumerate(catalog_index().pk_by_code.values())}


def width(card_count: int) -> int:
    return 64 * -(-(card_count * LEVELS) // 64) or 64


def requirement(data: DeckData) -> dict[str, int]:
    """Copies of each card code the deck takes from a collection: main, reinforcements, general."""
    need: dict[str, int] = {}
    for entries in (data.main, data.reinforcements):
        for code, n in entries.items():
            need[code] = need.get(code, 0) + n
    if data.general:
        need[data.general] = need.get(data.general, 0) + 1
    return need


def encode(need_by_pk: Mapping[int, int], slot_of: Mapping[int, int] | None = None) -> tuple[str, dict[str, int]]:
    """The deck's bits, and the cards it needs more copies of than the bits can say (card id as
    text, for JSON → copies). `slot_of`: slots() already at hand, when encoding many decks."""
    slot_of = slots() if slot_of is None else slot_of
    bits = ["0"] * width(len(slot_of))
    more: dict[str, int] = {}
    for pk, n in need_by_pk.items():
        slot = slot_of[pk]
        for k in range(min(n, LEVELS)):
            bits[slot * LEVELS + k] = "1"
        if n > LEVELS:
            more[str(pk)] = n
    return "".join(bits), more


class BeyondBits(Func):
    """Copies missing that the bits do not count, from each deck's `needs_more`. For a card needed
    n > LEVELS times with a copies available, the bits count max(0, LEVELS - a); all that is
    missing is max(0, n - a); the difference is max(0, n - max(a, LEVELS)).

    Worked out in the database, in the same pass as the bits, however many decks need more than
    LEVELS copies of a card. (Read into Python and added back as a CASE of deck ids, they cost a
    query, a JSON decoding per deck and a statement that grew with their number: a third of a
    signed-in deck list's time at 100,000 decks.) Only the reader's cards with more than LEVELS
    copies available go into the statement: for every other card max(a, LEVELS) is LEVELS."""

    output_field = IntegerField()

    def __init__(self, available_by_pk: Mapping[int, int]) -> None:
        super().__init__(F("needs_more"))
        self.plenty = json.dumps({str(pk): n for pk, n in available_by_pk.items() if n > LEVELS})

    # The deck's column is the compiled F("needs_more"); the reader's cards and LEVELS are parameters.
    SQLITE = (
        "(SELECT COALESCE(SUM(MAX(0, CAST(m.value AS INTEGER) - MAX(COALESCE("
        "json_extract(%s, '$.\"' || m.key || '\"'), 0), %s))), 0) FROM json_each({more}) AS m)"
    )
    POSTGRESQL = (
        "(SELECT COALESCE(SUM(GREATEST(0, m.value::int - GREATEST(COALESCE((%s::jsonb ->> m.key)::int, 0), %s))),"
        " 0) FROM jsonb_each_text({more}) AS m)"
    )

    def as_sql(self, compiler: Any, connection: Any, **extra: Any) -> Any:  # type: ignore[override]  # one expression of our own
        more, params = compiler.compile(self.source_expressions[0])
        return self.SQLITE.format(more=more), (self.plenty, LEVELS, *params)

    def as_postgresql(self, compiler: Any, connection: Any, **extra: Any) -> Any:
        more, params = compiler.compile(self.source_expressions[0])
        return self.POSTGRESQL.format(more=more), (self.plenty, LEVELS, *params)


def lack_mask(available_by_pk: Mapping[int, int]) -> str:
    """The reader's mask: bit k of a card is set when k or fewer copies are available."""
    slot_of = slots()
    bits = ["0"] * width(len(slot_of))
    for pk, slot in slot_of.items():
        have = available_by_pk.get(pk, 0)
        for k in range(LEVELS):
            if have <= k:
                bits[slot * LEVELS + k] = "1"
    return "".join(bits)


class NeedsField(models.Field):
    """A string of 0s and 1s: `bit varying` on PostgreSQL, text elsewhere."""

    description = "A bit string"

    def db_type(self, connection: BaseDatabaseWrapper) -> str:
        return "bit varying" if connection.vendor == "postgresql" else "text"

    def get_placeholder(self, value: Any, compiler: SQLCompiler, connection: BaseDatabaseWrapper) -> str:
        return "%s::varbit" if connection.vendor == "postgresql" else "%s"

    def get_prep_value(self, value: Any) -> Any:
        return "" if value is None else str(value)


class MissingCopies(Func):
    """popcount(needs & mask), or NULL for a deck whose bits were written for another catalogue."""

    output_field = IntegerField()

    def __init__(self, mask: str) -> None:
        super().__init__(F("needs"))
        self.mask = mask

    def as_sql(self, compiler: Any, connection: Any, **extra: Any) -> Any:  # type: ignore[override]  # one expression of our own
        needs, params = compiler.compile(self.source_expressions[0])
        return f"zh_missing_copies({needs}, %s)", (*params, self.mask)

    def as_postgresql(self, compiler: Any, connection: Any, **extra: Any) -> Any:
        needs, params = compiler.compile(self.source_expressions[0])
        sql = f"CASE WHEN length({needs}) = %s THEN bit_count({needs} & %s::varbit) END"
        return sql, (*params, len(self.mask), *params, self.mask)


def sqlite_missing_copies(needs: str | None, mask: str) -> int | None:
    """The SQLite side of MissingCopies, registered on each connection (decks.apps)."""
    if not needs or len(needs) != len(mask):
        return None
    return (int(needs, 2) & int(mask, 2)).bit_count()


class SharedBits(Func):
    """needs & mask as bytes (the bit string's, left to right, big-endian): the copies a deck
    lacks, bit by bit ("what to buy next" reads which cards they are). Bytes, not text: an eighth
    of the transfer, and int.from_bytes makes them one integer at once. NULL for a deck whose bits
    were written for another catalogue."""

    output_field = models.BinaryField()

    def __init__(self, mask: str) -> None:
        super().__init__(F("needs"))
        self.mask = mask

    def as_sql(self, compiler: Any, connection: Any, **extra: Any) -> Any:  # type: ignore[override]  # one expression of our own
        needs, params = compiler.compile(self.source_expressions[0])
        return f"zh_shared_bits({needs}, %s)", (*params, self.mask)

    def as_postgresql(self, compiler: Any, connection: Any, **extra: Any) -> Any:
        needs, params = compiler.compile(self.source_expressions[0])
        # varbit_send: the bit length as 4 bytes, then the bits padded to whole bytes.
        sql = f"CASE WHEN length({needs}) = %s THEN substring(varbit_send({needs} & %s::varbit) from 5) END"
        return sql, (*params, len(self.mask), *params, self.mask)


def sqlite_shared_bits(needs: str | None, mask: str) -> bytes | None:
    """The SQLite side of SharedBits, registered on each connection (decks.apps)."""
    if not needs or len(needs) != len(mask):
        return None
    return (int(needs, 2) & int(mask, 2)).to_bytes(-(-len(mask) // 8), "big")
