"""How a deck draws, by the printed rules quoted below (the glossary's "Drawing"). Pure Python,
stdlib only, like rules_check: plain numbers in, exact probabilities out.

- The starting hand is 5 cards (起始手牌為5張).
- Once per game a player may 調度: set aside any number of hand cards, refill the hand to 5 from
  the top of the deck, then shuffle the set-aside cards back.
- Each draw phase draws 2 cards, except the first player's very first one, which draws 1.

"By turn t" means after that turn's draw phase: the first player has then seen 4 + 2t cards,
the second player 5 + 2t.
"""

from drawing.odds import TURNS, OddsTable, cards_seen, odds_table, p_at_least
from drawing.sample import SampleHand, sample_hand

__all__ = ["TURNS", "OddsTable", "SampleHand", "cards_seen", "odds_table", "p_at_least", "sample_hand"]
