"""Finding cards in what a recogniser read: codes with the usual misreadings, names in either
script matched to the nearest catalogue name, one card per name and code close together, spreads
of several cards, and the text that matched nothing. Plain data, no recogniser (test_reader.py
reads drawn photos with the real one)."""

from __future__ import annotations

import pytest

from scanning import CardRef, TextLine, find_cards, normalize_code

PREFIXES = ["GMGD", "LSHJ", "WJ", "YXJQ", "五道"]
CARDS = [
    CardRef("YXJQ-002", "酒", "酒"),
    CardRef("YXJQ-003", "新兵", "新兵"),
    CardRef("YXJQ-004", "羽林內醫", "羽林内医"),
    CardRef("YXJQ-005", "要塞守軍", "要塞守军"),
    CardRef("WJ-001", "劉備", "刘备"),
    CardRef("GMGD-012", "袁紹", "袁绍"),
    CardRef("五道·001", "野蠻村夫", "野蛮村夫"),
]


@pytest.mark.parametrize(
    ("read", "code", "fixes"),
    [
        ("YXJQ-004", "YXJQ-004", 0),
        ("ＹＸＪＱ－００４", "YXJQ-004", 0),
        ("YXJQ·004", "YXJQ-004", 0),
        ("YXJQ 0O4", "YXJQ-004", 1),
        ("YXIQ-004", "YXJQ-004", 1),
        ("GMCD-012", "GMGD-012", 1),
        ("五道·001", "五道·001", 0),
        ("五道-00l", "五道·001", 1),
        ("WJ001", "WJ-001", 0),
    ],
)
def test_a_printed_code_is_read_through_the_usual_misreadings(read: str, code: str, fixes: int) -> None:
    assert normalize_code(read, PREFIXES)[0] == (code, fixes)


def test_text_that_is_no_code_gives_none() -> None:
    assert normalize_code("登場時，摸一張牌。", PREFIXES) == []
    assert normalize_code("XYZW-001", PREFIXES) == []


def test_one_card_by_its_name_and_code_together() -> None:
    reading = find_cards(
        [
            TextLine("羽林內醫", (150, 40, 340, 90), 0.99),
            TextLine("登場時，摸一張牌。造成2點傷害", (60, 200, 440, 240), 0.99),
            TextLine("YXJQ-004", (180, 640, 320, 670), 0.98),
        ],
        CARDS,
    )
    assert [(f.card, f.by_code, f.by_name) for f in reading.cards] == [("YXJQ-004", True, True)]
    assert reading.cards[0].confidence > 0.95 and reading.cards[0].box == (150, 40, 340, 670)
    assert [line.text for line in reading.unmatched] == ["登場時，摸一張牌。造成2點傷害"]


@pytest.mark.parametrize("read", ["羽林内医", "羽林內翳", "羽林內醫3", "羽 林 內 醫"])
def test_a_name_is_the_nearest_catalogue_name_in_either_script(read: str) -> None:
    (found,) = find_cards([TextLine(read, (10, 10, 200, 50))], CARDS).cards
    assert found.card == "YXJQ-004" and found.by_name and not found.by_code


def test_effect_text_naming_a_card_is_not_that_card_and_one_character_names_are_read_exactly() -> None:
    reading = find_cards(
        [TextLine("將一張新兵置入你的手牌", (0, 0, 400, 30)), TextLine("洒", (0, 100, 30, 130))], CARDS
    )
    assert reading.cards == []
    assert find_cards([TextLine("酒", (0, 100, 30, 130))], CARDS).cards[0].card == "YXJQ-002"


def test_a_spread_gives_each_card_in_reading_order() -> None:
    lines = []
    for column, (name, code) in enumerate((("新兵", "YXJQ-003"), ("劉備", "WJ-001"), ("野蠻村夫", "五道·001"))):
        x = 20 + column * 420
        lines += [TextLine(name, (x, 20, x + 120, 60)), TextLine(code, (x, 520, x + 140, 550))]
    lines.append(TextLine("袁紹", (20, 700, 140, 740)))  # a second row: a name alone
    found = find_cards(lines, CARDS).cards
    assert [f.card for f in found] == ["YXJQ-003", "WJ-001", "五道·001", "GMGD-012"]
    assert [f.by_code for f in found] == [True, True, True, False]


