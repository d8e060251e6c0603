"""The facts printed on one card's face, from what the recogniser read of a photo of it: the
effect text (the lines of Chinese that are neither the name nor the code, in reading order), the
cost (a lone number in the face's top-left corner), and a troop's power and health or a general's
life: a number after its printed label (戰力 3, 生命 5, 血量 35, in either script), or else a lone
number in the bottom-left corner (power) or the bottom-right one (health, or a general's life).
Each with the recogniser's confidence: the form pre-fills a value only above a gate, and says it
was read from the photo.

The type line (部隊·騎兵·羽林, 快速錦囊 火) is not effect text: a line made of nothing but the
card's type words (`type_words`, the catalogue's kinds, classes, factions and the like in both
scripts, given by the caller) and separators is left out of it.

Effect text comes out garbled more often than names (造成2點傷害 → 造成2贴售害): never trusted,
always shown for the contributor to check.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Sequence
from dataclasses import dataclass

from scanning.matching import Box, Reading, TextLine

# A value read at least this surely is put in the form (marked as read, to check); below it, the
# reading is only shown beside the empty field.
PREFILL = 0.9
_CJK = re.compile(r"[\u3400-\u9fff]")
_NUMBER = re.compile(r"^\s*(\d{1,2})\s*$")
# The labels printed before a figure, as the query language knows them (catalog.facts keywords).
_LABELLED = {
    "power": re.compile(r"(?:戰力|战力)\s*[:：]?\s*(\d{1,2})"),
    "health": re.compile(r"生命\s*[:：]?\s*(\d{1,2})"),
    "life": re.compile(r"(?:血量|體力|体力)\s*[:：]?\s*(\d{1,3})"),
}
# The figures a lone number stands for, by the corner of the face it is printed in (fractions of
# the face's width and height from its top-left).
_CORNERS: tuple[tuple[str, float, float, float, float], ...] = (
    ("cost", 0.0, 0.35, 0.0, 0.25),
    ("power", 0.0, 0.35, 0.7, 1.0),
    ("health", 0.65, 1.0, 0.7, 1.0),
)
NUMBERS = ("cost", "power", "health", "life")


@dataclass(frozen=True)
class ReadFact:
    value: str | int
    confidence: float


def _area(lines: Sequence[TextLine], reading: Reading) -> Box:
    """The card's face in the photo: the found card's box and every line read."""
    boxes = [line.box for line in lines] + [found.box for found in reading.cards]
    return (min(b[0] for b in boxes), min(b[1] for b in boxes), max(b[2] for b in boxes), max(b[3] for b in boxes))


def _corner(line: TextLine, area: Box, general: bool) -> str | None:
    x0, y0, x1, y1 = area
    width, height = max(1, x1 - x0), max(1, y1 - y0)
    cx = ((line.box[0] + line.box[2]) / 2 - x0) / width
    cy = ((line.box[1] + line.box[3]) / 2 - y0) / height
    for name, left, right, top, bottom in _CORNERS:
        if left <= cx < right and top <= cy <= bottom:
            return "life" if general and name == "health" else name
    return None


def _type_line(text: str, type_words: Sequence[str]) -> bool:
    """Whether a line says only what kind of card this is: type words and separators, no other
    Chinese (`type_words` longest first, so 覺醒武將 goes whole before 武將 is looked for)."""
    rest = text
    for word in type_words:
        rest = rest.replace(word, " ")
    return rest != text and not _CJK.search(rest)


def read_facts(
    lines: Sequence[TextLine],
    reading: Reading,
    *,
    wanted: Collection[str] = ("text", *NUMBERS),
    type_words: Collection[str] = (),
) -> dict[str, ReadFact]:
    """The facts of a one-card photo: `lines` as read, `reading` what find_cards made of them.
    Only the `wanted` facts (those the card's kind prints); a general's bottom-right figure is
    its life. A line of `type_words` alone is the type line, never effect text."""
    if not lines:
        return {}
    area = _area(lines, reading)
    general = "life" in wanted and "health" not in wanted
    facts: dict[str, ReadFact] = {}
    used = {text for found in reading.cards for text in found.text}  # the name and the code
    rest = [line for line in lines if line.text not in used]
    for line in rest:
        for name, label in _LABELLED.items():
            found = label.search(line.text)
            if found and name not in facts:
                facts[name] = ReadFact(int(found.group(1)), round(line.score, 3))
    labelled = [line for line in rest if any(label.search(line.text) for label in _LABELLED.values())]
    words = sorted(type_words, key=len, reverse=True)
    text = [
        line
        for line in rest
        if len(_CJK.findall(line.text)) >= 4 and line not in labelled and not _type_line(line.text, words)
    ]
    if text:
        text.sort(key=lambda line: (line.box[1], line.box[0]))
        facts["text"] = ReadFact("".join(line.text.strip() for line in text), round(min(t.score for t in text), 3))
    for line in rest:
        number = _NUMBER.match(line.text)
        corner = _corner(line, area, general) if number else None
        if number and corner and corner not in facts:
            facts[corner] = ReadFact(int(number.group(1)), round(line.score, 3))
    return {name: fact for name, fact in facts.items() if name in wanted}
