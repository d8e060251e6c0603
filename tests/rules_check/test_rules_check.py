"""`rules_check` alone: no Django, no database. Every rule, every problem code, the edges."""

from __future__ import annotations

import ast
import dataclasses
import json
import subprocess
import sys
from pathlib import Path

import pytest

from rules_check import FORMATS, PROBLEM_CODES, Deck, Entry, check, get_format
from rules_check.formats import FormatError, build_format, load_formats
from tests.support.rules_cards import card, deck_of, legal_counts

STANDARD = get_format("standard")
CLASSIC = get_format("classic")
ROOT = Path(__file__).resolve().parents[2]


def codes(verdict) -> list[str]:
    return [p.code for p in verdict.problems]


def test_rules_check_imports_nothing_outside_the_standard_library() -> None:
    allowed = set(sys.stdlib_module_names) | {"rules_check", "__future__"}
    for path in (ROOT / "rules_check").glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0:
                names = [node.module or ""]
            else:
                continue
            for name in names:
                assert name.split(".")[0] in allowed, f"{path.name} imports {name}"


def test_rules_check_runs_in_a_python_without_django() -> None:
    # -I: isolated mode, no site-packages: Django cannot be found even by accident.
    code = (
        f"import sys; sys.path.insert(0, {str(ROOT)!r}); import rules_check;"
        " assert 'django' not in sys.modules; print(sorted(rules_check.FORMATS))"
    )
    result = subprocess.run([sys.executable, "-I", "-S", "-c", code], cwd=ROOT, capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    assert "standard" in result.stdout


@pytest.mark.parametrize(("total", "legal"), [(39, False), (40, True), (60, True), (61, False)])
def test_standard_deck_size_edges(total: int, legal: bool) -> None:
    verdict = check(deck_of(legal_counts(total)), STANDARD)
    assert verdict.legal is legal
    assert verdict.main_deck_count == total
    expected = [] if legal else ["too_few_cards" if total < 40 else "too_many_cards"]
    assert codes(verdict) == expected


@pytest.mark.parametrize(("total", "problem"), [(29, "too_few_cards"), (30, None), (50, None), (51, "too_many_cards")])
def test_classic_deck_size_edges(total: int, problem: str | None) -> None:
    verdict = check(deck_of(legal_counts(total)), CLASSIC)
    assert codes(verdict) == ([problem] if problem else [])


def test_empty_deck() -> None:
    verdict = check(Deck(), STANDARD)
    assert not verdict.legal
    assert codes(verdict) == ["no_general", "too_few_cards"]
    assert verdict.general is None and verdict.main_deck_count == 0


def test_three_copies_are_fine_four_are_not() -> None:
    counts = legal_counts(40)
    assert counts["YXJQ-003"] == 3
    assert check(deck_of(counts), STANDARD).legal
    counts["YXJQ-003"] = 4
    verdict = check(deck_of(counts), STANDARD)
    assert codes(verdict) == ["too_many_copies"]
    assert verdict.problems[0].cards == ("YXJQ-003",)


def test_copies_are_counted_by_name_across_codes_and_lines() -> None:
    # 2 新兵 by one code, 2 by a reprint's code: 4 of the same name
    deck = deck_of(legal_counts(40))
    deck.main = [e for e in deck.main if e.card.code != "YXJQ-003"]
    deck.main += [
        Entry(card("YXJQ-003"), 2, line=5),
        Entry(card("五道·006"), 1, line=9),
        Entry(card("五道·006"), 1, line=12),
    ]
    verdict = check(deck, STANDARD)
    problem = next(p for p in verdict.problems if p.code == "too_many_copies")
    assert problem.cards == ("YXJQ-003", "五道·006")
    assert problem.lines == (5, 9, 12)
    assert "4" in problem.message and "新兵" in problem.message


def test_reinforcement_in_the_main_deck() -> None:
    counts = legal_counts(40) | {"YJ-001": 1}
    verdict = check(deck_of(counts), STANDARD)
    assert codes(verdict) == ["reinforcement_in_deck"]
    assert verdict.problems[0].cards == ("YJ-001",)


@pytest.mark.parametrize("code", ["WJ-002", "YCWJ-001", "FJ-001"])
def test_any_kind_of_general_in_the_main_deck(code: str) -> None:
    verdict = check(deck_of(legal_counts(40) | {code: 1}), STANDARD)
    assert codes(verdict) == ["general_in_deck"]


def test_two_generals() -> None:
    deck = deck_of(legal_counts(40))
    deck.generals.append(Entry(card("WJ-002"), line=2))
    verdict = check(deck, STANDARD)
    assert codes(verdict) == ["too_many_generals"]
    assert verdict.problems[0].cards == ("WJ-001", "WJ-002")


def test_no_general_is_legal_with_a_warning() -> None:
    verdict = check(deck_of(legal_counts(40), general=None), STANDARD)
    assert verdict.legal
    assert [(p.code, p.severity) for p in verdict.problems] == [("no_general", "warning")]


def test_awakened_general_may_be_chosen_but_a_troop_or_vice_general_may_not() -> None:
    assert check(deck_of(legal_counts(40), general="YCWJ-001"), STANDARD).legal
    for code in ("YXJQ-003", "FJ-001"):
        assert codes(check(deck_of(legal_counts(40), general=code), STANDARD)) == ["not_a_general"]


def test_not_a_reinforcement() -> None:
    verdict = check(deck_of(legal_counts(40), reinforcements={"YJ-001": 2, "YXJQ-002": 1}), STANDARD)
    assert codes(verdict) == ["not_a_reinforcement"]
    assert verdict.problems[0].cards == ("YXJQ-002",)


@pytest.mark.parametrize("count", [0, -1, 100, 10**12])
def test_invalid_counts(count: int) -> None:
    counts = legal_counts(40) | {"YXJQ-018": count}
    verdict = check(deck_of(counts), STANDARD)
    assert "invalid_count" in codes(verdict)
    assert verdict.main_deck_count == 40 - legal_counts(40).get("YXJQ-018", 0)


def test_every_problem_is_reported_not_just_the_first() -> None:
    deck = deck_of({"YXJQ-003": 5, "YJ-001": 1, "WJ-002": 1, "YXJQ-002": 0}, reinforcements={"YXJQ-004": 1})
    deck.generals.append(Entry(card("YCWJ-001")))
    assert set(codes(check(deck, STANDARD))) == {
        "too_many_copies",
        "reinforcement_in_deck",
        "general_in_deck",
        "invalid_count",
        "not_a_reinforcement",
        "too_many_generals",
        "too_few_cards",
    }


def test_each_problem_has_code_severity_cards_lines_and_two_languages() -> None:
    verdict = check(deck_of({"YXJQ-003": 4}), STANDARD)
    data = dataclasses.asdict(verdict)
    assert set(data) == {"legal", "format", "main_deck_count", "general", "problems"}
    for problem in data["problems"]:
        assert set(problem) >= {"code", "severity", "cards", "lines", "message", "message_en"}
        assert problem["code"] in PROBLEM_CODES
        assert problem["message"] and problem["message_en"]
    json.dumps(data)  # plain data all the way down


def test_formats_are_data_a_ban_and_a_per_card_exception_need_no_code(tmp_path: Path) -> None:
    data = json.loads((ROOT / "rules_check" / "formats.json").read_text(encoding="utf-8"))
    data["banned_test"] = {**data["standard"], "banned": ["酒", "WJ-002"], "copy_limits": {"新兵": 5, "yxjq4": 1}}
    path = tmp_path / "formats.json"
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    fmt = load_formats(path)["banned_test"]

    counts = legal_counts(40)
    counts.pop("YXJQ-002", None)  # no 酒 (banned here) ...
    counts["YXJQ-003"] = 5  # ... and 5 新兵 (allowed here)
    counts["YXJQ-004"] = 1  # 羽林內醫 (YXJQ-004): limited to 1 here
    counts["YXJQ-018"] = counts.get("YXJQ-018", 0) + 40 - sum(counts.values())
    deck = deck_of(counts)
    assert deck.main_count() == 40
    assert check(deck, fmt).legal, codes(check(deck, fmt))

    assert codes(check(deck_of(counts | {"YXJQ-003": 6}), fmt)) == ["too_many_copies"]
    assert "too_many_copies" in codes(check(deck_of(counts), STANDARD))  # 5 新兵: the default limit still holds
    assert codes(check(deck_of(counts | {"YXJQ-002": 1}), fmt)) == ["banned_card"]
    assert codes(check(deck_of(counts, general="WJ-002"), fmt)) == ["banned_card"]
    assert "too_many_copies" in codes(check(deck_of(counts | {"YXJQ-004": 2}), fmt))  # limit 1 by alias code


def test_a_ban_list_written_in_simplified_matches_the_printed_name() -> None:
    fmt = build_format("x", {"min_cards": 0, "max_cards": 60, "copy_limit": 3, "banned": ["南蛮入侵"]})
    assert codes(check(deck_of({"YXJQ-001": 1}), fmt)) == ["banned_card"]


@pytest.mark.parametrize(
    "record",
    [
        {"min_cards": 50, "max_cards": 40, "copy_limit": 3},
        {"min_cards": "40", "max_cards": 60, "copy_limit": 3},
        {"min_cards": 40, "max_cards": 60},
        {"min_cards": 40, "max_cards": 60, "copy_limit": 3, "copy_limits": {"x": -1}},
    ],
)
def test_bad_format_data_fails_loudly(record: dict) -> None:
    with pytest.raises(FormatError):
        build_format("broken", record)


def test_the_two_formats_of_the_rules() -> None:
    assert (FORMATS["standard"].min_cards, FORMATS["standard"].max_cards, FORMATS["standard"].copy_limit) == (40, 60, 3)
    assert (FORMATS["classic"].min_cards, FORMATS["classic"].max_cards, FORMATS["classic"].copy_limit) == (30, 50, 3)
    with pytest.raises(FormatError, match="unknown format"):
        get_format("vintage")


def _in_sets(deck: Deck, sets: dict[str, str]) -> Deck:
    """The deck with each card's set as `sets` names it by code prefix (unknown otherwise)."""

    def placed(entry: Entry) -> Entry:
        prefix = entry.card.code.split("-")[0].split("·")[0]
        return dataclasses.replace(entry, card=dataclasses.replace(entry.card, card_set=sets.get(prefix)))

    return Deck(
        generals=[placed(e) for e in deck.generals],
        main=[placed(e) for e in deck.main],
        reinforcements=[placed(e) for e in deck.reinforcements],
    )


def test_a_format_may_allow_only_some_sets() -> None:
    fmt = build_format("x", {"min_cards": 40, "max_cards": 60, "copy_limit": 3, "sets": ["YXJQ"]})
    sets = {"YXJQ": "YXJQ", "LSHJ": "LSHJ", "WJ": "YXJQ", "YJ": "LSHJ"}
    only_base = {code: n for code, n in legal_counts(60).items() if code.startswith("YXJQ")}
    assert 40 <= sum(only_base.values()) <= 60
    assert check(_in_sets(deck_of(only_base), sets), fmt).legal
    # One card of another set: one problem naming it; a reinforcement is no one's deck.
    mixed = _in_sets(deck_of(only_base | {"LSHJ-001": 1}, reinforcements={"YJ-001": 1}), sets)
    verdict = check(mixed, fmt)
    assert codes(verdict) == ["set_not_allowed"] and verdict.problems[0].cards == ("LSHJ-001",)
    assert "YXJQ" in verdict.problems[0].message and "YXJQ" in verdict.problems[0].message_en
    # A card whose set is unknown is allowed only where every set is; the general is checked too.
    unknown = _in_sets(deck_of(only_base, general="WJ-002"), {"YXJQ": "YXJQ"})
    assert codes(check(unknown, fmt)) == ["set_not_allowed"]
    assert check(unknown, STANDARD).legal


def test_sets_are_part_of_the_rules_digest_and_absent_sets_keep_the_old_digest() -> None:
    from rules_check import formats_stamp

    base = {"min_cards": 40, "max_cards": 60, "copy_limit": 3}
    assert formats_stamp({"x": build_format("x", base)}) == formats_stamp({"x": build_format("x", base | {"sets": []})})
    assert formats_stamp({"x": build_format("x", base)}) != formats_stamp(
        {"x": build_format("x", base | {"sets": ["YXJQ"]})}
    )
    with pytest.raises(FormatError):
        build_format("x", base | {"sets": "YXJQ"})
