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
from catalog.facts import CHOICE_FACTS, FACTS, INT, TEXT, Fact
from catalog.models import Card, CardChange, CardSet, rebuild_search_keys
from rules_check.codes import normalize_code

DATA_FILE = Path(__file__).resolve().parent / "data" / "cards.json"

# How each field of a record is checked, from the facts' registry (the cost may be printed as
# text, X, when it is not a number).
_CHOICES: dict[str, set[str]] = {fact.name: set(fact.choices.values) for fact in CHOICE_FACTS if fact.choices}
_INTS: dict[str, Fact] = {fact.name: fact for fact in FACTS.values() if fact.kind == INT}
_TEXTS = ("cost_text", *(fact.name for fact in FACTS.values() if fact.kind == TEXT))
# Field names of the data file's card records, in the order they are written: the code and the
# set that place a card, then its facts (catalog.facts.FACTS, in their order), then what the file
# keeps beside them (a cost printed as words, a card that comes only as a random insert).
RECORD_KEYS = ("code", "set", *FACTS, "cost_text", "random_insert")
# Written after the others, and only when a card has them: names it had before, and where each
# fact that did not come from the printed tables came from (a contribution's change id and note).
OPTIONAL_KEYS = ("aliases", "provenance")
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
    # (code, fact, the database's contributed value, the file's value)
    conflicts: list[tuple[str, str, Any, Any]] = field(default_factory=list)

    def summary(self) -> str:
        return (
            f"{len(self.added)} added, {len(self.changed)} changed, {len(self.unchanged)} unchanged"
            f" ({len(self.added) + len(self.changed) + len(self.unchanged)} cards in the file);"
            f" sets: {len(self.sets_added)} added, {len(self.sets_changed)} changed"
            + (f"; {len(self.not_in_file)} in the database but not in the file (kept)" if self.not_in_file else "")
        )

    def conflict_lines(self, preferred: str) -> list[str]:
        return [
            f"  conflict: {code} {fact}: contributed {db!r}, file {file!r} ({preferred} kept)"
            for code, fact, db, file in self.conflicts
        ]


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
    unknown = set(record) - set(RECORD_KEYS) - set(OPTIONAL_KEYS)
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
    for key, fact in _INTS.items():
        value = record.get(key)
        if value is not None and (type(value) is not int or not fact.low <= value <= fact.high):
            raise CatalogError(
                f"{where}: {key}={value!r} must be a whole number from {fact.low} to {fact.high}, or null"
            )
    for key in _TEXTS:
        value = record.get(key)
        if value is not None and not isinstance(value, str):
            raise CatalogError(f"{where}: {key} must be text or null")
    if (record.get("tier") is None) != (record.get("stars") is None):
        raise CatalogError(f"{where}: tier and stars go together (both known or both null)")
    if not isinstance(record.get("random_insert", False), bool):
        raise CatalogError(f"{where}: random_insert must be true or false")
    aliases = record.get("aliases", [])
    if not isinstance(aliases, list) or not all(isinstance(a, str) and a.strip() for a in aliases):
        raise CatalogError(f"{where}: aliases must be a list of names")
    provenance = record.get("provenance", {})
    if not isinstance(provenance, dict) or not all(
        key in CARD_FIELDS
        and isinstance(value, dict)
        and type(value.get("change")) is int
        and isinstance(value.get("note", ""), str)
        for key, value in provenance.items()
    ):
        raise CatalogError(f'{where}: provenance must map facts to {{"change": id, "note": text}}')
    clean = {key: record.get(key) for key in RECORD_KEYS}
    clean["random_insert"] = bool(record.get("random_insert", False))
    clean["aliases"] = aliases
    clean["provenance"] = provenance
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


