"""Check many deck lists at once (tournament day): several files, or one .zip of them.

Bounded by what the work costs, not only by the files' number and size (BatchLimits): lists,
lines across the batch and seconds of checking, fewer for a reader who is not signed in; a
list reports its first few problems, then how many more. A zip is read in memory, never
extracted, and is refused when its entries claim more than the limits (a zip bomb) or name
paths that climb out (`../`) or start at the root. Nothing is stored.
"""

from __future__ import annotations

import io
import lzma
import time
import zipfile
import zlib
from dataclasses import dataclass
from pathlib import PurePosixPath
from typing import Any

from django.utils.translation import gettext as _

from catalog.lookup import catalog_index
from decks.legality import check_list
from groups import formats
from rules_check import DeckListError, Problem, decode
from rules_check.decklist import MAX_BYTES
from webutil import bounds
from webutil.csv import csv_text
from webutil.text import strip_bidi

MAX_FILES = 500
ZIP = bounds.upload("zip", 10 * bounds.MB, "a zip of deck lists or of a deck archive")
MAX_ZIP_BYTES = int(ZIP)
# A deck list sent as a .txt file (rules_check reads at most this many bytes of it).
DECK_LIST = bounds.upload("deck list", MAX_BYTES, "a deck list sent as a .txt file")
# The lists of a batch at once: as many .txt files, or one zip.
BATCH = ((DECK_LIST, MAX_FILES), ZIP)
# Problems a list of the batch reports; the rest are counted ("and N more").
PROBLEMS_PER_LIST = 10


@dataclass(frozen=True)
class BatchLimits:
    """What one batch may cost: lists, lines across all of them, seconds of checking."""

    files: int
    lines: int
    seconds: float


# 150 files of 64 KiB of `3 zz` once ran 30 s and grew a worker by 736 MB.
ANONYMOUS = BatchLimits(files=50, lines=5_000, seconds=1.0)
SIGNED_IN = BatchLimits(files=MAX_FILES, lines=50_000, seconds=10.0)


def limits_for(user: Any) -> BatchLimits:
    return SIGNED_IN if user is not None and user.is_authenticated else ANONYMOUS


class BatchError(ValueError):
    """The batch cannot be checked; `status` is 413 when it is over one of its bounds."""

    def __init__(self, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.status = status


@dataclass
class BatchRow:
    file: str
    player: str | None = None
    general: str | None = None
    count: int = 0
    legal: bool = False
    problems: tuple[Problem, ...] = ()
    omitted: int = 0  # problems past the first PROBLEMS_PER_LIST
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


def read_zip(
    data: bytes, *, larger: dict[str, int] | None = None, max_files: int = MAX_FILES
) -> list[tuple[str, bytes]]:
    """The files of a zip, each at most 64 KiB (`larger` allows more to the files it names)."""
    if len(data) > MAX_ZIP_BYTES:
        raise BatchError(_("The zip file is larger than %(size)s.") % {"size": ZIP.shown}, 413)
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
        infos = [i for i in archive.infolist() if not i.is_dir()]
    except (zipfile.BadZipFile, OSError, ValueError):
        raise BatchError(_("This is not a zip file.")) from None
    if len(infos) > max_files:
        raise BatchError(_("The zip holds more than %(max)d files.") % {"max": max_files}, 413)
    out = []
    for info in infos:
        if not _safe_name(info.filename):
            raise BatchError(_("The zip names a path outside itself: %(name)s") % {"name": info.filename[:80]})
        limit = (larger or {}).get(info.filename, MAX_BYTES)
        too_large = _("%(name)s is larger than %(size)s.") % {"name": info.filename[:80], "size": _size(limit)}
        if info.file_size > limit:
            raise BatchError(too_large, 413)
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
            raise BatchError(too_large, 413)
        out.append((info.filename, content))
    return out


def _size(limit: int) -> str:
    return f"{limit // (1024 * 1024)} MB" if limit >= 1024 * 1024 else f"{limit // 1024} KiB"


def read_uploads(uploads: list[Any], limits: BatchLimits = SIGNED_IN) -> list[tuple[str, bytes]]:
    """The files of the form: one zip read in memory, or the lists themselves (each bounded)."""
    if len(uploads) == 1 and uploads[0].name.lower().endswith(".zip"):
        return read_zip(uploads[0].read(MAX_ZIP_BYTES + 1), max_files=limits.files)
    if len(uploads) > limits.files:
        raise BatchError(_("At most %(max)d files at once.") % {"max": limits.files}, 413)
    return [(u.name, u.read(MAX_BYTES + 1)) for u in uploads]


def check_uploads(uploads: list[Any], format_name: str, limits: BatchLimits = SIGNED_IN) -> list[BatchRow]:
    return check_files(read_uploads(uploads, limits), format_name, limits)


def check_files(files: list[tuple[str, bytes]], format_name: str, limits: BatchLimits = SIGNED_IN) -> list[BatchRow]:
    """Every list checked, within `limits`: the lines are counted before any is read, and the
    checking stops at its time budget (BatchError, 413, naming the bound)."""
    if len(files) > limits.files:
        raise BatchError(_("At most %(max)d files at once.") % {"max": limits.files}, 413)
    rows = []
    for name, content in sorted(files):
        row = BatchRow(file=name)
        try:
            row.text = strip_bidi(decode(content))
        except DeckListError as exc:
            row.error = str(exc)
        rows.append(row)
    lines = sum(row.text.count("\n") + 1 for row in rows if row.text is not None)
    if lines > limits.lines:
        raise BatchError(
            _("The lists have %(lines)s lines together; at most %(max)s are checked at once.")
            % {"lines": f"{lines:,}", "max": f"{limits.lines:,}"},
            413,
        )
    deadline = time.monotonic() + limits.seconds
    fmt = formats.resolve(format_name)  # once for every list, not once a list
    for row in rows:
        if row.text is None:
            continue
        if time.monotonic() > deadline:
            raise BatchError(
                _("Checking took more than %(seconds)s seconds: send fewer lists at once.")
                % {"seconds": f"{limits.seconds:g}"},
                413,
            )
        try:
            parsed, verdict = check_list(row.text, fmt)
        except DeckListError as exc:
            row.error = str(exc)
            continue
        row.player, row.general, row.count, row.legal = (
            parsed.player,
            verdict.general,
            verdict.main_deck_count,
            verdict.legal,
        )
        row.problems = verdict.problems[:PROBLEMS_PER_LIST]
        row.omitted = len(verdict.problems) - len(row.problems)
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
                r.error or " | ".join(problem_lines(r.problems) + ([f"… {r.omitted} more"] if r.omitted else [])),
            ]
            for r in rows
        ),
    )
