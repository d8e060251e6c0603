"""Compile the site's translations (locale/*/LC_MESSAGES/django.po -> .mo) in pure Python.

`make` runs this, so a fresh machine needs no GNU gettext. With --simplified it first writes the
Simplified Chinese catalogue from the Traditional one: translators keep one file. The interface
is converted phrase by phrase, Taiwan usage to mainland usage (opencc tw2sp: 登入→登录,
檔案→文件, 搜尋→搜索), with a reviewed override file (locale/zh_Hans/overrides.tsv) for what the
conversion gets wrong. Text marked lang="zh-Hant" (examples of Traditional input) is kept as it
is. Card data is not in these catalogues: it is converted character by character when shown.
Extracting new strings (`manage.py makemessages`) does need GNU gettext, on a developer's machine.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import polib
from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser

from webutil.mainland import read_overrides, to_mainland


def simplified_from_traditional(source: Path, target: Path) -> int:
    po = polib.pofile(str(source))
    overrides = read_overrides(target.parent.parent / "overrides.tsv")
    for entry in po:
        entry.msgstr = to_mainland(entry.msgstr, overrides)
        entry.msgstr_plural = {k: to_mainland(v, overrides) for k, v in entry.msgstr_plural.items()}
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
