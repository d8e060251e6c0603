"""Plain data in and out of the rules: cards, decks, problems and verdicts."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

# Kinds as the glossary names them.
GENERAL = "general"
AWAKENED_GENERAL = "awakened_general"
VICE_GENERAL = "vice_general"
TROOP = "troop"
TACTIC = "tactic"
REINFORCEMENT = "reinforcement"
GENERAL_KINDS = frozenset({GENERAL, AWAKENED_GENERAL, VICE_GENERAL})
# The general a player chooses: a general or an awakened general (vice generals come with
# 詭謀官渡's own rules and are not a deck's general).
CHOOSABLE_GENERAL_KINDS = frozenset({GENERAL, AWAKENED_GENERAL})
DECK_KINDS = frozenset({TROOP, TACTIC})
# Kinds with power and health on the field (troops, and the reinforcements that join them).
UNIT_KINDS = frozenset({TROOP, REINFORCEMENT})
# The order a deck is shown in: what is drawn first, then the general, then the reinforcements.
KIND_ORDER = (TROOP, TACTIC, GENERAL, AWAKENED_GENERAL, VICE_GENERAL, REINFORCEMENT)

ERROR = "error"
WARNING = "warning"

_SPACES = re.compile(r"[\s\u3000]+")


@dataclass(frozen=True, slots=True)
class CardFacts:
    """What the rules need to know of a card. `name_key` makes names in both scripts one name:
    the caller computes it (the catalogue uses opencc); without it, the name minus spaces is used."""

    code: str
    name: str
    kind: str
    name_key: str = ""
    cost: int | None = None
    troop_class: str | None = None
    speed: str | None = None
    element: str | None = None
    # The set the card was printed in (`YXJQ`, `LSHJ`, `GMGD`, `WD`), None when unknown: a format
    # may allow only some sets.
    card_set: str | None = None

    @property
    def same_name_key(self) -> str:
        return self.name_key or _SPACES.sub("", self.name)


@dataclass(frozen=True, slots=True)
class Entry:
    card: CardFacts
    count: int = 1
    line: int | None = None  # 1-based line of the deck list it came from, when parsed from text


@dataclass(slots=True)
class Deck:
    generals: list[Entry] = field(default_factory=list)
    main: list[Entry] = field(default_factory=list)
    reinforcements: list[Entry] = field(default_factory=list)

    @property
    def general(self) -> CardFacts | None:
        return self.generals[0].card if self.generals else None

    def main_count(self) -> int:
        return sum(e.count for e in self.main if 1 <= e.count <= MAX_COUNT)

    def totals(self) -> dict[str, dict[str, int]]:
        """{section: {code: count}}: what a deck holds, whatever the order or the line split."""
        out: dict[str, dict[str, int]] = {}
        for section in ("generals", "main", "reinforcements"):
            counts: dict[str, int] = {}
            for entry in getattr(self, section):
                counts[entry.card.code] = counts.get(entry.card.code, 0) + entry.count
            out[section] = counts
        return out


# A count outside 1..MAX_COUNT is `invalid_count`: no deck holds 100 copies of a card.
MAX_COUNT = 99
# Problems an answer lists (the API, the checker's page; `checkdeck --json` lists all): the
# verdict keeps them all and says how many more there are. Problems of one reason are one.
MAX_LISTED_PROBLEMS = 50


@dataclass(frozen=True, slots=True)
class Problem:
    code: str
    severity: str
    message: str  # Chinese (Traditional): the printed language of the game
    message_en: str
    cards: tuple[str, ...] = ()
    lines: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class Verdict:
    legal: bool
    format: str
    main_deck_count: int
    general: str | None
    problems: tuple[Problem, ...]

    @property
    def errors(self) -> tuple[Problem, ...]:
        return tuple(p for p in self.problems if p.severity == ERROR)

    @property
    def warnings(self) -> tuple[Problem, ...]:
        return tuple(p for p in self.problems if p.severity == WARNING)

    @property
    def bad_cards(self) -> frozenset[str]:
        """Codes of the cards that an error names: what a deck view marks."""
        return frozenset(code for p in self.problems if p.severity == ERROR for code in p.cards)
