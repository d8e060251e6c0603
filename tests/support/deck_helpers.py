"""Make decks for tests in one line."""

from __future__ import annotations

from typing import Any

from decks.models import Deck
from decks.services import DeckData, save_deck

# 40 legal cards: 13 YXJQ troops × 3 and 1 tactic.
LEGAL_MAIN = {f"YXJQ-{n:03d}": 3 for n in (3, 4, 5, 6, 7, 8, 9, 12, 13, 14, 15, 16, 17)} | {"YXJQ-001": 1}


def make_deck(
    owner: Any,
    *,
    name: str = "測試牌庫",
    main: dict[str, int] | None = None,
    general: str | None = "WJ-001",
    public: bool = False,
    fmt: str = "standard",
    reinforcements: dict[str, int] | None = None,
    description: str = "",
) -> Deck:
    deck = Deck(owner=owner, public=public)
    return save_deck(
        deck,
        DeckData(name, fmt, general, dict(LEGAL_MAIN if main is None else main), reinforcements or {}, description),
    )
