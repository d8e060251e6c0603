"""Draw odds by this game's rules, against values worked out by hand, and against a seeded
simulation of the same rules (the simulation lives only here, as a cross-check)."""

from __future__ import annotations

import dataclasses
import random
import subprocess
import sys
from fractions import Fraction
from math import comb

import pytest

from drawing import cards_seen, odds_table, p_at_least, sample_hand


def test_cards_seen_by_turn_follow_the_rules() -> None:
    # 5 in hand; the first player draws 1 in turn 1, then 2 a turn; the second 2 a turn.
    assert [cards_seen(t, first=True) for t in range(7)] == [5, 6, 8, 10, 12, 14, 16]
    assert [cards_seen(t, first=False) for t in range(7)] == [5, 7, 9, 11, 13, 15, 17]


def same(value: float, exact: Fraction) -> bool:
    return abs(value - float(exact)) < 1e-12


def test_hand_worked_values_without_mulligan() -> None:
    # 3 copies in 40 cards, at least 1.
    assert same(p_at_least(40, 3, 1, 0, first=True, mulligan=False), 1 - Fraction(comb(37, 5), comb(40, 5)))
    assert same(p_at_least(40, 3, 1, 0, first=True, mulligan=False), Fraction(222111, 658008))
    assert same(p_at_least(40, 3, 1, 1, first=True, mulligan=False), Fraction(1513596, 3838380))
    assert same(p_at_least(40, 3, 1, 1, first=False, mulligan=False), 1 - Fraction(comb(37, 7), comb(40, 7)))
    # At least 2 of 3 in the opening hand: C(3,2)C(37,3)/C(40,5) + C(3,3)C(37,2)/C(40,5).
    assert same(p_at_least(40, 3, 2, 0, first=True, mulligan=False), Fraction(3 * 7770 + 666, 658008))


def test_hand_worked_values_with_mulligan() -> None:
    # Setting aside the whole unwanted hand and drawing 5 more is 10 cards without replacement:
    # P(none) = C(37,10)/C(40,10) = 30·29·28 / (40·39·38).
    assert same(p_at_least(40, 3, 1, 0, first=True, mulligan=True), 1 - Fraction(30 * 29 * 28, 40 * 39 * 38))
    # Then the first player's one draw in turn 1 comes from 35 cards holding all 3: 32/35 miss.
    expected = 1 - Fraction(30 * 29 * 28, 40 * 39 * 38) * Fraction(32, 35)
    assert same(p_at_least(40, 3, 1, 1, first=True, mulligan=True), expected)
    assert expected == Fraction(771, 1235)


def test_the_table_as_it_is_shown() -> None:
    table = dataclasses.asdict(odds_table(40, 3, 1).rounded())
    assert table["method"] == "exact" and (table["deck_size"], table["matching"], table["k"]) == (40, 3, 1)
    assert table["first"][:2] == [0.337551, 0.394332]  # 222111/658008, 1513596/3838380
    assert table["first_mulligan"][:2] == [0.589069, 0.624291]  # 1 − 24360/59280, 771/1235
    assert all(len(table[row]) == 7 for row in ("first", "second", "first_mulligan", "second_mulligan"))
    # Every row rises with the turns, and 調度 never hurts.
    for row in ("first", "second", "first_mulligan", "second_mulligan"):
        assert table[row] == sorted(table[row])
    assert all(m >= p for m, p in zip(table["first_mulligan"], table["first"], strict=True))


def test_edges() -> None:
    assert odds_table(40, 0, 1).rounded().first == [0.0] * 7
    assert odds_table(40, 40, 1).rounded().second_mulligan == [1.0] * 7
    assert odds_table(6, 3, 3).rounded().first[-1] == 1.0  # the whole deck seen
    assert odds_table(0, 0, 1).rounded().first == [0.0] * 7
    with pytest.raises(ValueError):
        odds_table(40, 41, 1)
    with pytest.raises(ValueError):
        odds_table(40, 3, 0)


def _simulate(deck: int, wanted: int, k: int, turn: int, first: bool, mulligan: bool, trials: int, seed: int) -> float:
    rng = random.Random(seed)
    hits = 0
    cards = [True] * wanted + [False] * (deck - wanted)
    for _ in range(trials):
        library = cards[:]
        rng.shuffle(library)
        hand, library = library[:5], library[5:]
        if mulligan:
            aside = [c for c in hand if not c]
            hand = [c for c in hand if c]
            hand += library[: len(aside)]
            library = library[len(aside) :] + aside
            rng.shuffle(library)
        draws = cards_seen(turn, first=first) - 5
        hits += sum(hand) + sum(library[:draws]) >= k
    return hits / trials


@pytest.mark.parametrize(
    "deck, wanted, k, turn, first, mulligan",
    [(40, 3, 1, 3, True, True), (45, 6, 2, 2, False, True), (60, 4, 1, 6, False, False), (40, 9, 3, 4, True, True)],
)
def test_the_formulas_agree_with_a_seeded_simulation(deck, wanted, k, turn, first, mulligan) -> None:
    exact = float(p_at_least(deck, wanted, k, turn, first=first, mulligan=mulligan))
    simulated = _simulate(deck, wanted, k, turn, first, mulligan, trials=20_000, seed=7)
    assert abs(exact - simulated) < 0.015, (exact, simulated)


def test_a_sample_hand_replays_from_its_seed() -> None:
    cards = [f"C{i:02d}" for i in range(40)]
    one = sample_hand(cards, 42, turn=3, first=True)
    assert one == sample_hand(cards, 42, turn=3, first=True)
    assert len(one.hand) == 5 and [len(d) for d in one.drawn] == [1, 2, 2] and one.left == 40 - 10
    second = sample_hand(cards, 42, turn=2, first=False)
    assert [len(d) for d in second.drawn] == [2, 2]
    # 調度 of positions 0 and 3: those two are set aside, three kept, two refilled.
    mulled = sample_hand(cards, 42, aside=frozenset({0, 3}))
    opening = sample_hand(cards, 42).hand
    assert mulled.set_aside == [opening[0], opening[3]]
    assert mulled.hand[:3] == [opening[1], opening[2], opening[4]] and len(mulled.hand) == 5
    assert not set(mulled.hand) & set(mulled.set_aside)


def test_drawing_imports_no_django() -> None:
    code = "import sys, drawing; drawing.odds_table(40, 3); assert not any(m.startswith('django') for m in sys.modules)"
    subprocess.run([sys.executable, "-c", code], check=True)
