from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from catalog.loading import export_catalog


class Command(BaseCommand):
    help = "Write the database's catalogue in the data file's form (provenance included), to PATH or stdout."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("path", nargs="?", help="where to write it (default: standard output)")

    def handle(self, *args: Any, **options: Any) -> None:
        text = export_catalog()
        if options["path"]:
            target = Path(options["path"])
            partial = target.with_name(target.name + ".partial")
            partial.write_text(text, encoding="utf-8")
            partial.replace(target)  # a reader never sees half a file
        else:
            sys.stdout.write(text)
