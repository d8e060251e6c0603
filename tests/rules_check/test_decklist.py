"""The deck-list parser on every accepted line form, errors with line numbers, and the round trip."""

from __future__ import annotations

import pytest

from rules_check import DeckListError, check, decode, export, get_format, parse
from tests.support.rules_cards import deck_of, legal_counts, lookup


def main_of(text: str) -> list[tuple[str, int, int | None]]:
    return [(e.card.code, e.count, e.line) for e in parse(text, lookup).deck.main]


@pytest.mark.parametrize(
    "line",
    [
        "3 新兵",
        "3x 新兵",
        "3X 新兵",
        "3 x 新兵",
        "3 × 新兵",
        "3×新兵",
        "新兵 x3",
        "新兵x3",
        "新兵 ×3",
        "3张 新兵",
        "3張 新兵",
        "３ 新兵",
        "３　新兵",
        "3 YXJQ-003",
        "3 yxjq3",
        "3 新兵 (YXJQ-003)",
        "3 新兵（YXJQ-003）",
        "3 新 兵",
        "  3   新兵   ",
        "3 新兵 # three of them",
        "3 新兵 // comment",
        "3 新兵 [YXJQ-003]",
    ],
)
def test_every_count_form(line: str) -> None:
    assert main_of(line) == [("YXJQ-003", 3, 1)]


@pytest.mark.parametrize("line", ["新兵", "YXJQ-003", "yxjq3", "ＹＸＪＱ－００３"])
def test_no_count_means_one(line: str) -> None:
    assert main_of(line) == [("YXJQ-003", 1, 1)]


@pytest.mark.parametrize(
    ("line", "code"), [("2 羽林内医", "YXJQ-004"), ("2 羽林內醫", "YXJQ-004"), ("1 步兵十夫长", "YXJQ-006")]
)
def test_traditional_and_simplified_names(line: str, code: str) -> None:
    assert main_of(line)[0][0] == code


@pytest.mark.parametrize("alias", ["WD-001", "wd1", "五道·001", "五道001", "WD 001"])
def test_supplementary_codes_and_aliases(alias: str) -> None:
    assert main_of(f"2 {alias}") == [("五道·001", 2, 1)]


def test_the_code_in_parentheses_decides() -> None:
    # the name is only a reminder: a reprint's code picks the reprint
    assert main_of("1 新兵 (五道·006)") == [("五道·006", 1, 1)]


@pytest.mark.parametrize(
    "header",
    ["General: 劉備", "general: 刘备", "武將：劉備", "武将: 刘备", "主將: WJ-001", "主将:WJ-001", "GENERAL : 劉備"],
)
def test_general_headers(header: str) -> None:
    parsed = parse(f"{header}\n3 新兵", lookup)
    assert [e.card.code for e in parsed.deck.generals] == ["WJ-001"]
    assert [e.card.code for e in parsed.deck.main] == ["YXJQ-003"]  # the general line did not switch sections


def test_sections_switch_and_comments_and_blanks_are_ignored() -> None:
    text = "# my deck\n\n武將:\n劉備\n\n牌庫:\n3 新兵\n// note\n援軍:\n2 黃巾義軍\nDeck:\n1 酒\nReinforcements:\n1 YJ-001\n"
    deck = parse(text, lookup).deck
    assert [(e.card.code, e.count, e.line) for e in deck.generals] == [("WJ-001", 1, 4)]
    assert [(e.card.code, e.line) for e in deck.main] == [("YXJQ-003", 7), ("YXJQ-002", 12)]
    assert [(e.card.code, e.count) for e in deck.reinforcements] == [("YJ-001", 2), ("YJ-001", 1)]


def test_player_name_and_format_lines_are_read() -> None:
    parsed = parse("Player: 王小明\n賽制: classic\n3 新兵", lookup)
    assert parsed.player == "王小明" and parsed.declared_format == "classic"


