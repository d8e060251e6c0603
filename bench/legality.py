"""Speed of the legality check and the deck-list parser, beside a bare Counter (the floor).

    .venv/bin/python bench/legality.py

Prints JSON. Goals: checking a resolved 60-card deck costs under 10x a bare
`collections.Counter` over the same entries, and a 60-line list parses and checks in under 0.5 ms.
Cards come from the real data file; name keys as the catalogue computes them.
"""

from __future__ import annotations

import json
import sys
import timeit
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[0] = str(ROOT)  # the project, not bench/ (whose http.py would shadow the standard library)

from catalog import textkeys  # noqa: E402  (opencc and pypinyin only: no Django)
from rules_check import CardFacts, Deck, Entry, check, get_format, normalize_code, parse  # noqa: E402


def load_cards() -> list[CardFacts]:
    data = json.loads((ROOT / "catalog" / "data" / "cards.json").read_text(encoding="utf-8"))
    return [
        CardFacts(c["code"], c["name"], c["kind"], textkeys.name_key(c["name"]), cost=c["cost"], speed=c["speed"])
        for c in data["cards"]
    ]


def best_per_call(func, number: int) -> float:  # type: ignore[no-untyped-def]
    return min(timeit.repeat(func, number=number, repeat=5)) / number


def main() -> None:
    cards = load_cards()
    by_code = {c.code: c for c in cards}
    by_name: dict[str, CardFacts] = {}
    for c in cards:
        by_name.setdefault(c.name_key, c)

    def lookup(text: str) -> CardFacts | None:
        code = normalize_code(text)
        return by_code.get(code) if code else by_name.get(textkeys.name_key(text))

    deck_cards = [c for c in cards if c.kind in ("troop", "tactic")][:20]
    general = by_code["WJ-001"]
    deck = Deck(generals=[Entry(general)], main=[Entry(c, 3) for c in deck_cards])
    fmt = get_format("standard")
    assert check(deck, fmt).legal

    # The same 60 cards as 60 lines of text, one card a line, half by name and half by code.
    lines = ["武將: 劉備"] + [f"1 {c.name if i % 2 else c.code}" for c in deck_cards for i in range(3)]
    text = "\n".join(lines)
    assert check(parse(text, lookup).deck, fmt).legal

    def floor() -> Counter[str]:
        counts: Counter[str] = Counter()
        for entry in deck.main:
            counts[entry.card.same_name_key] += entry.count
        return counts

    number = 2000
    floor_s = best_per_call(floor, number)
    check_s = best_per_call(lambda: check(deck, fmt), number)
    parse_check_s = best_per_call(lambda: check(parse(text, lookup).deck, fmt), 500)
    report = {
        "resolved_60_card_deck": {
            "checks_per_second": round(1 / check_s),
            "check_us": round(check_s * 1e6, 2),
            "counter_floor_us": round(floor_s * 1e6, 2),
            "ratio_to_floor": round(check_s / floor_s, 2),
            "goal_ratio_under": 10,
        },
        "text_list_60_lines": {
            "parse_and_check_ms": round(parse_check_s * 1e3, 4),
            "goal_ms_under": 0.5,
        },
    }
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
