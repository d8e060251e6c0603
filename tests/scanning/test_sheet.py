"""A paper deck list read from the recogniser's lines: rows of count, name and code, in columns;
the sheet's headings never taken for cards; the player's name beside its heading."""

from __future__ import annotations

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
