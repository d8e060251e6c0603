"""Check deck lists from the command line: `manage.py checkdeck deck.txt [more.txt dir/ -]`.

Exit status: 0 every deck legal, 1 some deck not legal, 2 unreadable input or bad arguments.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from decks.api.checker import VerdictOutputSerializer
from decks.legality import check_list
from groups import formats
from rules_check import DEFAULT_FORMAT, FORMATS, DeckListError, FormatError, decode
from rules_check.decklist import MAX_BYTES

EXIT_LEGAL, EXIT_ILLEGAL, EXIT_UNREADABLE = 0, 1, 2


def _sources(paths: list[str]) -> list[str]:
    """The given paths, with each directory replaced by the .txt files in it (sorted)."""
    out: list[str] = []
    for raw in paths:
        path = Path(raw)
        if raw != "-" and path.is_dir():
            out += sorted(str(p) for p in path.rglob("*.txt") if p.is_file())
        else:
            out.append(raw)
    return out


def _read(source: str) -> str:
    if source == "-":
        return decode(sys.stdin.buffer.read(MAX_BYTES + 1))
    try:
        with open(source, "rb") as handle:
            return decode(handle.read(MAX_BYTES + 1))
    except OSError as exc:
        raise DeckListError(f"cannot read {source}: {exc.strerror or exc}") from None


class Command(BaseCommand):
    help = "Check deck lists against a format. Exit 0 all legal, 1 some not legal, 2 unreadable input."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("paths", nargs="+", help="deck-list files, directories of .txt files, or - for stdin")
        parser.add_argument(
            "--format",
            default=DEFAULT_FORMAT,
            help=f"{', '.join(sorted(FORMATS))} or a house format's key (g<group id>-<slug>); default: %(default)s",
        )
        parser.add_argument("--json", action="store_true", help="print verdicts as JSON")

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            fmt = formats.resolve(options["format"])
        except FormatError:
            raise CommandError(
                f"unknown format {options['format']!r}: {', '.join(sorted(FORMATS))} or a house format's key",
                returncode=EXIT_UNREADABLE,
            ) from None
        sources = _sources(options["paths"])
        if not sources:
            raise CommandError("no deck lists found (directories are searched for .txt files)", returncode=2)
        single = len(options["paths"]) == 1 and not Path(options["paths"][0]).is_dir()
        results: list[dict[str, Any]] = []
        status = EXIT_LEGAL
        for source in sources:
            try:
                parsed, verdict = check_list(_read(source), fmt)
            except DeckListError as exc:
                if single:
                    raise CommandError(f"{source}: {exc}", returncode=EXIT_UNREADABLE) from None
                results.append({"path": source, "error": str(exc)})
                status = EXIT_UNREADABLE
                continue
            result = dict(VerdictOutputSerializer(verdict, context={"max_problems": None}).data)
            if not single:
                result = {"path": source, "player": parsed.player, **result}
            results.append(result)
            if not verdict.legal and status == EXIT_LEGAL:
                status = EXIT_ILLEGAL

        if options["json"]:
            self.stdout.write(json.dumps(results[0] if single else results, ensure_ascii=False, indent=2))
        else:
            for source, result in zip(sources, results, strict=True):
                self.stdout.write(self._line(source, result))
            if not single:
                legal = sum(1 for r in results if r.get("legal"))
                unreadable = sum(1 for r in results if "error" in r)
                self.stdout.write(
                    f"{len(results)} decks: {legal} legal, {len(results) - legal - unreadable} not legal,"
                    f" {unreadable} unreadable ({options['format']})"
                )
        if status != EXIT_LEGAL:
            sys.exit(status)

    def _line(self, source: str, result: dict[str, Any]) -> str:
        if "error" in result:
            return self.style.ERROR(f"{source}: UNREADABLE: {result['error']}")
        head = f"{source}: {'LEGAL' if result['legal'] else 'NOT LEGAL'}"
        head += f" ({result['main_deck_count']} cards, general {result['general'] or '-'})"
        problems = "".join(
            f"\n  {p['severity']} {p['code']}"
            + (f" [line {', '.join(map(str, p['lines']))}]" if p["lines"] else "")
            + f": {p['message']} / {p['message_en']}"
            for p in result["problems"]
        )
        style = self.style.SUCCESS if result["legal"] else self.style.ERROR
        return style(head) + problems
