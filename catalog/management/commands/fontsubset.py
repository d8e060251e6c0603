"""Write the CJK font the site draws pictures with (test photos of cards now, deck images later):
Noto Sans CJK TC (SIL Open Font License; Debian's fonts-noto-cjk) cut down to the characters the
site prints: the catalogue in both scripts, the interface in all three languages, ASCII, the
common punctuation, and the common characters of both scripts that users type in deck names and
notes (Big5's 5,401 frequently used characters, GB2312's 3,755 of level 1). The font is kept in
the repository (static/fonts/, its licence beside it), so no machine needs a system font to draw;
run this again when the catalogue gains characters. A character it lacks is drawn as a
placeholder (webutil.glyphs).

    manage.py fontsubset [--source /usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc]
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser

from catalog.loading import DATA_FILE
from catalog.textkeys import to_simplified
from webutil.glyphs import FONT, PLACEHOLDER

SOURCE = Path("/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc")
FACE = "Noto Sans CJK TC"
TARGET = FONT


def _decoded(encoding: str, first: Iterable[int], second: Sequence[int]) -> set[str]:
    """The characters of an encoding's two-byte block (lead bytes `first`, trail bytes `second`)."""
    found = set()
    for lead in first:
        for trail in second:
            try:
                found.add(bytes((lead, trail)).decode(encoding))
            except UnicodeDecodeError:
                continue
    return found


def common_characters() -> set[str]:
    """Big5's frequently used characters (A440–C67E) and GB2312's level 1 (B0A1–D7F9)."""
    big5 = _decoded("big5", range(0xA4, 0xC7), [*range(0x40, 0x7F), *range(0xA1, 0xFF)])
    big5 = {c for c in big5 if c.encode("big5") <= b"\xc6\x7e"}
    gb2312 = _decoded("gb2312", range(0xB0, 0xD8), range(0xA1, 0xFF))
    return big5 | gb2312


def characters() -> set[str]:
    """Every character the site prints in pictures: catalogue, interface, ASCII, punctuation, and
    the common characters of both scripts."""
    text = DATA_FILE.read_text(encoding="utf-8")
    wanted = set(text) | set(to_simplified(text))
    for po in (Path(settings.BASE_DIR) / "locale").glob("*/LC_MESSAGES/django.po"):
        wanted |= set(po.read_text(encoding="utf-8"))
    wanted |= {chr(c) for c in range(0x20, 0x7F)} | common_characters()
    wanted |= set("，。、；：？！「」『』（）《》〈〉【】—…·・～％＋－＝／　★☆✦✔✘→←↑↓□○●◆") | {PLACEHOLDER}
    return {c for c in wanted if c.isprintable()}


class Command(BaseCommand):
    help = "Write static/fonts/NotoSansCJKtc-Zongheng.otf: Noto Sans CJK TC cut to the site's characters."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--source", type=Path, default=SOURCE)

    def handle(self, *args: Any, **options: Any) -> None:
        # fontTools: this command alone needs it, when the shipped font is made again
        from fontTools import subset
        from fontTools.ttLib import TTCollection

        source: Path = options["source"]
        if not source.exists():
            raise CommandError(f"{source} is missing: install Debian's fonts-noto-cjk, or name the file with --source")
        fonts = TTCollection(str(source)).fonts
        font = next((f for f in fonts if f["name"].getDebugName(1) == FACE), None)
        if font is None:
            raise CommandError(f"{source} holds no {FACE}")
        options_ = subset.Options()
        options_.layout_features = ["*"]
        options_.name_IDs = ["*"]
        options_.notdef_outline = True
        subsetter = subset.Subsetter(options_)
        subsetter.populate(text="".join(sorted(characters())))
        subsetter.subset(font)
        TARGET.parent.mkdir(parents=True, exist_ok=True)
        font.save(str(TARGET))
        kept = len(font.getBestCmap())
        self.stdout.write(json.dumps({"font": str(TARGET.relative_to(settings.BASE_DIR)), "characters": kept}))
