"""Load the versioned card data file (catalog/data/cards.json) into the database.

The file is the source of truth: loading is idempotent, all or nothing, and a bad record is
named by its position and code so that a maintainer can find it.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from django.db import transaction

from catalog import cache_version
from catalog.models import Card, CardSet, rebuild_search_keys
from catalog.vocab import Element, Faction, Kind, Speed, Tier, TroopClass
from rules_check.codes import normalize_code

DATA_FILE = Path(__file__).resolve().parent / "data" / "cards.json"

_CHOICES: dict[str, set[str]] = {
    "kind": set(Kind.values),
    "troop_class": set(TroopClass.values),
    "faction": set(Faction.values),
    "speed": set(Speed.values),
    "element": set(Element.values),
    "tier": set(Tier.values),
}
_INTS = ("cost", "power", "health", "life", "stars", "awakening")
_TEXTS = ("cost_text", "affiliation", "text")
# Field names of the data file's card records, in the order they are written.
RECORD_KEYS = (
    "code",
    "name",
    "set",
    "kind",
    "cost",
    "cost_text",
    "power",
    "health",
    "life",
    "troop_class",
    "affiliation",
    "faction",
    "speed",
    "element",
    "tier",
    "stars",
    "text",
    "awakening",
    "random_insert",
)
# What a record sets on its Card (the code identifies it; the set is a foreign key).
CARD_FIELDS = tuple(key for key in RECORD_KEYS if key not in ("code", "set"))


class CatalogError(Exception):
    pass


@dataclass
class LoadReport:
    added: list[str] = field(default_factory=list)
    changed: list[str] = field(default_factory=list)
    unchanged: list[str] = field(default_factory=list)
    not_in_file: list[str] = field(default_factory=list)
    sets_added: list[str] = field(default_factory=list)
    sets_changed: list[str] = field(default_factory=list)

    def summary(self) -> str:
        return (
            f"{len(self.added)} added, {len(self.changed)} changed, {len(self.unchanged)} unchanged"
            f" ({len(self.added) + len(self.changed) + len(self.unchanged)} cards in the file);"
            f" sets: {len(self.sets_added)} added, {len(self.sets_changed)} changed"
            + (f"; {len(self.not_in_file)} in the database but not in the file (kept)" if self.not_in_file else "")
        )


def read_data(path: Path) -> dict[str, Any]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise CatalogError(f"{path}: no such file") from None
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise CatalogError(f"{path}: not a UTF-8 JSON file ({exc})") from None
    if not isinstance(data, dict) or not isinstance(data.get("sets"), list) or not isinstance(data.get("cards"), list):
        raise CatalogError(f"{path}: expected an object with 'sets' and 'cards' lists")
    return data


def validate_set(index: int, record: Any) -> dict[str, Any]:
    where = f"set #{index + 1}"
    if not isinstance(record, dict):
        raise CatalogError(f"{where}: not an object")
    for key in ("code", "name"):
        if not isinstance(record.get(key), str) or not record[key].strip():
            raise CatalogError(f"{where}: '{key}' must be a non-empty string")
    if not isinstance(record.get("order", 0), int):
        raise CatalogError(f"{where} ({record['code']}): 'order' must be a whole number")
    return {
        "code": record["code"],
        "name": record["name"],
        "order": record.get("order", 0),
        "description": record.get("description", "") or "",
    }


def validate_card(index: int, record: Any, set_codes: set[str]) -> dict[str, Any]:
    """The record checked against the glossary's rules; raises CatalogError naming it."""
    if not isinstance(record, dict):
        raise CatalogError(f"card #{index + 1}: not an object")
    code = record.get("code")
    where = f"card #{index + 1} ({code!r})"
    if not isinstance(code, str) or normalize_code(code) != code:
        raise CatalogError(f"{where}: 'code' is not a card code as printed (e.g. YXJQ-003, 五道·001)")
    unknown = set(record) - set(RECORD_KEYS)
    if unknown:
        raise CatalogError(f"{where}: unknown field(s) {', '.join(sorted(unknown))}")
    name = record.get("name")
    if not isinstance(name, str) or not name.strip() or any(ch in name for ch in " ,，\u3000"):
        raise CatalogError(f"{where}: 'name' must be a non-empty name without spaces or commas")
    if record.get("set") is not None and record["set"] not in set_codes:
        raise CatalogError(f"{where}: unknown set {record['set']!r}")
    for key, allowed in _CHOICES.items():
        value = record.get(key)
        if (value is not None or key == "kind") and value not in allowed:
            raise CatalogError(f"{where}: {key}={value!r} is not one of {', '.join(sorted(allowed))}")
    for key in _INTS:
        value = record.get(key)
        if value is not None and (type(value) is not int or not 0 <= value <= 999):
            raise CatalogError(f"{where}: {key}={value!r} must be a whole number from 0 to 999, or null")
    for key in _TEXTS:
        value = record.get(key)
        if value is not None and not isinstance(value, str):
            raise CatalogError(f"{where}: {key} must be text or null")
    stars = record.get("stars")
    if stars is not None and not 1 <= stars <= 5:
        raise CatalogError(f"{where}: stars must be 1 to 5")
    if (record.get("tier") is None) != (stars is None):
        raise CatalogError(f"{where}: tier and stars go together (both known or both null)")
    if not isinstance(record.get("random_insert", False), bool):
        raise CatalogError(f"{where}: random_insert must be true or false")
    clean = {key: record.get(key) for key in RECORD_KEYS}
    clean["random_insert"] = bool(record.get("random_insert", False))
    return clean