def test_a_misread_name_beside_another_cards_code_is_an_alternative_not_a_card() -> None:
    reading = find_cards([TextLine("要塞守單", (20, 20, 180, 60)), TextLine("YXJQ-004", (30, 520, 170, 550))], CARDS)
    (found,) = reading.cards
    assert found.card == "YXJQ-004" and ("YXJQ-005", pytest.approx(0.71, abs=0.02)) in found.alternatives


def test_the_facts_of_one_cards_face_are_its_text_and_its_cost() -> None:
    from scanning.facts import read_facts

    lines = [
        TextLine("羽林內醫", (150, 40, 340, 90), 0.99),
        TextLine("2", (40, 40, 80, 90), 0.97),
        TextLine("登場時，摸一張牌。", (60, 200, 440, 240), 0.95),
        TextLine("造成2點傷害", (60, 244, 300, 280), 0.91),
        TextLine("3", (420, 600, 450, 640), 0.99),  # bottom right: health, not the cost
        TextLine("YXJQ-004", (180, 640, 320, 670), 0.98),
    ]
    facts = read_facts(lines, find_cards(lines, CARDS))
    assert facts["text"].value == "登場時，摸一張牌。造成2點傷害" and facts["text"].confidence == 0.91
    assert facts["cost"].value == 2 and facts["health"].value == 3 and "power" not in facts
    general = read_facts(lines, find_cards(lines, CARDS), wanted=("text", "cost", "life"))
    assert general["life"].value == 3 and "health" not in general
    assert set(read_facts(lines, find_cards(lines, CARDS), wanted=("cost",))) == {"cost"}
    assert read_facts([], find_cards([], CARDS)) == {}


def test_the_type_line_is_not_read_into_the_effect_text() -> None:
    from scanning.facts import read_facts

    lines = [
        TextLine("羽林內醫", (150, 40, 340, 90), 0.99),
        TextLine("部隊·步兵·羽林", (60, 150, 440, 190), 0.96),  # the type line, printed above the text
        TextLine("登場時，摸一張牌。", (60, 200, 440, 240), 0.95),
        TextLine("快速錦囊 火", (60, 250, 300, 280), 0.9),  # a tactic's, in its own words
        TextLine("YXJQ-004", (180, 640, 320, 670), 0.98),
    ]
    words = ["部隊", "錦囊", "步兵", "騎兵", "羽林", "快速", "火", "部队"]
    facts = read_facts(lines, find_cards(lines, CARDS), type_words=words)
    assert facts["text"].value == "登場時，摸一張牌。"
    # Without the words, the same lines were read as text: what the walk found.
    assert read_facts(lines, find_cards(lines, CARDS))["text"].value.startswith("部隊·步兵·羽林")


def test_a_figure_after_its_printed_label_is_read_in_either_script() -> None:
    from scanning.facts import read_facts

    lines = [
        TextLine("羽林內醫", (150, 40, 340, 90), 0.99),
        TextLine("战力：4", (40, 300, 160, 340), 0.93),  # not in a corner: the label says what it is
        TextLine("生命 6", (300, 300, 420, 340), 0.92),
        TextLine("YXJQ-004", (180, 640, 320, 670), 0.98),
    ]
    facts = read_facts(lines, find_cards(lines, CARDS))
    assert (facts["power"].value, facts["health"].value) == (4, 6) and facts["power"].confidence == 0.93
    assert "text" not in facts


def test_a_name_two_cards_share_is_told_apart_by_the_code_beside_it() -> None:
    cards = [*CARDS, CardRef("WJ-005", "董卓", "董卓"), CardRef("YCWJ-007", "董卓", "董卓")]
    (found,) = find_cards([TextLine("董卓", (20, 20, 120, 60)), TextLine("YCWJ-007", (30, 520, 170, 550))], cards).cards
    assert found.card == "YCWJ-007" and found.by_name and found.by_code
    (alone,) = find_cards([TextLine("董卓", (20, 20, 120, 60))], cards).cards
    assert alone.confidence < 0.9 and {c for c, _ in alone.alternatives} | {alone.card} == {"WJ-005", "YCWJ-007"}
