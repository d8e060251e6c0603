"""CSV export and import of a collection.

Export: `code,name,set,quantity,foil_quantity`, UTF-8 with a BOM so that spreadsheet programs
read Chinese, and cells that a spreadsheet would run as a formula escaped with a quote.
Import: columns found by header name; `code` or `name` (either script, any alias) finds the
card. The whole file is checked before anything changes; every bad row is reported.
"""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass, field
from typing import Any
from uuid import uuid4

from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from catalog.lookup import catalog_index
from collection.models import MAX_COPIES, CollectionChange, CollectionEntry
from webutil import bounds
from webutil.csv import csv_text
from webutil.numbers import whole_number
from webutil.text import decode_candidates, strip_bidi

HEADER = ["code", "name", "set", "quantity", "foil_quantity"]
CSV = bounds.upload("csv", 5 * bounds.MB, "a collection as a CSV file")
MAX_IMPORT_BYTES = int(CSV)
MAX_IMPORT_ROWS = 50_000


def export_csv(user: Any) -> str:
    entries = CollectionEntry.objects.owned_by(user).select_related("card", "card__set").order_by("card__position")
    return csv_text(
        HEADER,
        (
            [e.card.code, e.card.name, e.card.set.code if e.card.set else "", e.quantity, e.foil_quantity]
            for e in entries
        ),
    )


class CsvFileError(ValueError):
    """The file as a whole cannot be read (not CSV, no header, too large)."""


@dataclass
class RowError:
    line: int
    message: str


@dataclass
class PlannedChange:
    code: str
    name: str
    quantity_before: int
    quantity_after: int
    foil_before: int
    foil_after: int


@dataclass
class ImportPlan:
    mode: str
    changes: list[PlannedChange] = field(default_factory=list)
    errors: list[RowError] = field(default_factory=list)
    rows: int = 0
    encoding: str = "UTF-8"

    @property
    def ok(self) -> bool:
        return not self.errors

    def to_session(self) -> dict[str, Any]:
        return {"mode": self.mode, "changes": [c.__dict__ for c in self.changes], "rows": self.rows}

    @classmethod
    def from_session(cls, data: dict[str, Any]) -> ImportPlan:
        return cls(mode=data["mode"], changes=[PlannedChange(**c) for c in data["changes"]], rows=data["rows"])


def _count(raw: str | None, column: str, required: bool) -> tuple[int | None, str | None]:
    text = (raw or "").strip().lstrip("'")
    if text == "":
        return (None, _("%(column)s is missing") % {"column": column}) if required else (0, None)
    value = whole_number(text, max_digits=4000)  # int() refuses longer digit strings
    if value is None:
        return None, _("%(column)s “%(value)s” is not a whole number of 0 or more") % {
            "column": column,
            "value": text[:20],
        }
    if value > MAX_COPIES:
        return None, _("%(column)s %(value)d is more than %(max)s") % {
            "column": column,
            "value": value,
            "max": f"{MAX_COPIES:,}",
        }
    return value, None


def _rows_of(text: str) -> list[tuple[int, dict[str, str]]]:
    if "\x00" in text:
        raise CsvFileError(_("The file contains NUL bytes: it is not a CSV file."))
    reader = csv.DictReader(io.StringIO(strip_bidi(text), newline=""))
    headers = [h.strip().lower() for h in (reader.fieldnames or [])]
    if "quantity" not in headers or not ({"code", "name"} & set(headers)):
        raise CsvFileError(
            _("The first row must name the columns: quantity, and code or name (foil_quantity optional).")
        )
    reader.fieldnames = headers
    rows = []
    try:
        for row in reader:
            rows.append((reader.line_num, row))
            if len(rows) > MAX_IMPORT_ROWS:
                raise CsvFileError(_("The file has more than %(max)s rows.") % {"max": f"{MAX_IMPORT_ROWS:,}"})
    except csv.Error:
        raise CsvFileError(_("Line %(line)d: not valid CSV.") % {"line": reader.line_num}) from None
    return rows


def _known(rows: list[tuple[int, dict[str, str]]]) -> int:
    index = catalog_index()
    return sum(1 for _line, row in rows if index.lookup(((row.get("code") or "") or (row.get("name") or "")).strip()))


