"""Standings after any round, with exact fractions (no float ties).

A player's record includes their byes, each a match won 2–0. Byes are never an opponent.
Dropped players keep their record and still count as opponents.

- points: the sum of match points (the event's win/draw/loss values);
- MWP = max(1/3, points ÷ (win value × matches played));
- GWP = max(1/3, game points ÷ (3 × games played)), a game won 3, drawn 1, lost 0;
- OMW = the mean of the opponents' MWP; OGW = the mean of the opponents' GWP (0 with no
  opponent, a player who has had only byes);
- order: points, then the tie-breakers of TIEBREAKERS in their order (OMW, GWP, OGW), then a
  seeded random order recorded with the event.

TIEBREAKERS is the one list of them: the sort, the standings table, its CSV, the API and the
sentence on the day page are all drawn from it.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from fractions import Fraction
from operator import attrgetter

THIRD = Fraction(1, 3)


@dataclass(frozen=True)
class Points:
    win: int = 3
    draw: int = 1
    loss: int = 0


@dataclass(frozen=True)
class Match:
    """A finished match: games won by a, by b, and drawn. b is None for a bye (2–0 to a)."""

    a: int
    b: int | None
    a_wins: int = 0
    b_wins: int = 0
    draws: int = 0

    @classmethod
    def bye(cls, player: int) -> Match:
        return cls(player, None, 2, 0, 0)


@dataclass
class Standing:
    player: int
    rank: int = 0
    points: int = 0
    matches: int = 0
    wins: int = 0
    losses: int = 0
    draws: int = 0
    game_points: int = 0
    games: int = 0
    opponents: list[int] = field(default_factory=list)
    mwp: Fraction = THIRD
    gwp: Fraction = THIRD
    omw: Fraction = Fraction(0)
    ogw: Fraction = Fraction(0)


def gettext_noop(message: str) -> str:
    """Marks a label for the site's translators (Django's makemessages reads this name); the
    pages translate it where they show it, and this package stays pure Python."""
    return message


@dataclass(frozen=True)
class Tiebreaker:
    key: str  # the API's and the CSV's name
    abbr: str  # the column heading, the same in every language
    label: str  # English, translated where it is shown
    value: Callable[[Standing], Fraction]


# Players equal on points are ordered by these, first to last (then by the drawn lot).
TIEBREAKERS: tuple[Tiebreaker, ...] = (
    Tiebreaker("omw", "OMW", gettext_noop("Opponents' match-win %"), attrgetter("omw")),
    Tiebreaker("gw", "GW", gettext_noop("Game-win %"), attrgetter("gwp")),
    Tiebreaker("ogw", "OGW", gettext_noop("Opponents' game-win %"), attrgetter("ogw")),
)


def tiebreakers() -> tuple[Tiebreaker, ...]:
    """TIEBREAKERS, read when called: what is drawn from it follows it, wherever it is used."""
    return TIEBREAKERS


def _record(row: Standing, own: int, other: int, draws: int, points: Points) -> None:
    row.matches += 1
    row.games += own + other + draws
    row.game_points += 3 * own + draws
    if own > other:
        row.wins += 1
        row.points += points.win
    elif own < other:
        row.losses += 1
        row.points += points.loss
    else:
        row.draws += 1
        row.points += points.draw


def standings(players: Iterable[int], matches: Iterable[Match], points: Points, seed: int) -> list[Standing]:
    """Every player ranked. `seed` fixes the order of players equal on every tie-breaker."""
    rows = {p: Standing(p) for p in players}
    for match in matches:
        _record(rows[match.a], match.a_wins, match.b_wins, match.draws, points)
        if match.b is not None:
            _record(rows[match.b], match.b_wins, match.a_wins, match.draws, points)
            rows[match.a].opponents.append(match.b)
            rows[match.b].opponents.append(match.a)
    for row in rows.values():
        if row.matches and points.win:
            row.mwp = max(THIRD, Fraction(row.points, points.win * row.matches))
        if row.games:
            row.gwp = max(THIRD, Fraction(row.game_points, 3 * row.games))
    for row in rows.values():
        if row.opponents:
            row.omw = sum((rows[o].mwp for o in row.opponents), Fraction(0)) / len(row.opponents)
            row.ogw = sum((rows[o].gwp for o in row.opponents), Fraction(0)) / len(row.opponents)
    order = sorted(rows)
    random.Random(seed).shuffle(order)  # noqa: S311 (a recorded tie-break, not a secret)
    lot = {p: i for i, p in enumerate(order)}
    ranked = sorted(
        rows.values(), key=lambda r: (-r.points, *(-tiebreaker.value(r) for tiebreaker in TIEBREAKERS), lot[r.player])
    )
    for rank, row in enumerate(ranked, start=1):
        row.rank = rank
    return ranked
