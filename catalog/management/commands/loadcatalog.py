from __future__ import annotations

from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from catalog.loading import DATA_FILE, CatalogError, load_catalog
from webutil.locks import database_lock


class Command(BaseCommand):
    help = "Load or update the card catalogue from the data file (idempotent, all or nothing)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("path", nargs="?", default=str(DATA_FILE), help="the data file (default: %(default)s)")
        parser.add_argument(
            "--prefer-file",
            action="store_true",
            help="where the file and a reviewed contribution disagree, take the file's value",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            # Under the start-up lock: servers starting together load the catalogue once.
            with database_lock("startup"):
                report = load_catalog(Path(options["path"]), prefer_file=options["prefer_file"])
        except CatalogError as exc:
            raise CommandError(f"Nothing was changed: {exc}") from None
        if options["verbosity"] >= 2:
            for label, codes in (("added", report.added), ("changed", report.changed)):
                for code in codes:
                    self.stdout.write(f"  {label}: {code}")
        if report.conflicts:
            preferred = "the file's value" if options["prefer_file"] else "the contributed value"
            self.stderr.write(
                f"{len(report.conflicts)} fact(s) differ from reviewed contributions"
                + ("" if options["prefer_file"] else " (use --prefer-file to take the file's)")
            )
            for line in report.conflict_lines(preferred):
                self.stderr.write(line)
        self.stdout.write(self.style.SUCCESS(report.summary()))
