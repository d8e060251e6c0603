"""A paper deck list read from the recogniser's lines: rows of count, name and code, in columns;
the sheet's headings never taken for cards; the player's name beside its heading."""

from __future__ import annotations

import itertools

from hypothesis import given
from hypothesis import strategies as st

from scanning import CardRef, TextLine
from scanning.sheet import read_sheet

CARDS = [
    CardRef("YXJQ-003", "新兵", "新兵"),
    CardRef("YXJQ-004", "羽林內醫", "羽林内医"),
    CardRef("YXJQ-012", "少年獵人", "少年猎人"),
    CardRef("WJ-001", "劉備", "刘备"),
]
LABELS = ["牌庫登記表", "選手姓名", "日期", "武將", "卡牌", "編號", "合計", "Player name", "total"]
PLAYERS = ["選手姓名", "Player name", "玩家"]


def _row(y: int, *cells: tuple[int, str], score: float = 0.99) -> list[TextLine]:
    return [TextLine(text, (x, y, x + 30 * max(2, len(text)), y + 40), score) for x, text in cells]


def test_a_printed_sheet_in_two_columns_is_read_row_by_row() -> None:
    lines = [
        *_row(50, (80, "牌庫登記表")),
        *_row(140, (80, "選手姓名"), (320, "陳大文"), (720, "日期"), (880, "2026-12-05")),
        *_row(200, (80, "武將"), (320, "劉備(WJ-001)")),
        *_row(350, (80, "3"), (150, "新兵"), (410, "YXJQ-003"), (660, "2"), (730, "少年獵人"), (990, "YXJQ-012")),
        *_row(410, (80, "1"), (150, "羽林内醫"), (410, "YXJO-004")),  # a misread code: still the card
        *_row(470, (80, "4"), (150, "合計"), (660, "2"), (730, "合計")),  # the columns' totals
    ]
    reading = read_sheet(lines, CARDS, labels=LABELS, player_labels=PLAYERS)
    assert reading.player == "陳大文"
    got = [(line.count, line.card) for line in reading.lines]
    assert got == [(None, "WJ-001"), (3, "YXJQ-003"), (2, "YXJQ-012"), (1, "YXJQ-004")]
    assert all(line.sure for line in reading.lines[1:3])
    assert not reading.lines[0].sure  # no count: the caller decides (a general has none)
    assert reading.lines[3].confidence < reading.lines[1].confidence  # the code took a correction
    assert reading.unmatched == []  # the date and the headings are no cards and no noise


def test_a_typed_list_and_lines_not_understood() -> None:
    lines = [
        *_row(40, (60, "玩家：林美玲")),
        *_row(100, (60, "3x 新兵")),
        *_row(160, (60, "少年獵人 ×2")),
        *_row(220, (60, "2"), (120, "貂蟬蟬")),  # a count beside no known card: to correct
        *_row(280, (60, "新兵"), (300, "YXJQ-012")),  # a name, then another card's code
        *_row(340, (60, "羽林內醫"), score=0.5),  # read, but the recogniser was unsure
    ]
    reading = read_sheet(lines, CARDS, labels=LABELS, player_labels=PLAYERS)
    assert reading.player == "林美玲"
    got = [(line.count, line.card, line.sure) for line in reading.lines]
    assert got == [
        (3, "YXJQ-003", True),
        (2, "YXJQ-012", True),
        (2, None, False),
        (None, "YXJQ-012", False),
        (None, "YXJQ-004", False),
    ]
    assert reading.lines[2].text == "貂蟬蟬"
    assert ("YXJQ-003", reading.lines[3].alternatives[0][1]) == reading.lines[3].alternatives[0]
    assert read_sheet([], CARDS).lines == []


@given(width=st.integers(100, 4000), height=st.integers(1, 9000))
def test_a_pages_bands_share_it_out_and_hold_whole_every_line_they_own(width: int, height: int) -> None:
    from scanning.reader import BAND_MIN, BAND_OVERLAP, OVERLAP_MIN, bands

    found = bands(width, height)
    assert found[0][2] == 0 and found[-1][3] == height
    for (_t, _b, _own_top, own_bottom), (_t2, _b2, next_own_top, _ob2) in itertools.pairwise(found):
        assert own_bottom == next_own_top  # the owned parts tile the page
    overlap = max(OVERLAP_MIN, round(width * BAND_OVERLAP))
    for top, bottom, own_top, own_bottom in found:
        assert 0 <= top <= own_top <= own_bottom <= bottom <= height
        assert bottom - top <= max(BAND_MIN, round(width / 2))  # what the detector searches at once
        # A line shorter than the overlap whose middle this band owns lies inside it whole.
        if top > 0:
            assert own_top - top >= overlap // 2 - 1
        if bottom < height:
            assert bottom - own_bottom >= overlap // 2 - 1


def test_a_whole_sheet_is_read_in_bands_each_row_once() -> None:
    from scanning.reader import bands, read_lines
    from tests.support.card_photos import sheet

    entries = [(n % 3 + 1, "新兵", "YXJQ-003") for n in range(30)]  # rows across every band edge
    page = sheet("陳大文", entries).resize((1650, 2334))
    assert len(bands(*page.size)) >= 3
    lines = read_lines(page, "page")
    codes = [line for line in lines if "YXJQ-003" in line.text.replace(" ", "")]
    assert len(codes) == len(entries)  # none lost at a band's edge, none read twice
    for column in (0, 1):  # each row of each column read once: no two a line apart
        tops = sorted(line.box[1] for line in codes if (line.box[0] > page.width / 2) == column)
        assert len(tops) == 15 and all(b - a > 20 for a, b in itertools.pairwise(tops))
