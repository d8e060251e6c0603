"""Check many deck lists at once (tournament day): several files, or one .zip of them.

Bounded: at most 500 lists of 64 KiB each. A zip is read in memory, never extracted, and is
refused when its entries claim more than the limits (a zip bomb) or name paths that climb out
(`../`) or start at the root. Nothing is stored.
"""

from __future__ import annotations

import io
import lzma
import zipfile
import zlib
from dataclasses import dataclass
from pathlib import PurePosixPath
from typing import Any

from django.utils.translation import gettext as _

from catalog.lookup import catalog_index
from decks.legality import check_list
from rules_check import DeckListError, Problem, decode
from rules_check.decklist import MAX_BYTES
from webutil.csv import csv_text
from webutil.text import strip_bidi

MAX_FILES = 500
MAX_ZIP_BYTES = 10 * 1024 * 1024


class BatchError(ValueError):
    pass


@dataclass
class BatchRow:
    file: str
    player: str | None = None
    general: str | None = None
    count: int = 0
    legal: bool = False
    problems: tuple[Problem, ...] = ()
    error: str | None = None
    text: str | None = None

    @property
    def general_name(self) -> str | None:
        """The general as players know it (the table shows names; the CSV keeps the code too)."""
        facts = catalog_index().by_code.get(self.general) if self.general else None
        return facts.name if facts else None


def _safe_name(name: str) -> bool:
    path = PurePosixPath(name.replace("\\", "/"))
    return not path.is_absolute() and ".." not in path.parts and ":" not in name


def read_zip(data: bytes, *, larger: dict[str, int] | None = None) -> list[tuple[str, bytes]]:
    """The files of a zip, each at most 64 KiB (`larger` allows more to the files it names)."""
    if len(data) > MAX_ZIP_BYTES:
        raise BatchError(_("The zip file is larger than 10 MB."))
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
        infos = [i for i in archive.infolist() if not i.is_dir()]
    except (zipfile.BadZipFile, OSError, ValueError):
        raise BatchError(_("This is not a zip file.")) from None
    if len(infos) > MAX_FILES:
        raise BatchError(_("The zip holds more than %(max)d files.") % {"max": MAX_FILES})
    out = []
    for info in infos:
        if not _safe_name(info.filename):
            raise BatchError(_("The zip names a path outside itself: %(name)s") % {"name": info.filename[:80]})
        limit = (larger or {}).get(info.filename, MAX_BYTES)
        too_large = _("%(name)s is larger than %(size)s.") % {"name": info.filename[:80], "size": _size(limit)}
        if info.file_size > limit:
            raise BatchError(too_large)
        if info.flag_bits & 0x1:
            raise BatchError(
                _("%(name)s is encrypted: send the lists without a password.") % {"name": info.filename[:80]}
            )
        try:
            with archive.open(info) as handle:
                content = handle.read(limit + 1)  # never trust the size the zip claims
        except (
            zipfile.BadZipFile,
            zlib.error,
            lzma.LZMAError,
            NotImplementedError,
            RuntimeError,
            OSError,
            EOFError,
            ValueError,
        ) as exc:
            # A bad CRC, an unsupported compression method, a size that lies, a truncated entry.
            raise BatchError(
                _("%(name)s cannot be read from the zip (%(reason)s).")
                % {"name": info.filename[:80], "reason": str(exc)[:80]}
            ) from None
        if len(content) > limit:
            raise BatchError(too_large)
        out.append((info.filename, content))
    return out


def _size(limit: int) -> str:
    return f"{limit // (1024 * 1024)} MB" if limit >= 1024 * 1024 else f"{limit // 1024} KiB"


def read_uploads(uploads: list[Any]) -> list[tuple[str, bytes]]:
    """The files of the form: one zip read in memory, or the lists themselves (each bounded)."""
    if len(uploads) == 1 and uploads[0].name.lower().endswith(".zip"):
        return read_zip(uploads[0].read(MAX_ZIP_BYTES + 1))
    if len(uploads) > MAX_FILES:
        raise BatchError(_("At most %(max)d files at once.") % {"max": MAX_FILES})
    return [(u.name, u.read(MAX_BYTES + 1)) for u in uploads]


def check_uploads(uploads: list[Any], format_name: str) -> list[BatchRow]:
    return check_files(read_uploads(uploads), format_name)


def check_files(files: list[tuple[str, bytes]], format_name: str) -> list[BatchRow]:
    if len(files) > MAX_FILES:
        raise BatchError(_("At most %(max)d files at once.") % {"max": MAX_FILES})
    rows = []
    for name, content in sorted(files):
        row = BatchRow(file=name)
        try:
            row.text = strip_bidi(decode(content))
            parsed, verdict = check_list(row.text, format_name)
        except DeckListError as exc:
            row.error = str(exc)
        else:
            row.player, row.general, row.count, row.legal = (
                parsed.player,
                verdict.general,
                verdict.main_deck_count,
                verdict.legal,
            )
            row.problems = verdict.problems
        rows.append(row)
    return rows


def problem_lines(problems: tuple[Problem, ...]) -> list[str]:
    """A verdict's problems as plain lines, code first, for tables and CSV."""
    return [f"{p.code}: {p.message}" for p in problems]


def to_csv(rows: list[BatchRow]) -> str:
    return csv_text(
        ["file", "player", "general", "count", "legal", "problems"],
        (
            [
                r.file,
                r.player or "",
                r.general or "",
                r.count,
                "yes" if r.legal else "no",
                r.error or " | ".join(problem_lines(r.problems)),
            ]
            for r in rows
        ),
    )
