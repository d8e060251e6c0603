"""Formats are data (formats.json): sizes, the copy limit, a ban list, per-card exceptions and
the sets allowed.

Banning a card or adding a format is an edit of formats.json, not of the code. `banned` and
`copy_limits` name cards by code (`YXJQ-003`) or by name (`新兵`, either script); `sets` lists
set codes (`YXJQ`, `LSHJ`, `GMGD`, `WD`), and an empty list allows every set. A play group's house
formats are the same data, stored by the site and built by the same `build_format`.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rules_check.codes import normalize_code
from rules_check.model import DECK_KINDS, CardFacts

FORMATS_FILE = Path(__file__).resolve().parent / "formats.json"


class FormatError(ValueError):
    pass


@dataclass(frozen=True)
class Format:
    name: str
    label: str
    label_en: str
    min_cards: int
    max_cards: int
    copy_limit: int
    banned: frozenset[str] = frozenset()
    copy_limits: Mapping[str, int] = field(default_factory=dict)
    # Set codes a deck's cards must come from; empty: any set.
    sets: frozenset[str] = frozenset()

    def allows_set(self, card: CardFacts) -> bool:
        """A card of an unknown set is allowed only where every set is."""
        return not self.sets or card.card_set in self.sets

    def is_banned(self, card: CardFacts) -> bool:
        return bool(self.banned) and not self.banned.isdisjoint(_refs(card))

    def limit_for(self, cards: list[CardFacts]) -> int:
        """The copy limit of one name: a per-card exception, by name or by any of its codes."""
        if not self.copy_limits:
            return self.copy_limit
        exceptions = [self.copy_limits[ref] for card in cards for ref in _refs(card) if ref in self.copy_limits]
        return max(exceptions) if exceptions else self.copy_limit


def _refs(card: CardFacts) -> set[str]:
    """Every way a format's data may name this card: code, printed name, same-name key."""
    return {card.code, _strip(card.name), card.same_name_key}


def _strip(text: str) -> str:
    return "".join(text.split())


def _card_ref(ref: str) -> str:
    code = normalize_code(ref)
    return code if code else _strip(ref)


def _int(name: str, record: Mapping[str, Any], key: str) -> int:
    value = record.get(key)
    if type(value) is not int or value < 0:
        raise FormatError(f"format {name!r}: {key} must be a whole number of 0 or more")
    return value


def build_format(name: str, record: Mapping[str, Any]) -> Format:
    """A Format from its data, checked: a bad formats.json fails at import, not mid-tournament."""
    min_cards, max_cards = _int(name, record, "min_cards"), _int(name, record, "max_cards")
    if min_cards > max_cards:
        raise FormatError(f"format {name!r}: min_cards is above max_cards")
    limits = record.get("copy_limits", {})
    if not isinstance(limits, dict) or not all(type(v) is int and v >= 0 for v in limits.values()):
        raise FormatError(f"format {name!r}: copy_limits must map cards to whole numbers")
    sets = record.get("sets", [])
    if not isinstance(sets, list) or not all(isinstance(code, str) and code for code in sets):
        raise FormatError(f"format {name!r}: sets must be a list of set codes")
    return Format(
        name=name,
        label=str(record.get("label", name)),
        label_en=str(record.get("label_en", name)),
        min_cards=min_cards,
        max_cards=max_cards,
        copy_limit=_int(name, record, "copy_limit"),
        banned=frozenset(_card_ref(str(ref)) for ref in record.get("banned", [])),
        copy_limits={_card_ref(str(ref)): int(v) for ref, v in limits.items()},
        sets=frozenset(sets),
    )


def load_formats(path: Path = FORMATS_FILE) -> dict[str, Format]:
    data = json.loads(path.read_text(encoding="utf-8"))
    if not isinstance(data, dict) or not data:
        raise FormatError(f"{path}: expected an object of formats")
    return {name: build_format(name, record) for name, record in data.items()}


FORMATS: dict[str, Format] = load_formats()
DEFAULT_FORMAT = "standard"


def formats_stamp(formats: Mapping[str, Format] | None = None) -> str:
    """A short digest of every rule of every format (sizes, limits, bans, exceptions), not of
    their labels: a verdict kept for a deck is stale when this changes."""
    chosen = FORMATS if formats is None else formats
    rules = [rules_of(f) for f in sorted(chosen.values(), key=lambda f: f.name)]
    return hashlib.blake2b(json.dumps(rules, ensure_ascii=False).encode(), digest_size=4).hexdigest()


def rules_of(fmt: Format) -> list[Any]:
    """A format's rules as plain data, in a fixed order: what a digest of them is taken of. A
    format allowing every set keeps the form it had before sets existed, so that adding them left
    the verdicts kept for the official formats fresh."""
    rules: list[Any] = [
        fmt.name,
        fmt.min_cards,
        fmt.max_cards,
        fmt.copy_limit,
        sorted(fmt.banned),
        sorted(fmt.copy_limits.items()),
    ]
    return [*rules, sorted(fmt.sets)] if fmt.sets else rules


def get_format(name: str) -> Format:
    try:
        return FORMATS[name]
    except KeyError:
        raise FormatError(f"unknown format {name!r}: choose one of {', '.join(FORMATS)}") from None


def playset_size(kind: str) -> int:
    """What one deck may hold of a card, as collectors count: the default format's copy limit of
    a deck card (troop, tactic), one of anything else (a general, a reinforcement)."""
    return FORMATS[DEFAULT_FORMAT].copy_limit if kind in DECK_KINDS else 1
