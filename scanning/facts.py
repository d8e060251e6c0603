"""The facts printed on one card's face, from what the recogniser read of a photo of it: the
effect text (the lines of Chinese that are neither the name nor the code, in reading order) and
the cost (a lone number in the face's top-left corner). Each with the recogniser's confidence:
the form pre-fills a value only above a gate, and says it was read from the photo.

Effect text comes out garbled more often than names (造成2點傷害 → 造成2贴售害): never trusted,
always shown for the contributor to check.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from scanning.matching import Box, Reading, TextLine

# A value read at least this surely is put in the form (marked as read, to check); below it, the
# reading is only shown beside the empty field.
PREFILL = 0.9
_CJK = re.compile(r"[\u3400-\u9fff]")
_NUMBER = re.compile(r"^\s*(\d{1,2})\s*$")


@dataclass(frozen=True)
class ReadFact:
    value: str
    confidence: float


def _area(lines: Sequence[TextLine], reading: Reading) -> Box:
    """The card's face in the photo: the found card's box and every line read."""
    boxes = [line.box for line in lines] + [found.box for found in reading.cards]
    return (min(b[0] for b in boxes), min(b[1] for b in boxes), max(b[2] for b in boxes), max(b[3] for b in boxes))


def read_facts(lines: Sequence[TextLine], reading: Reading) -> dict[str, ReadFact]:
    """The facts of a one-card photo: `lines` as read, `reading` what find_cards made of them."""
    if not lines:
        return {}
    x0, y0, x1, y1 = _area(lines, reading)
    width, height = max(1, x1 - x0), max(1, y1 - y0)
    facts: dict[str, ReadFact] = {}
    used = {text for found in reading.cards for text in found.text}  # the name and the code
    rest = [line for line in lines if line.text not in used]
    text = [line for line in rest if len(_CJK.findall(line.text)) >= 4]
    if text:
        text.sort(key=lambda line: (line.box[1], line.box[0]))
        facts["text"] = ReadFact("".join(line.text.strip() for line in text), round(min(t.score for t in text), 3))
    for line in rest:
        number = _NUMBER.match(line.text)
        if number is None:
            continue
        cx, cy = (line.box[0] + line.box[2]) / 2 - x0, (line.box[1] + line.box[3]) / 2 - y0
        if cx < 0.35 * width and cy < 0.25 * height and "cost" not in facts:
            facts["cost"] = ReadFact(number.group(1), round(line.score, 3))
    return facts