def validate(data: dict[str, Any]) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    sets = [validate_set(i, r) for i, r in enumerate(data["sets"])]
    set_codes = {s["code"] for s in sets}
    if len(set_codes) != len(sets):
        raise CatalogError("sets: duplicate set code")
    cards = [validate_card(i, r, set_codes) for i, r in enumerate(data["cards"])]
    seen: set[str] = set()
    for i, card in enumerate(cards):
        if card["code"] in seen:
            raise CatalogError(f"card #{i + 1} ({card['code']!r}): duplicate code")
        seen.add(card["code"])
    return sets, cards


def load_catalog(path: Path = DATA_FILE) -> LoadReport:
    sets, cards = validate(read_data(path))
    report = LoadReport()
    with transaction.atomic():
        set_objs = {s.code: s for s in CardSet.objects.all()}
        for record in sets:
            obj = set_objs.get(record["code"])
            if obj is None:
                set_objs[record["code"]] = CardSet.objects.create(**record)
                report.sets_added.append(record["code"])
            elif any(getattr(obj, k) != v for k, v in record.items()):
                for k, v in record.items():
                    setattr(obj, k, v)
                obj.save()
                report.sets_changed.append(record["code"])

        existing = {c.code: c for c in Card.objects.all()}
        to_create: list[Card] = []
        to_update: list[Card] = []
        derived = Card.DERIVED_FIELDS
        for position, record in enumerate(cards, start=1):
            set_obj = set_objs[record["set"]] if record["set"] else None
            values = {k: v for k, v in record.items() if k not in ("code", "set")}
            card = existing.get(record["code"])
            if card is None:
                card = Card(code=record["code"], set=set_obj, position=position, **values)
                card.compute_derived()
                to_create.append(card)
                report.added.append(card.code)
                continue
            before = [getattr(card, f) for f in (*values, "set_id", *derived)]
            for k, v in values.items():
                setattr(card, k, v)
            card.set = set_obj
            card.position = position
            card.compute_derived()
            after = [getattr(card, f) for f in (*values, "set_id", *derived)]
            if before != after:
                to_update.append(card)
                report.changed.append(card.code)
            else:
                report.unchanged.append(card.code)
        Card.objects.bulk_create(to_create)
        if to_update:
            Card.objects.bulk_update(to_update, [*CARD_FIELDS, "set", *derived])
        # bulk_create gives ids on SQLite and PostgreSQL alike; the index follows every change
        # (cards without keys too: a database migrated from before the index existed)
        unindexed = list(Card.objects.filter(search_keys_set__isnull=True).exclude(pk__in=[c.pk for c in to_update]))
        rebuild_search_keys(to_update + unindexed)
        report.not_in_file = sorted(set(existing) - {c["code"] for c in cards})
        if report.added or report.changed or report.sets_added or report.sets_changed or unindexed:
            transaction.on_commit(cache_version.bump)
    return report
