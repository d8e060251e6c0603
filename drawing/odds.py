"""Exact odds of holding at least k of the wanted cards: hypergeometric, in two stages with 調度.

Without 調度 the cards seen by a turn are one uniform sample of the deck. With 調度 the stated
policy is "set aside every card that is not wanted": the opening hand holds j wanted cards
(hypergeometric over the deck); the 5 − j others are set aside and replaced from the rest of
the deck (N − 5 cards, K − j wanted), drawing m more wanted; the set-aside cards, none wanted,
go back and the deck is shuffled, so every later draw is a uniform sample of a deck of
N − (j + m') cards (m' the replacements drawn) holding K − j − m wanted. Summed over j and m.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from math import comb

HAND = 5
TURNS = 6


def cards_seen(turn: int, *, first: bool) -> int:
    """Cards seen after turn `turn`'s draw phase (0: the opening hand alone)."""
    if turn == 0:
        return HAND
    return HAND + (2 * turn - 1 if first else 2 * turn)


def _draws(turn: int, *, first: bool) -> int:
    return cards_seen(turn, first=first) - HAND


# The counts are exact integers (math.comb); each probability is one division of two of them, so
# a value is within a few units in the last place of the exact fraction, and a whole table takes
# a fraction of a millisecond (exact Fractions took ten times longer).
@lru_cache(maxsize=8192)
def _pmf(deck: int, wanted: int, drawn: int, hits: int) -> float:
    """P(exactly `hits` wanted among `drawn` cards drawn from `deck` holding `wanted`)."""
    if hits < 0 or hits > drawn or hits > wanted or drawn - hits > deck - wanted:
        return 0.0
    return comb(wanted, hits) * comb(deck - wanted, drawn - hits) / comb(deck, drawn)


@lru_cache(maxsize=8192)
def _tail(deck: int, wanted: int, drawn: int, at_least: int) -> float:
    """P(at least `at_least` wanted among `drawn` cards of `deck`)."""
    drawn = min(drawn, deck)
    if at_least <= 0:
        return 1.0
    # Summed over the hits that reach `at_least` (not 1 − the rest): no cancellation near 0.
    return sum(_pmf(deck, wanted, drawn, h) for h in range(at_least, min(drawn, wanted) + 1))


def p_at_least(deck: int, wanted: int, k: int, turn: int, *, first: bool, mulligan: bool) -> float:
    """P(at least k of the `wanted` cards of a `deck`-card deck seen by `turn`), exact."""
    if not 0 <= wanted <= deck:
        raise ValueError("wanted must be between 0 and the deck size")
    seen = cards_seen(turn, first=first)
    if not mulligan:
        return _tail(deck, wanted, seen, k)
    hand = min(HAND, deck)
    draws = _draws(turn, first=first)
    total = 0.0
    for j in range(hand + 1):
        p_j = _pmf(deck, wanted, hand, j)
        if not p_j:
            continue
        rest = deck - hand  # the deck while the set-aside cards are out of it
        replace = min(hand - j, rest)
        for m in range(replace + 1):
            p_m = _pmf(rest, wanted - j, replace, m)
            if not p_m:
                continue
            library = deck - j - replace  # the rest after refilling, plus the set-aside cards
            total += p_j * p_m * _tail(library, wanted - j - m, draws, k - j - m)
    return total


@dataclass(frozen=True)
class OddsTable:
    deck_size: int
    matching: int
    k: int
    # [hand, turn 1, …, turn 6] for each way of playing.
    first: list[float]
    second: list[float]
    first_mulligan: list[float]
    second_mulligan: list[float]
    method: str = "exact"  # every chance is counted, not sampled

    def rounded(self, places: int = 6) -> OddsTable:
        """The table as it is shown: each chance at most 1 (sums of floats may pass it by a
        hair) and to `places` decimals."""

        def row(values: list[float]) -> list[float]:
            return [round(min(1.0, v), places) for v in values]

        return OddsTable(
            self.deck_size,
            self.matching,
            self.k,
            row(self.first),
            row(self.second),
            row(self.first_mulligan),
            row(self.second_mulligan),
        )


def odds_table(deck_size: int, matching: int, k: int = 1) -> OddsTable:
    """Every row of the table: the opening hand and turns 1–6, first or second, with or without 調度."""
    if deck_size < 0 or not 0 <= matching <= deck_size or k < 1:
        raise ValueError("need 0 <= matching <= deck_size and k >= 1")

    def row(first: bool, mulligan: bool) -> list[float]:
        return [p_at_least(deck_size, matching, k, t, first=first, mulligan=mulligan) for t in range(TURNS + 1)]

    return OddsTable(deck_size, matching, k, row(True, False), row(False, False), row(True, True), row(False, True))
