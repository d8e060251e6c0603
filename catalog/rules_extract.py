"""The printed rules, taken once from the seeds into `catalog/data/rules.json` (`manage.py
extractrules`): one section tree from seed 000 (遊戲規則 onwards, and its 援軍 part), each
section with a stable anchor and its text in both scripts.

Simplified: the first part of seed 001 (up to 「三国杀纵横怎么玩」) is the same rules in mainland
print, used for the sections it covers; the others are seed 000 converted by opencc. The second
part of 001 is an older text (30–50 cards, another priority order): kept whole as an appendix
marked superseded. English: no section is translated yet, so every `en` text is null."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from catalog import textkeys


@dataclass(frozen=True)
class Heading:
    anchor: str
    line: str  # the line of seed 000 that starts the section, as printed
    english: str  # the section's title on English pages
    parent: str | None = None
    simplified_from: str | None = None  # the line of seed 001 that starts the same section


# Seed 000's sections in the order it prints them. The 援軍 part comes before 遊戲規則 in the seed
# (beside the reinforcement cards' table); it is rules all the same and ends the tree.
HEADINGS = (
    Heading("goal", "遊戲目標", "Goal of the game"),
    Heading("setup", "遊戲準備", "Setting up", simplified_from="『组建牌库』"),
    Heading("play", "進行遊戲", "Playing the game"),
    Heading("turn-start", "（一）回合開始", "Start of the turn", "play", "（一）回合开始"),
    Heading("turn-main", "（二）回合進行", "During the turn", "play", "（二）回合进行"),
    Heading("turn-end", "（三）回合結束", "End of the turn", "play", "（三）回合结束"),
    Heading("zones", "遊戲區域", "Play areas"),
    Heading("principles", "遊戲原則", "Principles"),
    Heading("concepts", "遊戲概念", "Concepts"),
    Heading("reinforcements", "援軍部隊", "Reinforcements"),
)
RULES_START = "遊戲規則"
# Where seed 000's 援軍 part ends: the reinforcement cards' table.
TABLE = "|"
# Seed 001: the title of its first part, and where its second, older text begins.
SIMPLIFIED_START = "三国杀纵横的游戏规则"
OLDER_START = "三国杀纵横怎么玩"
# Captions of the rule book's pictures (the flow card, the play mat) that the seed glued to the
# front of the next line of text: not rules text.
CAPTIONS = ("遊戲流程牌", "遊戲區域牌")


def _lines(path: Path) -> list[str]:
    return [line.strip() for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def _uncaptioned(line: str) -> str:
    for caption in CAPTIONS:
        if line.startswith(caption) and len(line) > len(caption):
            return line[len(caption) :]
    return line


def _traditional(lines: list[str]) -> dict[str, tuple[str, list[str]]]:
    """Each section's title line and text lines, from seed 000."""
    rules = lines[lines.index(RULES_START) + 1 :]
    start = lines.index("援軍部隊")
    end = next(i for i in range(start + 1, len(lines)) if lines[i].startswith(TABLE))
    reinforcements = lines[start:end]
    out: dict[str, tuple[str, list[str]]] = {}
    for block in (rules, reinforcements):
        current: str | None = None
        for line in block:
            heading = next((h for h in HEADINGS if line.startswith(h.line) and h.anchor not in out), None)
            if heading is not None:
                current = heading.anchor
                out[current] = (line, [])
                continue
            if current is None:
                raise ValueError(f"rules text before the first section: {line!r}")
            out[current][1].append(_uncaptioned(line))
    missing = [h.anchor for h in HEADINGS if h.anchor not in out]
    if missing:
        raise ValueError(f"sections not found in seed 000: {missing}")
    return out


def _simplified(lines: list[str]) -> tuple[dict[str, tuple[str, list[str]]], list[str]]:
    """The sections seed 001's first part covers (title line, text lines), and its second part."""
    first = lines[lines.index(SIMPLIFIED_START) + 1 :]
    older_at = next(i for i, line in enumerate(first) if line.startswith(OLDER_START))
    first, older = first[:older_at], first[older_at:]
    # The seed runs one section's last sentence and the next one's heading together on one line.
    split: list[str] = []
    for line in first:
        for heading in HEADINGS:
            start = heading.simplified_from
            if start and start in line and not line.startswith(start):
                before, after = line.split(start, 1)
                split.extend([before, start + after])
                break
        else:
            split.append(line)
    out: dict[str, tuple[str, list[str]]] = {}
    current: str | None = None
    for line in split:
        starts = next((h for h in HEADINGS if h.simplified_from and line.startswith(h.simplified_from)), None)
        if starts is not None:
            current = starts.anchor
            # The setup section has no title line of its own in 001: its first line is text.
            title, text = (None, [line]) if starts.anchor == "setup" else (line, [])
            out[current] = (title or "", text)
            continue
        if current is not None:
            out[current][1].append(line)
    return out, older


def extract(traditional: Path, simplified: Path) -> dict[str, Any]:
    hant = _traditional(_lines(traditional))
    hans, older = _simplified(_lines(simplified))
    sections = []
    for heading in HEADINGS:
        title, text = hant[heading.anchor]
        if heading.anchor in hans:
            hans_title, hans_text = hans[heading.anchor]
            hans_title = hans_title or textkeys.to_simplified(title)
            source = "001"
        else:
            hans_title, source = textkeys.to_simplified(title), "000"
            hans_text = [textkeys.to_simplified(t) for t in text]
        sections.append(
            {
                "anchor": heading.anchor,
                "parent": heading.parent,
                "title": {"zh_hant": title, "zh_hans": hans_title, "en": heading.english},
                "text": {"zh_hant": "\n".join(text), "zh_hans": "\n".join(hans_text), "en": None},
                "zh_hans_from": source,
            }
        )
    return {
        "sources": {"zh_hant": traditional.name, "zh_hans": simplified.name},
        "sections": sections,
        "older": {
            "anchor": "older-rules",
            "superseded": True,
            "title": {"zh_hans": older[0], "en": "An older text of the rules (superseded)"},
            "text": {"zh_hans": "\n".join(older[1:])},
        },
    }