def read_rows_with_encoding(data: bytes) -> tuple[list[tuple[int, dict[str, str]]], str]:
    """The file's rows and the encoding they were read in (UTF-8 with or without a BOM, UTF-16
    with a BOM, Big5 or GB18030). Where both Chinese encodings decode the bytes, the reading in
    which more rows name a real card wins."""
    if len(data) > MAX_IMPORT_BYTES:
        raise CsvFileError(_("The file is larger than %(mb)d MB.") % {"mb": MAX_IMPORT_BYTES // (1024 * 1024)})
    candidates = decode_candidates(data)
    if not candidates:
        raise CsvFileError(_("The file is not text in UTF-8, UTF-16, Big5 or GB18030: save it as CSV (UTF-8)."))
    readings, first_error = [], None
    for text, label in candidates:
        try:
            readings.append((_rows_of(text), label))
        except CsvFileError as exc:
            first_error = first_error or exc
    if not readings:
        raise first_error or CsvFileError(_("The file cannot be read."))
    return max(readings, key=lambda reading: _known(reading[0]))


def read_rows(data: bytes) -> list[tuple[int, dict[str, str]]]:
    return read_rows_with_encoding(data)[0]


def plan_import(user: Any, data: bytes, mode: str) -> ImportPlan:
    """What the file would change, checked whole. Raises CsvFileError for an unreadable file."""
    if mode not in ("add", "replace"):
        raise CsvFileError(_("Mode must be add or replace."))
    rows, encoding = read_rows_with_encoding(data)
    index = catalog_index()
    plan = ImportPlan(mode=mode, rows=len(rows), encoding=encoding)
    totals: dict[str, list[int]] = {}
    seen_line: dict[str, int] = {}
    for line, row in rows:
        if not any((v or "").strip() for v in row.values() if isinstance(v, str)):
            continue  # a blank line
        ref = (row.get("code") or "").strip() or (row.get("name") or "").strip()
        card = index.lookup(ref) if ref else None
        if card is None:
            plan.errors.append(
                RowError(line, _("no card “%(ref)s”") % {"ref": ref[:40]} if ref else _("no code or name"))
            )
            continue
        quantity, error = _count(row.get("quantity"), "quantity", required=True)
        foil, foil_error = _count(row.get("foil_quantity"), "foil_quantity", required=False)
        if error or foil_error:
            plan.errors.append(RowError(line, "; ".join(e for e in (error, foil_error) if e)))
            continue
        if mode == "replace" and card.code in seen_line:
            plan.errors.append(
                RowError(
                    line, _("%(code)s is already on line %(line)d") % {"code": card.code, "line": seen_line[card.code]}
                )
            )
            continue
        seen_line.setdefault(card.code, line)
        total = totals.setdefault(card.code, [0, 0])
        total[0] += quantity or 0
        total[1] += foil or 0
    if plan.errors:
        return plan

    current = {
        e.card.code: e
        for e in CollectionEntry.objects.filter(user=user)
        .select_related("card")
        .only("quantity", "foil_quantity", "card__code", "card__name")
    }
    codes = set(totals) | (set(current) if mode == "replace" else set())
    for code in sorted(codes, key=lambda c: index.pk_by_code.get(c, 0)):
        entry = current.get(code)
        before = (entry.quantity, entry.foil_quantity) if entry else (0, 0)
        given = totals.get(code, [0, 0])
        after = (before[0] + given[0], before[1] + given[1]) if mode == "add" else (given[0], given[1])
        if after[0] > MAX_COPIES or after[1] > MAX_COPIES:
            plan.errors.append(
                RowError(
                    seen_line.get(code, 0),
                    _("%(code)s: the total would pass %(max)s") % {"code": code, "max": f"{MAX_COPIES:,}"},
                )
            )
            continue
        if after != before:
            name = index.by_code[code].name
            plan.changes.append(PlannedChange(code, name, before[0], after[0], before[1], after[1]))
    return plan


class StaleImport(ValueError):
    """The collection changed between the preview and the confirmation."""


def apply_plan(user: Any, plan: ImportPlan) -> int:
    """Apply a previewed plan, all or nothing; refused if the counts moved since the preview."""
    index = catalog_index()
    with transaction.atomic():
        # One import at a time per user (a double click sends two): the second waits here, then
        # finds the counts moved and is refused as stale rather than applied twice.
        # NO KEY: a "+1" inserting a row for this user (a foreign-key share lock) is not blocked.
        get_user_model().objects.select_for_update(no_key=True).filter(pk=user.pk).first()
        pks = {c.code: index.pk_by_code[c.code] for c in plan.changes}
        entries = {
            e.card_id: e
            for e in CollectionEntry.objects.select_for_update().filter(user=user, card_id__in=pks.values())
        }
        new, changed, history = [], [], []
        batch = uuid4()  # the whole file: one history entry
        for change in plan.changes:
            card_id = pks[change.code]
            entry = entries.get(card_id)
            now = (entry.quantity, entry.foil_quantity) if entry else (0, 0)
            if now != (change.quantity_before, change.foil_before):
                raise StaleImport(
                    _("%(code)s changed since the preview: check the file again.") % {"code": change.code}
                )
            if entry is None:
                entry = CollectionEntry(user=user, card_id=card_id)
                new.append(entry)
            else:
                changed.append(entry)
            entry.quantity, entry.foil_quantity = change.quantity_after, change.foil_after
            history.append(
                CollectionChange(
                    user=user,
                    card_id=card_id,
                    quantity_before=change.quantity_before,
                    quantity_after=change.quantity_after,
                    foil_before=change.foil_before,
                    foil_after=change.foil_after,
                    source=CollectionChange.Source.IMPORT,
                    batch=batch,
                )
            )
        try:
            CollectionEntry.objects.bulk_create(new)
        except IntegrityError:
            # A "+1" created one of these rows since the preview: the plan no longer holds.
            raise StaleImport(_("Your collection changed since the preview: check the file again.")) from None
        CollectionEntry.objects.bulk_update(changed, ["quantity", "foil_quantity"])
        CollectionChange.objects.bulk_create(history)
    return len(plan.changes)
