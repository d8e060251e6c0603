"""What the community plays with each card (#52), from the public decks of the standard format:
how many decks play it and what share of all of them that is (the baseline: troops and tactics
belong to no faction, so any card may go in any deck), the average copies, the decks made each
month that play it, the cards most often beside it, and its synergy with each general (its share
of that general's decks minus its share of all decks: EDHREC's idea on this game's baseline).

Computed for every card at once by a background task (decks.tasks.recompute_card_stats), batched
after deck saves, and stored in CardStats: a page reads one row. The decks are a matrix of decks
by cards (copies), so every figure is a sum or a product of it, in numpy, in seconds at 100,000
decks."""

from __future__ import annotations

from datetime import datetime
from typing import Any

import numpy as np
from django.db import transaction
from django.utils import timezone

from catalog.lookup import catalog_index
from catalog.models import Card
from decks.models import GENERALS_LISTED, MAIN, PLAYED_WITH, TOP_CARDS, CardStats, Deck, DeckEntry
from groups import formats

FORMAT = "standard"
# A general's share rests on its decks: under this many, its synergy is noise and not listed.
GENERAL_DECKS_AT_LEAST = 5
MONTHS = 12
# The copies a deck plays of one card that the average deck considers (the standard limit is 3).
MOST_COPIES = 9


def _months(now: datetime) -> list[tuple[int, int]]:
    """The last MONTHS months, oldest first, as (year, month)."""
    year, month = now.year, now.month
    out = []
    for _ in range(MONTHS):
        out.append((year, month))
        year, month = (year, month - 1) if month > 1 else (year - 1, 12)
    return out[::-1]


def compute(now: datetime | None = None) -> int:
    """Every card's figures written again, from the decks as they are now; returns how many
    public decks of the format they rest on."""
    now = now or timezone.now()
    decks = list(Deck.objects.listed().filter(format=FORMAT).values_list("pk", "general_id", "created"))
    code_by_pk = dict(Card.objects.order_by("pk").values_list("pk", "code"))
    card_pks = list(code_by_pk)
    row = {pk: i for i, (pk, _general, _made) in enumerate(decks)}
    column = {pk: j for j, pk in enumerate(card_pks)}
    copies = np.zeros((len(decks), len(card_pks)), dtype=np.float32)
    entries = DeckEntry.objects.filter(section=MAIN, deck__in=Deck.objects.listed().filter(format=FORMAT))
    for deck_id, card_id, count in entries.values_list("deck_id", "card_id", "count").iterator(chunk_size=20_000):
        copies[row[deck_id], column[card_id]] = count
    plays = (copies > 0).astype(np.float32)
    total = len(decks)
    deck_count = plays.sum(axis=0)
    share = deck_count / total if total else np.zeros_like(deck_count)
    together = plays.T @ plays  # [card, other]: decks playing both
    # Each general's decks as a one-hot matrix: its decks playing each card, in one product.
    generals = sorted({g for _pk, g, _made in decks if g is not None})
    by_general = np.zeros((len(decks), len(generals)), dtype=np.float32)
    general_at = {g: k for k, g in enumerate(generals)}
    for i, (_pk, general, _made) in enumerate(decks):
        if general is not None:
            by_general[i, general_at[general]] = 1
    general_decks = by_general.sum(axis=0)
    general_plays = by_general.T @ plays  # [general, card]
    months = _months(now)
    month_at = {m: k for k, m in enumerate(months)}
    by_month = np.zeros((len(decks), len(months)), dtype=np.float32)
    for i, (_pk, _general, made) in enumerate(decks):
        k = month_at.get((made.year, made.month))
        if k is not None:
            by_month[i, k] = 1
    month_decks = by_month.sum(axis=0)
    month_plays = by_month.T @ plays  # [month, card]
    # Each general's decks that play each card at 1, 2… copies: the most common count is the
    # one its "average deck" takes.
    at_count = np.stack([by_general.T @ (copies == c).astype(np.float32) for c in range(1, MOST_COPIES + 1)])
    common_count = at_count.argmax(axis=0) + 1  # [general, card]
    general_rows = {
        general: _general_figures(k, general_plays, general_decks, common_count, share, card_pks, code_by_pk)
        for k, general in enumerate(generals)
        if general_decks[k] >= GENERAL_DECKS_AT_LEAST
    }
    stats = []
    for j, card_pk in enumerate(card_pks):
        stats.append(
            CardStats(
                card_id=card_pk,
                deck_count=int(deck_count[j]),
                decks_total=total,
                share=float(share[j]),
                average_copies=float(copies[:, j].sum() / deck_count[j]) if deck_count[j] else None,
                by_month=[
                    {
                        "month": f"{year:04d}-{month:02d}",
                        "deck_count": int(month_plays[k, j]),
                        "share": float(month_plays[k, j] / month_decks[k]) if month_decks[k] else 0.0,
                    }
                    for k, (year, month) in enumerate(months)
                ],
                played_with=_played_with(j, together, deck_count, card_pks, code_by_pk),
                synergy=_synergy(j, share, general_plays, general_decks, generals, code_by_pk),
                top_cards=general_rows.get(card_pk, ([], []))[0],
                average_deck=general_rows.get(card_pk, ([], []))[1],
                computed=now,
            )
        )
    # Written over in place (an upsert by card): two runs at once each write whole rows, and a
    # page reads the one or the other, never a card without figures.
    fields = [f.name for f in CardStats._meta.concrete_fields if f.name not in ("card", *CardStats.FROM_EVENTS)]
    with transaction.atomic():
        CardStats.objects.bulk_create(stats, update_conflicts=True, unique_fields=["card"], update_fields=fields)
    return total


