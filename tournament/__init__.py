"""Swiss pairings, standings and the top cut for a tournament day. Pure Python with no Django,
like rules_check: plain numbers in (player ids, finished matches), plain answers out. The one
library is networkx, for maximum-weight matching.

The printed rules say nothing about tournaments; these are the usual card-game defaults, which
the site states on every event (README "Running an event").
"""

from tournament.pairing import BYE, PairingError, pair_round
from tournament.standings import TIEBREAKERS, Match, Points, Standing, Tiebreaker, standings, tiebreakers
from tournament.tables import assign_tables
from tournament.topcut import bracket_pairs

__all__ = [
    "BYE",
    "TIEBREAKERS",
    "Match",
    "PairingError",
    "Points",
    "Standing",
    "Tiebreaker",
    "assign_tables",
    "bracket_pairs",
    "pair_round",
    "standings",
    "tiebreakers",
]
