"""A paper deck list from what the recogniser read of a photo of it: the registration sheet this
site prints (a table of count, name and code, in columns) or a typed list (`3 新兵` a line).

The lines are grouped into rows by their height on the page, and each row read left to right: a
count starts an entry, a name or a code names its card (a name and a code side by side are one
card; the code decides when they differ), so two columns of a sheet give two entries a row. A
heading printed on the sheet (`labels`: "Player name", "Card", "total", in every language) is
never a card, and the text beside it is its value: the player's name is kept. Each entry has a
confidence; one below SURE, or with no count read, or with no card, is shown for correction.

A sheet's QR code holds its deck code and is read exactly elsewhere (scanning.reader.read_codes):
this reading is for lists without one.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass, field

from scanning.codes import normalize_code
from scanning.matching import (
    CODE_CONFIDENCE,
    CORRECTION_COST,
    NAME_THRESHOLD,
    SURE,
    Box,
    CardRef,
    TextLine,
    name_candidates,
)

# A count as printed or typed: `3`, `3x`, `×3`, `3張`; the usual misreadings of a digit folded.
_COUNT = re.compile(r"^(?:[x×*]\s*)?([0-9OoIl|]{1,2})\s*(?:[x×*]|張|张)?$", re.IGNORECASE)
_AS_DIGIT = str.maketrans({"O": "0", "o": "0", "I": "1", "l": "1", "|": "1"})
# A count and a card in one line, as a typed list has them: `3 新兵`, `3x 新兵`, `新兵 x3`.
_COUNT_FIRST = re.compile(r"^([0-9]{1,2})\s*(?:[x×*]|張|张)?\s*(\S.*)$", re.IGNORECASE)
_COUNT_LAST = re.compile(r"^(.+?)\s*[x×*]\s*([0-9]{1,2})$", re.IGNORECASE)
# A label and its value in one line: `玩家：張三`, `Player name: Bob`.
_LABELLED = re.compile(r"^(?P<label>[^:：]{1,20})[:：]\s*(?P<value>.+)$")
# Two lines are in one row when their centres are closer than this many line heights.
ROW_SLACK = 0.6
# A code and a name that disagree: the code decides, less surely.
DISAGREE = 0.85


@dataclass
class SheetLine:
    """One entry of the list: how many (None: not read), which card (None: not found), the text
    it was read from, how sure, and where it is in the photo."""

    count: int | None
    card: str | None
    text: str
    confidence: float
    box: Box
    alternatives: list[tuple[str, float]] = field(default_factory=list)
    by_code: bool = False
    by_name: bool = False

    @property
    def sure(self) -> bool:
        return self.card is not None and self.count is not None and self.confidence >= SURE


@dataclass
class SheetReading:
    player: str | None
    lines: list[SheetLine]
    unmatched: list[TextLine]


def _plain(text: str) -> str:
    folded = unicodedata.normalize("NFKC", text).casefold()
    return "".join(ch for ch in folded if ch.isalnum())


def _rows(lines: Sequence[TextLine]) -> list[list[TextLine]]:
    """The lines grouped into rows (top to bottom), each row left to right."""
    if not lines:
        return []
    heights = sorted(max(1, line.box[3] - line.box[1]) for line in lines)
    slack = ROW_SLACK * heights[len(heights) // 2]
    rows: list[list[TextLine]] = []
    centre = -1e9
    for line in sorted(lines, key=lambda line: (line.box[1] + line.box[3]) / 2):
        middle = (line.box[1] + line.box[3]) / 2
        if rows and middle - centre <= slack:
            rows[-1].append(line)
        else:
            rows.append([line])
            centre = middle
    return [sorted(row, key=lambda line: line.box[0]) for row in rows]


def _union(a: Box, b: Box) -> Box:
    return (min(a[0], b[0]), min(a[1], b[1]), max(a[2], b[2]), max(a[3], b[3]))


class _Catalogue:
    def __init__(self, cards: Sequence[CardRef]) -> None:
        self.cards = cards
        self.known = {card.code for card in cards}
        self.prefixes = sorted(
            {card.code.rsplit("-", 1)[0] if "-" in card.code else card.code.split("·")[0] for card in cards}
        )

    def by_code(self, line: TextLine) -> tuple[str, float, list[tuple[str, float]]] | None:
        codes = [(code, fixes) for code, fixes in normalize_code(line.text, self.prefixes) if code in self.known]
        if not codes:
            return None
        scored = [
            (code, round(max(0.0, CODE_CONFIDENCE - fixes * CORRECTION_COST) * line.score, 3)) for code, fixes in codes
        ]
        (code, confidence), *others = scored
        return code, confidence, others

    def by_name(self, text: str, score: float) -> tuple[str, float, list[tuple[str, float]]] | None:
        names = name_candidates(text, self.cards)
        if not names or names[0][1] < NAME_THRESHOLD:
            return None
        code, similarity = names[0]
        tied = sum(1 for _c, s in names if s >= similarity - 1e-9)
        confidence = round(similarity * score * (0.95 if tied == 1 else 0.8), 3)
        return code, confidence, [(c, round(s * score * 0.95, 3)) for c, s in names[1:4]]


def _count(text: str) -> int | None:
    match = _COUNT.match(unicodedata.normalize("NFKC", text).strip())
    return int(match.group(1).translate(_AS_DIGIT)) if match else None


def _is_label(text: str, labels: Collection[str]) -> bool:
    plain = _plain(text)
    return bool(plain) and any(plain == label or (len(label) >= 4 and plain.startswith(label)) for label in labels)


def read_sheet(
    lines: Iterable[TextLine],
    cards: Sequence[CardRef],
    *,
    labels: Iterable[str] = (),
    player_labels: Iterable[str] = (),
) -> SheetReading:
    """The list a photo shows (see the module's docstring). `labels`: every heading the sheet
    prints, in every language; `player_labels`: those whose value is the player's name."""
    catalogue = _Catalogue(cards)
    player_words = {_plain(label) for label in player_labels} - {""}
    heading_words = {_plain(label) for label in labels} - {""} | player_words
    player: str | None = None
    entries: list[SheetLine] = []
    unmatched: list[TextLine] = []
    for row in _rows(list(lines)):
        current: SheetLine | None = None
        value_of: str | None = None  # the label whose value comes next in this row
        for line in row:
            text = line.text.strip()
            labelled = _LABELLED.match(unicodedata.normalize("NFKC", text))
            if labelled and _is_label(labelled.group("label"), heading_words):
                if _plain(labelled.group("label")) in player_words and player is None:
                    player = labelled.group("value").strip()[:100]
                value_of = None
                continue
            if _is_label(text, heading_words):
                value_of = _plain(text)
                continue
            if value_of is not None:  # the value beside a heading is no entry, unless a code
                heading, value_of = value_of, None  # names a card in it (the general's line)
                if heading in player_words:
                    player = player or text[:100]
                    continue
                if catalogue.by_code(line) is None:
                    continue
            current = _read(line, text, current, entries, unmatched, catalogue)
    # A count with nothing beside it (a column's total) is no entry.
    entries = [e for e in entries if e.card is not None or (_plain(e.text) and not _is_label(e.text, heading_words))]
    for entry in entries:
        entry.alternatives = sorted(
            {c: s for c, s in entry.alternatives if c != entry.card}.items(), key=lambda item: -item[1]
        )[:3]
    return SheetReading(player, entries, unmatched)


def _read(
    line: TextLine,
    text: str,
    current: SheetLine | None,
    entries: list[SheetLine],
    unmatched: list[TextLine],
    catalogue: _Catalogue,
) -> SheetLine | None:
    """One line of a row read into the row's entries; returns the entry still open."""
    count = _count(text)
    if count is not None:  # a count starts an entry
        current = SheetLine(count, None, "", 0.0, line.box)
        entries.append(current)
        return current
    split = _COUNT_FIRST.match(text)
    if split:  # a typed line: a count and a card in one
        count, text = int(split.group(1)), split.group(2)
    elif split := _COUNT_LAST.match(text):
        count, text = int(split.group(2)), split.group(1)
    if count is not None:
        current = SheetLine(count, None, "", 0.0, line.box)
        entries.append(current)
    coded = catalogue.by_code(TextLine(text, line.box, line.score))
    hit = coded or catalogue.by_name(text, line.score)
    if hit is None:
        if current is not None and current.card is None:  # a card not understood: to correct
            current.text = " ".join(filter(None, [current.text, text]))
            current.box = _union(current.box, line.box)
        elif len(_plain(text)) >= 2:
            unmatched.append(line)
        return current
    code, confidence, alternatives = hit
    joins = current is not None and (
        current.card is None
        or (coded is not None and not current.by_code)  # a name, then its code
        or (coded is None and current.by_code and not current.by_name and current.card == code)
    )
    if current is None or not joins:
        current = SheetLine(None, None, "", 0.0, line.box)
        entries.append(current)
    if current.card is None:
        current.card, current.confidence, current.alternatives = code, confidence, alternatives
    elif current.card == code:  # the name and the code of one card: surer together
        current.confidence = min(0.995, max(current.confidence, confidence) + 0.02)
    else:  # a name, then another card's code: the code decides, less surely
        current.alternatives = [(current.card, current.confidence), *alternatives]
        current.card, current.confidence = code, round(confidence * DISAGREE, 3)
    current.by_code = current.by_code or coded is not None
    current.by_name = current.by_name or coded is None
    current.text = " ".join(filter(None, [current.text, text]))
    current.box = _union(current.box, line.box)
    return current