def _played_with(
    j: int, together: Any, deck_count: Any, card_pks: list[int], code_by_pk: dict[int, str]
) -> list[dict[str, Any]]:
    if not deck_count[j]:
        return []
    both = together[j].copy()
    both[j] = 0
    order = [k for k in np.argsort(-both, kind="stable") if both[k] > 0][: int(PLAYED_WITH)]
    return [
        {"card": code_by_pk[card_pks[k]], "deck_count": int(both[k]), "share": float(both[k] / deck_count[j])}
        for k in order
    ]


def _synergy(
    j: int, share: Any, general_plays: Any, general_decks: Any, generals: list[int], code_by_pk: dict[int, str]
) -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = []
    for k, general in enumerate(generals):
        if general_decks[k] < GENERAL_DECKS_AT_LEAST or not general_plays[k, j]:
            continue
        of_general = float(general_plays[k, j] / general_decks[k])
        rows.append({"general": code_by_pk[general], "share": of_general, "synergy": of_general - float(share[j])})
    rows.sort(key=lambda r: (-float(r["synergy"]), str(r["general"])))
    return rows[: int(GENERALS_LISTED)]


def _general_figures(
    k: int,
    general_plays: Any,
    general_decks: Any,
    common_count: Any,
    share: Any,
    card_pks: list[int],
    code_by_pk: dict[int, str],
) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """A general's most played cards (with their synergy), and its average deck: the most played
    cards at their most common counts, name by name within the format's copy limits, until the
    deck holds the format's least number of cards; none when its decks do not reach it."""
    of_general = general_plays[k] / general_decks[k]
    order = [j for j in np.argsort(-of_general, kind="stable") if of_general[j] > 0]
    top = [
        {"card": code_by_pk[card_pks[j]], "share": float(of_general[j]), "synergy": float(of_general[j] - share[j])}
        for j in order[: int(TOP_CARDS)]
    ]
    fmt = formats.resolve(FORMAT)
    index = catalog_index()
    used: dict[str, int] = {}
    deck: list[dict[str, Any]] = []
    total = 0
    for j in order:
        if total >= fmt.min_cards:
            break
        facts = index.by_code[code_by_pk[card_pks[j]]]
        if fmt.is_banned(facts) or not fmt.allows_set(facts):
            continue
        room = fmt.limit_for([facts]) - used.get(facts.same_name_key, 0)
        count = min(int(common_count[k, j]), room, fmt.max_cards - total)
        if count <= 0:
            continue
        used[facts.same_name_key] = used.get(facts.same_name_key, 0) + count
        deck.append({"card": facts.code, "count": count})
        total += count
    return top, deck if total >= fmt.min_cards else []
