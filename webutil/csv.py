"""CSV for spreadsheets, written one way for every export (collection, batch check, events)."""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable
from typing import Any

_FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def escape_cell(value: Any) -> str:
    text = "" if value is None else str(value)
    return "'" + text if text.startswith(_FORMULA_STARTS) else text


def csv_text(header: list[str], rows: Iterable[list[Any]]) -> str:
    """CSV for spreadsheets: UTF-8 with a BOM (so Excel reads it as UTF-8), CRLF line ends, and
    every cell that a spreadsheet would run as a formula escaped."""
    out = io.StringIO()
    out.write("\ufeff")
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(header)
    writer.writerows([escape_cell(v) for v in row] for row in rows)
    return out.getvalue()
