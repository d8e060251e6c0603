"""Turn a verdict into what the pages show: lines marked, deck grouped by kind."""

from __future__ import annotations

from typing import Any

from rules_check import ParsedList, Verdict
from rules_check.model import KIND_ORDER, Entry

# How every deck view orders its groups (check page, deck page, registration sheets).


def group_by_kind(entries: list[Entry]) -> list[dict[str, Any]]:
    groups: dict[str, list[Entry]] = {}
    for entry in entries:
        groups.setdefault(entry.card.kind, []).append(entry)
    return [
        {"kind": kind, "entries": groups[kind], "total": sum(e.count for e in groups[kind])}
        for kind in KIND_ORDER
        if kind in groups
    ]


# Lines of a pasted list the checker shows again, marked: a deck list has a few dozen; 64 KiB of
# one-character lines would otherwise come back as a page fourteen times its size.
MAX_LISTING_LINES = 200


def present_verdict(text: str, parsed: ParsedList, verdict: Verdict) -> dict[str, Any]:
    bad_lines = {line for p in verdict.problems if p.severity == "error" for line in p.lines}
    lines = text.splitlines()
    listing = [
        {"number": n, "text": line, "bad": n in bad_lines} for n, line in enumerate(lines[:MAX_LISTING_LINES], start=1)
    ]
    return {
        "verdict": verdict,
        "parsed": parsed,
        "listing": listing,
        "listing_omitted": len(lines) - len(listing),
        "groups": group_by_kind(parsed.deck.main),
        "reinforcements": parsed.deck.reinforcements,
        "bad_cards": verdict.bad_cards,
    }
