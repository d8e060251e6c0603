"""A sample game's first cards, replayable from a seed: the opening hand, an optional 調度 of
chosen hand positions, then the draw phases of as many turns as asked."""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from drawing.odds import HAND, cards_seen


@dataclass(frozen=True)
class SampleHand:
    seed: int
    turn: int
    first: bool
    hand: list[str]
    # Cards drawn in each turn's draw phase, turn 1 first.
    drawn: list[list[str]] = field(default_factory=list)
    set_aside: list[str] = field(default_factory=list)
    left: int = 0  # cards still in the deck


def sample_hand(
    cards: list[str], seed: int, *, turn: int = 0, first: bool = True, aside: frozenset[int] = frozenset()
) -> SampleHand:
    """Shuffle `cards` (one entry per copy) with `seed`, draw the opening hand; if `aside` names
    hand positions, 調度 them (refill from the top, shuffle them back); then draw to `turn`."""
    rng = random.Random(seed)  # noqa: S311 (a replayable game, not a secret)
    library = list(cards)
    rng.shuffle(library)
    hand, library = library[:HAND], library[HAND:]
    set_aside = [card for i, card in enumerate(hand) if i in aside]
    if set_aside:
        kept = [card for i, card in enumerate(hand) if i not in aside]
        refill, library = library[: len(set_aside)], library[len(set_aside) :]
        hand = kept + refill
        library += set_aside
        rng.shuffle(library)
    drawn = []
    for t in range(1, turn + 1):
        n = cards_seen(t, first=first) - cards_seen(t - 1, first=first)
        drawn.append(library[:n])
        library = library[n:]
    return SampleHand(seed, turn, first, hand, drawn, set_aside, len(library))
