"""The legality check: a deck and a format in, a verdict with EVERY problem out."""

from __future__ import annotations

from typing import Any

from rules_check.formats import Format
from rules_check.messages import problem
from rules_check.model import (
    CHOOSABLE_GENERAL_KINDS,
    GENERAL_KINDS,
    MAX_COUNT,
    REINFORCEMENT,
    CardFacts,
    Deck,
    Entry,
    Problem,
    Verdict,
)


def check(deck: Deck, fmt: Format, earlier: list[Problem] | tuple[Problem, ...] = ()) -> Verdict:
    """Check `deck` against `fmt`. `earlier` are problems already found (by the parser: unknown
    cards, unreadable lines); they are kept, first, and make the deck illegal too."""
    problems: list[Problem] = list(earlier)
    fmt_words: dict[str, Any] = {"format": fmt.label, "format_en": fmt.label_en}

    problems += _count_problems(deck)
    problems += _general_problems(deck)

    for entry in deck.main:
        card = entry.card
        if card.kind == REINFORCEMENT:
            problems.append(problem("reinforcement_in_deck", cards=(card.code,), lines=(entry.line,), name=card.name))
        elif card.kind in GENERAL_KINDS:
            problems.append(problem("general_in_deck", cards=(card.code,), lines=(entry.line,), name=card.name))

    for entry in deck.reinforcements:
        if entry.card.kind != REINFORCEMENT:
            problems.append(
                problem("not_a_reinforcement", cards=(entry.card.code,), lines=(entry.line,), name=entry.card.name)
            )

    problems += _copy_problems(deck.main, fmt)

    problems += _set_problems(deck, fmt, fmt_words)

    for entry in [*deck.generals, *deck.main]:
        if fmt.is_banned(entry.card):
            problems.append(
                problem("banned_card", cards=(entry.card.code,), lines=(entry.line,), name=entry.card.name, **fmt_words)
            )

    count = deck.main_count()
    if count < fmt.min_cards:
        problems.append(problem("too_few_cards", count=count, min=fmt.min_cards, **fmt_words))
    elif count > fmt.max_cards:
        problems.append(problem("too_many_cards", count=count, max=fmt.max_cards, **fmt_words))

    return Verdict(
        legal=not any(p.severity == "error" for p in problems),
        format=fmt.name,
        main_deck_count=count,
        general=deck.general.code if deck.general else None,
        problems=tuple(problems),
    )


def _count_problems(deck: Deck) -> list[Problem]:
    return [
        problem(
            "invalid_count", cards=(e.card.code,), lines=(e.line,), name=e.card.name, count=e.count, max_count=MAX_COUNT
        )
        for e in [*deck.generals, *deck.main, *deck.reinforcements]
        if not 1 <= e.count <= MAX_COUNT
    ]


def _general_problems(deck: Deck) -> list[Problem]:
    problems = [
        problem("not_a_general", cards=(e.card.code,), lines=(e.line,), name=e.card.name)
        for e in deck.generals
        if e.card.kind not in CHOOSABLE_GENERAL_KINDS
    ]
    chosen = sum(e.count for e in deck.generals if 1 <= e.count <= MAX_COUNT)
    if chosen > 1:
        cards = tuple(e.card.code for e in deck.generals)
        problems.append(
            problem("too_many_generals", cards=cards, lines=tuple(e.line for e in deck.generals), count=chosen)
        )
    elif not deck.generals:
        problems.append(problem("no_general"))
    return problems


def _set_problems(deck: Deck, fmt: Format, fmt_words: dict[str, Any]) -> list[Problem]:
    """The general and the deck's cards from sets the format does not allow (reinforcements are
    the public pile, no one's deck)."""
    if not fmt.sets:
        return []
    sets = sorted(fmt.sets)
    return [
        problem(
            "set_not_allowed",
            cards=(entry.card.code,),
            lines=(entry.line,),
            name=entry.card.name,
            sets="、".join(sets),
            sets_en=", ".join(sets),
            **fmt_words,
        )
        for entry in [*deck.generals, *deck.main]
        if not fmt.allows_set(entry.card)
    ]


def _copy_problems(main: list[Entry], fmt: Format) -> list[Problem]:
    """Copies are counted by NAME, across codes and scripts: 3 新兵 + 1 YXJQ-003 is 4 新兵."""
    by_name: dict[str, list[Entry]] = {}
    for entry in main:
        if 1 <= entry.count <= MAX_COUNT:
            by_name.setdefault(entry.card.same_name_key, []).append(entry)
    problems = []
    for entries in by_name.values():
        total = sum(e.count for e in entries)
        cards: list[CardFacts] = [e.card for e in entries]
        limit = fmt.limit_for(cards)
        if total > limit:
            problems.append(
                problem(
                    "too_many_copies",
                    cards=tuple(c.code for c in cards),
                    lines=tuple(e.line for e in entries),
                    name=cards[0].name,
                    count=total,
                    limit=limit,
                )
            )
    return problems