def test_unknown_cards_and_unreadable_lines_are_problems_with_line_numbers() -> None:
    text = "3 新兵\n2 不存在的卡\n3\nSideboard:\n2 WJ-999\n" + "x" * 300 + "\n1 酒"
    parsed = parse(text, lookup)
    assert [(p.code, p.lines) for p in parsed.problems] == [
        ("unknown_card", (2,)),
        ("unreadable_line", (3,)),
        ("unreadable_line", (4,)),
        ("unknown_card", (5,)),
        ("unreadable_line", (6,)),
    ]
    assert [e.card.code for e in parsed.deck.main] == ["YXJQ-003", "YXJQ-002"]  # the rest still read
    assert "第 2 行" in parsed.problems[0].message and "Line 2" in parsed.problems[0].message_en


@pytest.mark.parametrize(("line", "count"), [("0 新兵", 0), ("-2 新兵", -2), ("100 新兵", 100), ("新兵 x999", 999)])
def test_zero_negative_and_absurd_counts_are_invalid(line: str, count: int) -> None:
    parsed = parse(line, lookup)
    verdict = check(parsed.deck, get_format("standard"), parsed.problems)
    problem = next(p for p in verdict.problems if p.code == "invalid_count")
    assert problem.lines == (1,) and str(count) in problem.message


@pytest.mark.parametrize("text", ["", "\n\n  \n", "# only a comment"])
def test_empty_input_is_an_empty_deck(text: str) -> None:
    parsed = parse(text, lookup)
    assert parsed.deck.main == [] and parsed.problems == []


def test_garbage_text_is_reported_line_by_line_not_raised() -> None:
    garbage = "\x01\x02binary\n%%%%\n$$$ 3\n🂡🂢🂣\n"
    parsed = parse(garbage, lookup)
    assert [p.lines[0] for p in parsed.problems] == [1, 2, 3, 4]


def test_not_utf8_or_too_large_or_nul_is_a_clear_error() -> None:
    with pytest.raises(DeckListError, match="not UTF-8"):
        decode(b"\xff\xfe\x00garbage")
    with pytest.raises(DeckListError, match="64 KiB"):
        decode(b"3 x\n" * 20000)
    with pytest.raises(DeckListError, match="NUL"):
        decode(b"3 \x00")
    with pytest.raises(DeckListError, match="NUL"):
        parse("3 新兵\x00", lookup)
    assert decode("\ufeff3 新兵".encode()) == "3 新兵"  # a BOM is fine


def test_export_puts_the_general_first_and_groups_by_kind_and_cost() -> None:
    deck = deck_of({"YXJQ-009": 2, "YXJQ-002": 3, "YXJQ-003": 3, "YXJQ-001": 1}, reinforcements={"YJ-001": 2})
    text = export(deck, title="測試", fmt="standard")
    lines = [line for line in text.splitlines() if line and not line.startswith("#")]
    assert lines == [
        "賽制: standard",
        "武將: 劉備 (WJ-001)",
        "牌庫:",
        "3 新兵 (YXJQ-003)",
        "2 校場監軍 (YXJQ-009)",
        "3 酒 (YXJQ-002)",
        "1 南蠻入侵 (YXJQ-001)",
        "援軍:",
        "2 黃巾義軍 (YJ-001)",
    ]


@pytest.mark.parametrize("general", ["WJ-001", None])
def test_round_trip(general: str | None) -> None:
    deck = deck_of(legal_counts(47) | {"YJ-001": 1, "五道·006": 2}, general=general, reinforcements={"YJ-001": 3})
    again = parse(export(deck), lookup)
    assert again.problems == []
    assert again.deck.totals() == deck.totals()


def test_copies_split_across_a_code_and_a_simplified_name_are_one_name() -> None:
    text = "武將: 劉備\n2 YXJQ-004\n2 羽林内医\n"
    parsed = parse(text, lookup)
    verdict = check(parsed.deck, get_format("standard"), parsed.problems)
    problem = next(p for p in verdict.problems if p.code == "too_many_copies")
    assert problem.lines == (2, 3) and problem.cards == ("YXJQ-004",)
    three = parse("2 YXJQ-004\n1 羽林内医\n", lookup)
    assert "too_many_copies" not in [p.code for p in check(three.deck, get_format("standard")).problems]
