"""From the lines of text a recogniser found in a photo to the catalogue's cards.

A card is found by its printed code (read reliably: 58–60 of 60 test photos) or by its name (read
exactly in under half, so matched to the nearest catalogue name, in either script, by edit
distance, above a threshold). A name and a code of the same card close together in the photo are
one card; a photo may hold one card or a spread of a dozen, so every hit away from the others is
a card of its own. What matched nothing is listed, so the reader sees what was not understood.
"""

from __future__ import annotations

import math
import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from scanning.codes import normalize_code

# (x0, y0, x1, y1) in pixels of the photo as uploaded, after its EXIF rotation.
Box = tuple[int, int, int, int]

# A name read this close to a catalogue name (1 - edit distance / length) is that card.
NAME_THRESHOLD = 0.6
# A name line holds the name and little else (a cost, a star): longer lines are effect text,
# whose card names ("put a 新兵 into your hand") are not the card shown.
NAME_SLACK = 2
# A card is about this many name heights tall (88 mm to a name of 5 or 6): a name and a code
# closer than that are one card.
CARD_HEIGHTS = 16
CODE_CONFIDENCE = 0.97
# At or above this a found card is shown as sure; below it the reader is asked to check it.
SURE = 0.9
CORRECTION_COST = 0.06


@dataclass(frozen=True)
class TextLine:
    """One line the recogniser read: its text, where it is, how sure the recogniser was."""

    text: str
    box: Box
    score: float = 1.0


@dataclass(frozen=True)
class CardRef:
    """What the matching knows of a catalogue card: its code and its name in each script."""

    code: str
    name: str
    name_simplified: str = ""


@dataclass
class Found:
    """One card in the photo: the catalogue card it most likely is, how sure, the others it may
    be, where it is, and the text it was found by."""

    card: str
    confidence: float
    box: Box
    text: list[str]
    alternatives: list[tuple[str, float]] = field(default_factory=list)
    by_code: bool = False
    by_name: bool = False


@dataclass
class Reading:
    cards: list[Found]
    unmatched: list[TextLine]


def _plain(text: str) -> str:
    """Text without spaces and punctuation, full-width forms folded."""
    folded = unicodedata.normalize("NFKC", text)
    return "".join(ch for ch in folded if ch.isalnum())


def _distance(a: str, b: str) -> int:
    """Levenshtein distance (names are at most a few characters: the plain algorithm is enough)."""
    previous = list(range(len(b) + 1))
    for i, ca in enumerate(a, start=1):
        current = [i]
        for j, cb in enumerate(b, start=1):
            current.append(min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (ca != cb)))
        previous = current
    return previous[-1]


def _similarity(read: str, name: str) -> float:
    if not read or not name:
        return 0.0
    return 1 - _distance(read, name) / max(len(read), len(name))


def name_candidates(text: str, cards: Sequence[CardRef]) -> list[tuple[str, float]]:
    """Catalogue cards whose name `text` may be, best first, with their similarity: the whole
    line, or the line without a trailing figure (a cost printed beside the name)."""
    read = _plain(text)
    if not read:
        return []
    scored: dict[str, float] = {}
    for card in cards:
        for name in {card.name, card.name_simplified} - {""}:
            if len(read) > len(name) + NAME_SLACK:
                continue
            best = max(_similarity(read, name), _similarity(read.rstrip("0123456789"), name))
            if len(name) == 1 and read != name:  # 酒: one character must be read exactly
                best = 0.0
            if best > scored.get(card.code, 0.0):
                scored[card.code] = best
    return sorted(((code, s) for code, s in scored.items() if s >= NAME_THRESHOLD / 1.2), key=lambda x: -x[1])


def _centre(box: Box) -> tuple[float, float]:
    return ((box[0] + box[2]) / 2, (box[1] + box[3]) / 2)


def _union(a: Box, b: Box) -> Box:
    return (min(a[0], b[0]), min(a[1], b[1]), max(a[2], b[2]), max(a[3], b[3]))


def _apart(a: Box, b: Box) -> float:
    (ax, ay), (bx, by) = _centre(a), _centre(b)
    return math.hypot(ax - bx, ay - by)


def find_cards(lines: Iterable[TextLine], cards: Sequence[CardRef]) -> Reading:
    """The cards the lines of one photo show (see the module's docstring)."""
    lines = list(lines)
    prefixes = sorted({card.code.rsplit("-", 1)[0] if "-" in card.code else card.code.split("·")[0] for card in cards})
    known = {card.code for card in cards}
    by_codes: list[Found] = []
    by_names: list[tuple[TextLine, list[tuple[str, float]]]] = []
    unmatched: list[TextLine] = []
    for line in lines:
        codes = [(code, fixes) for code, fixes in normalize_code(line.text, prefixes) if code in known]
        if codes:
            confidences = [
                (code, max(0.0, (CODE_CONFIDENCE - fixes * CORRECTION_COST)) * line.score) for code, fixes in codes
            ]
            (code, confidence), *others = confidences
            by_codes.append(Found(code, confidence, line.box, [line.text], others, by_code=True))
            continue
        names = name_candidates(line.text, cards)
        if names and names[0][1] >= NAME_THRESHOLD:
            by_names.append((line, names))
        elif len(_plain(line.text)) >= 2:
            unmatched.append(line)
    heights = sorted(line.box[3] - line.box[1] for line, _names in by_names) or sorted(
        f.box[3] - f.box[1] for f in by_codes
    )
    reach = CARD_HEIGHTS * (heights[len(heights) // 2] if heights else 40)
    found = by_codes
    for line, names in by_names:
        code, similarity = names[0]
        # Cards that share a name (a general and its awakened form): the name alone cannot tell
        # them apart, a code beside it can; alone, it is never shown as sure.
        tied = {c for c, s in names if s >= similarity - 1e-9}
        confidence = similarity * line.score * (0.95 if len(tied) == 1 else 0.8)
        alternatives = [(c, round(s * line.score * 0.95, 3)) for c, s in names[1:4]]
        near = [f for f in found if f.by_code and not f.by_name and _apart(f.box, line.box) <= reach]
        same = [f for f in near if f.card in tied]
        if same:  # the name and the code of one card: surer together
            card = min(same, key=lambda f: _apart(f.box, line.box))
            card.confidence = min(0.995, max(card.confidence, confidence) + 0.02)
            card.box, card.text, card.by_name = _union(card.box, line.box), [line.text, *card.text], True
            continue
        if near and similarity < 0.9:  # a misread name beside another card's code: that card
            card = min(near, key=lambda f: _apart(f.box, line.box))
            card.alternatives.append((code, round(confidence, 3)))
            card.box, card.text, card.by_name = _union(card.box, line.box), [line.text, *card.text], True
            continue
        found.append(Found(code, confidence, line.box, [line.text], alternatives, by_name=True))
    for f in found:
        f.confidence = round(f.confidence, 3)
        f.alternatives = sorted({c: s for c, s in f.alternatives if c != f.card}.items(), key=lambda x: -x[1])[:3]
    found.sort(key=lambda f: (f.box[1] // max(1, reach // 2), f.box[0]))  # reading order, row by row
    return Reading(found, unmatched)
