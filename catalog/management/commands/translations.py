"""Compile the site's translations (locale/*/LC_MESSAGES/django.po -> .mo) in pure Python.

`make` runs this, so a fresh machine needs no GNU gettext. With --simplified it first writes the
Simplified Chinese catalogue from the Traditional one (opencc t2s): translators keep one file.
Extracting new strings (`manage.py makemessages`) does need GNU gettext, on a developer's machine.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import polib
from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser

from catalog.textkeys import to_simplified


def simplified_from_traditional(source: Path, target: Path) -> int:
    po = polib.pofile(str(source))
    for entry in po:
        entry.msgstr = to_simplified(entry.msgstr)
        entry.msgstr_plural = {k: to_simplified(v) for k, v in entry.msgstr_plural.items()}
    po.metadata["Language"] = "zh_Hans"
    target.parent.mkdir(parents=True, exist_ok=True)
    po.save(str(target))
    return len(po)


class Command(BaseCommand):
    help = "Compile locale/*/LC_MESSAGES/django.po to .mo (and, with --simplified, derive zh_Hans first)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--simplified", action="store_true", help="write zh_Hans from zh_Hant with opencc first")

    def handle(self, *args: Any, **options: Any) -> None:
        root = Path(settings.LOCALE_PATHS[0])
        if options["simplified"]:
            count = simplified_from_traditional(
                root / "zh_Hant" / "LC_MESSAGES" / "django.po", root / "zh_Hans" / "LC_MESSAGES" / "django.po"
            )
            self.stdout.write(f"zh_Hans: {count} messages converted from zh_Hant")
        catalogues = sorted(root.glob("*/LC_MESSAGES/django.po"))
        if not catalogues:
            raise CommandError(f"no translation catalogues under {root}")
        for path in catalogues:
            po = polib.pofile(str(path))
            untranslated = [e.msgid for e in po.untranslated_entries()]
            po.save_as_mofile(str(path.with_suffix(".mo")))
            note = f" ({len(untranslated)} untranslated)" if untranslated else ""
            self.stdout.write(f"{path.parent.parent.name}: {len(po.translated_entries())} messages compiled{note}")