def _merge(card: Card, record: dict[str, Any], prefer_file: bool, report: LoadReport) -> dict[str, Any]:
    """The values a card takes from its record. A fact someone contributed is never overwritten
    silently: where the file disagrees (and does not carry that same contribution), the database
    keeps its value and the conflict is reported, unless the file is preferred."""
    provenance: dict[str, Any] = {}
    values: dict[str, Any] = {}
    for key in CARD_FIELDS:
        ours, theirs = getattr(card, key), record[key]
        contributed = card.provenance.get(key)
        if ours != theirs and contributed and record["provenance"].get(key) != contributed:
            report.conflicts.append((card.code, key, ours, theirs))
            if not prefer_file:
                values[key] = ours
                provenance[key] = contributed
                continue
        values[key] = theirs
        if key in record["provenance"]:
            provenance[key] = record["provenance"][key]
        elif ours == theirs and contributed:
            provenance[key] = contributed
    values["provenance"] = provenance
    values["aliases"] = list(dict.fromkeys([*record["aliases"], *card.aliases]))
    return values


def load_catalog(path: Path = DATA_FILE, *, prefer_file: bool = False) -> LoadReport:
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

        existing = {c.code: c for c in Card.objects.select_for_update()}
        to_create: list[Card] = []
        to_update: list[Card] = []
        history: list[CardChange] = []
        derived = Card.DERIVED_FIELDS
        for position, record in enumerate(cards, start=1):
            set_obj = set_objs[record["set"]] if record["set"] else None
            card = existing.get(record["code"])
            if card is None:
                values = {k: v for k, v in record.items() if k not in ("code", "set")}
                card = Card(code=record["code"], set=set_obj, position=position, **values)
                card.compute_derived()
                to_create.append(card)
                report.added.append(card.code)
                continue
            values = _merge(card, record, prefer_file, report)
            before = [getattr(card, f) for f in (*values, "set_id", *derived)]
            facts_before = {k: getattr(card, k) for k in CARD_FIELDS}
            provenance_before = dict(card.provenance)
            for k, v in values.items():
                setattr(card, k, v)
            changed_facts = {k: [facts_before[k], values[k]] for k in CARD_FIELDS if facts_before[k] != values[k]}
            if changed_facts:
                history.append(
                    CardChange(
                        card=card,
                        source=CardChange.Source.PRINTED,
                        changes=changed_facts,
                        provenance_before={k: provenance_before.get(k) for k in changed_facts},
                        note=path.name,
                    )
                )
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
            Card.objects.bulk_update(to_update, [*CARD_FIELDS, *OPTIONAL_KEYS, "set", *derived])
        CardChange.objects.bulk_create(history)
        # bulk_create gives ids on SQLite and PostgreSQL alike; the index follows every change
        # (cards without keys too: a database migrated from before the index existed)
        unindexed = list(Card.objects.filter(search_keys_set__isnull=True).exclude(pk__in=[c.pk for c in to_update]))
        rebuild_search_keys(to_update + unindexed)
        report.not_in_file = sorted(set(existing) - {c["code"] for c in cards})
        if report.added or report.changed or report.sets_added or report.sets_changed or unindexed:
            transaction.on_commit(cache_version.bump)
    return report


def export_catalog() -> str:
    """The database's catalogue in the data file's canonical form: right after a load of the
    file, the same bytes; after reviewed contributions, the file of the next release."""
    sets = [
        {"code": s.code, "name": s.name, "order": s.order, "description": s.description}
        for s in CardSet.objects.order_by("order", "code")
    ]
    cards = []
    for card in Card.objects.select_related("set").order_by("position", "code"):
        record = {key: getattr(card, key) for key in RECORD_KEYS if key not in ("code", "set")}
        record = {"code": card.code, "set": card.set.code if card.set else None, **record}
        record = {key: record[key] for key in RECORD_KEYS}
        if card.aliases:
            record["aliases"] = card.aliases
        if card.provenance:
            record["provenance"] = {key: card.provenance[key] for key in CARD_FIELDS if key in card.provenance}
        cards.append(record)
    return json.dumps({"sets": sets, "cards": cards}, ensure_ascii=False, indent=1) + "\n"
