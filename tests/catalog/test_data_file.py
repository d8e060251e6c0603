"""The versioned card data file against the glossary's rules and the printed tables' facts."""

from __future__ import annotations

import json
import re
from collections import Counter

import pytest

from catalog.loading import DATA_FILE, RECORD_KEYS, validate
from catalog.vocab import Element, Faction, Kind, Speed, Tier, TroopClass
from rules_check.codes import normalize_code

DATA = json.loads(DATA_FILE.read_text(encoding="utf-8"))
CARDS = {c["code"]: c for c in DATA["cards"]}
CODE_SHAPES = {
    "YXJQ": r"YXJQ-0(0[1-9]|1[0-8])",
    "LSHJ": r"LSHJ-0(0[1-9]|1\d|2[0-4])",
    "GMGD": r"GMGD-0(0[1-9]|1\d|2[0-4])",
    "WD": r"五道·0(0[1-9]|[1-8]\d|9[0-8])",
}
# A code's series (its letters) and number: each series is numbered from 1 without a gap.
SERIES = re.compile(r"(?P<series>[A-Z]+-|五道·)(?P<number>\d{3})")


def test_the_file_passes_the_loaders_validation() -> None:
    sets, cards = validate(DATA)
    assert len(cards) == len(DATA["cards"]) > 0
    assert [s["code"] for s in sets] == ["YXJQ", "LSHJ", "GMGD", "WD"]


def test_distinct_codes_every_one_as_printed_and_no_number_missing() -> None:
    codes = [c["code"] for c in DATA["cards"]]
    assert len(codes) == len(set(codes))
    numbers: dict[str, list[int]] = {}
    for code in codes:
        assert normalize_code(code) == code, code
        shape = SERIES.fullmatch(code)
        assert shape is not None, code
        numbers.setdefault(shape["series"], []).append(int(shape["number"]))
    for series, found in numbers.items():
        assert sorted(found) == list(range(1, len(found) + 1)), series


def test_every_record_has_exactly_the_glossary_fields() -> None:
    for card in DATA["cards"]:
        assert tuple(card) == RECORD_KEYS, card["code"]


@pytest.mark.parametrize(
    ("field", "allowed"),
    [
        ("kind", set(Kind.values)),
        ("troop_class", set(TroopClass.values) | {None}),
        ("faction", set(Faction.values) | {None}),
        ("speed", set(Speed.values) | {None}),
        ("element", set(Element.values) | {None}),
        ("tier", set(Tier.values) | {None}),
    ],
)
def test_every_slug_is_a_glossary_slug(field: str, allowed: set[str | None]) -> None:
    assert {c[field] for c in DATA["cards"]} <= allowed


def test_deck_card_codes_belong_to_their_set() -> None:
    for card in DATA["cards"]:
        if card["kind"] in ("troop", "tactic"):
            assert re.fullmatch(CODE_SHAPES[card["set"]], card["code"]), card["code"]


def test_counts_per_set_and_kind_match_the_glossary() -> None:
    counts = Counter((c["set"], c["kind"]) for c in DATA["cards"])
    assert counts[("YXJQ", "troop")] + counts[("YXJQ", "tactic")] == 18
    assert counts[("YXJQ", "general")] == 9
    assert counts[("LSHJ", "troop")] + counts[("LSHJ", "tactic")] == 24
    assert counts[("LSHJ", "general")] == 6
    assert counts[("LSHJ", "awakened_general")] == 3
    assert counts[("LSHJ", "reinforcement")] == 1
    assert counts[("GMGD", "troop")] + counts[("GMGD", "tactic")] == 24
    assert counts[("GMGD", "general")] == 8
    assert counts[("GMGD", "awakened_general")] == 1
    assert counts[("GMGD", "vice_general")] == 7
    assert counts[("WD", "troop")] + counts[("WD", "tactic")] == 98
    assert counts[("WD", "general")] == 11
    assert counts[("WD", "awakened_general")] == 3
    assert counts[(None, "reinforcement")] == 2


def test_troops_of_the_full_stat_sets_have_cost_power_health_and_rarity() -> None:
    for card in DATA["cards"]:
        if card["set"] in ("YXJQ", "LSHJ") and card["kind"] == "troop":
            assert None not in (card["cost"], card["power"], card["health"], card["tier"], card["stars"]), card
            assert card["affiliation"], card
        if card["set"] in ("YXJQ", "LSHJ") and card["kind"] == "tactic":
            assert None not in (card["cost"], card["speed"], card["element"], card["tier"]), card
        if card["kind"] in ("general", "awakened_general") and card["set"] in ("YXJQ", "LSHJ"):
            assert None not in (card["life"], card["troop_class"], card["text"], card["faction"]), card


def test_facts_the_seed_does_not_give_are_null_not_guessed() -> None:
    for card in DATA["cards"]:
        if card["set"] in ("GMGD", "WD"):
            assert card["cost"] is None and card["power"] is None and card["health"] is None, card["code"]
            assert card["tier"] is None and card["stars"] is None and card["element"] is None, card["code"]
    assert CARDS["FJ-001"]["troop_class"] is None and CARDS["FJ-001"]["life"] is None
    assert CARDS["YJ-001"]["cost"] is None and CARDS["YJ-001"]["tier"] is None


def test_names_are_clean_of_line_break_debris() -> None:
    assert CARDS["YXJQ-006"]["name"] == "步兵十夫長"
    assert CARDS["YXJQ-009"]["name"] == "校場監軍"
    assert CARDS["LSHJ-019"]["name"] == "西涼蠻王"
    assert CARDS["五道·042"]["name"] == "陣列弩弓隊"
    assert CARDS["五道·048"]["name"] == "戟衛長"
    assert CARDS["五道·064"]["name"] == "兩極玄老·陽"  # the middle dot is part of this name
    for card in DATA["cards"]:
        assert not re.search(r"[\s,，]", card["name"]), card


def test_spot_checks_against_the_seed() -> None:
    new_recruit = CARDS["YXJQ-003"]
    assert (new_recruit["name"], new_recruit["cost"], new_recruit["power"], new_recruit["health"]) == ("新兵", 2, 1, 3)
    assert (new_recruit["troop_class"], new_recruit["affiliation"], new_recruit["tier"], new_recruit["stars"]) == (
        "infantry",
        "江湖散人",
        "bronze",
        1,
    )
    assert CARDS["YXJQ-015"]["stars"] == 5
    assert CARDS["WJ-008"]["tier"] == "gold" and CARDS["WJ-008"]["random_insert"] is True
    assert CARDS["WJ-001"]["faction"] == "shu" and CARDS["WJ-001"]["life"] == 35
    assert CARDS["LSHJ-011"]["speed"] == "fast" and CARDS["LSHJ-011"]["element"] == "metal"
    assert CARDS["YCWJ-003"]["awakening"] == 4 and CARDS["YCWJ-003"]["stars"] == 5
    assert CARDS["YJ-003"]["troop_class"] == "cavalry" and CARDS["YJ-003"]["set"] is None
    assert CARDS["WJ-028"]["faction"] == "yuan"
    assert CARDS["五道·097"]["name"] == "無懈可擊" and CARDS["五道·097"]["speed"] == "fast"
    assert CARDS["GMGD-002"]["troop_class"] == "halberdier"
    assert "【賢德】" in CARDS["WJ-001"]["text"] and "【 " not in CARDS["WJ-002"]["text"]
