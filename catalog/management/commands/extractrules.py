"""Take the printed rules from the seeds into catalog/data/rules.json (run once; the file is
committed, and loaded with the catalogue from there)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from catalog.rules import DATA_FILE
from catalog.rules_extract import extract


class Command(BaseCommand):
    help = "Write catalog/data/rules.json from the seeds' rules (000 in Traditional, 001 in Simplified)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("traditional", type=Path, help="seeds/000_*.txt")
        parser.add_argument("simplified", type=Path, help="seeds/001_*.txt")
        parser.add_argument("--out", type=Path, default=DATA_FILE)

    def handle(self, *args: Any, **options: Any) -> None:
        data = extract(options["traditional"], options["simplified"])
        options["out"].write_text(json.dumps(data, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
        self.stdout.write(f"{len(data['sections'])} sections written to {options['out'].name}")
