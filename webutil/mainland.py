"""Interface text as a mainland reader writes it: Taiwan usage to mainland usage phrase by phrase
(opencc tw2sp: 登入→登录, 檔案→文件, 搜尋→搜索), with the reviewed overrides of
locale/zh_Hans/overrides.tsv for what the conversion gets wrong (預設→默认, 報到→签到). The
translations command writes the Simplified catalogue with it; messages that come from outside
the catalogue in Traditional (rules_check's) are shown with it on Simplified pages.
"""

from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path

import opencc
from django.conf import settings

_MAINLAND = opencc.OpenCC("tw2sp")
# An element whose content is Traditional on purpose (an example of what a player may type).
_KEPT_TRADITIONAL = re.compile(r'<(\w+)[^>]*\blang="zh-Hant"[^>]*>.*?</\1>', re.DOTALL)


def read_overrides(path: Path) -> dict[str, str]:
    """Traditional phrase → Simplified, from a tab-separated file (# starts a comment)."""
    overrides: dict[str, str] = {}
    if not path.exists():
        return overrides
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if not line.strip() or line.startswith("#"):
            continue
        parts = line.split("\t")
        if len(parts) != 2 or not parts[0] or not parts[1]:
            raise ValueError(f"{path}:{number}: expected a Traditional phrase, a tab and its Simplified form")
        overrides[parts[0]] = parts[1]
    return overrides


def to_mainland(text: str, overrides: dict[str, str]) -> str:
    """Interface text as a mainland reader writes it."""
    kept: list[str] = []

    def hold(value: str) -> str:
        kept.append(value)
        return f"\ue000{len(kept) - 1}\ue001"  # private-use marks: opencc leaves them alone

    text = _KEPT_TRADITIONAL.sub(lambda m: hold(m.group(0)), text)
    for phrase in sorted(overrides, key=len, reverse=True):
        if phrase in text:
            text = text.replace(phrase, hold(overrides[phrase]))
    converted = _MAINLAND.convert(text)
    return re.sub(r"\ue000(\d+)\ue001", lambda m: kept[int(m.group(1))], converted)


@lru_cache(maxsize=4096)
def interface_simplified(text: str) -> str:
    """`to_mainland` with the site's own overrides (read once a process)."""
    return to_mainland(text, _site_overrides())


@lru_cache(maxsize=1)
def _site_overrides() -> dict[str, str]:
    return read_overrides(Path(settings.LOCALE_PATHS[0]) / "zh_Hans" / "overrides.tsv")
