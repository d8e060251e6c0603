"""The match-win rate of the lists that play each card (#52), from the public events (those
events/meta.py counts: lists public, rounds played): of the Swiss matches played by lists that
play the card (byes left out), the share they won. A rate resting on fewer than MIN_MATCHES
matches is noise: it is stored with its count, and the card page and the API leave it out
(decks.models.CardStats.win_rate).

Computed for every card at once by a background task (events.tasks.recompute_card_wins), batched
after results are entered, and written into the cards' figures (decks.models.CardStats): a card
page reads one row. Each list is read once per run (rules_check's parser, through the catalogue's
lookup)."""

from __future__ import annotations

from collections import Counter

from django.db import transaction
from django.db.models import Count, Q
from django.utils import timezone

from catalog.lookup import catalog_index
from catalog.models import Card
from decks.models import CardStats
from events import meta
from events.models import EventDeckName, Player
from rules_check.decklist import DeckListError, parse


def event_deck_counts() -> tuple[Counter[str], Counter[str]]:
    """The event decks playing each card name, and those of them in a top 8 (one query)."""
    decks: Counter[str] = Counter()
    top8: Counter[str] = Counter()
    rows = EventDeckName.objects.values("name_key").annotate(
        n=Count("pk"), top=Count("pk", filter=Q(event_deck__placing__lte=8))
    )
    for row in rows:
        decks[row["name_key"]], top8[row["name_key"]] = row["n"], row["top"]
    return decks, top8


def compute() -> int:
    """Every card's match count and wins written again; returns the matches counted (each
    match counted once per side)."""
    ids = list(meta.public_events().values_list("pk", flat=True))
    wins, played = meta.swiss_tally(ids)
    lookup = catalog_index().lookup
    matches: Counter[str] = Counter()
    won: Counter[str] = Counter()
    players = Player.objects.filter(event__in=ids, submission__isnull=False).values_list("pk", "submission__text")
    for player, text in players.iterator(chunk_size=2_000):
        if not played[player]:
            continue
        try:
            parsed = parse(text, lookup)
        except DeckListError:
            continue
        for code in {entry.card.code for entry in parsed.deck.main if entry.count > 0}:
            matches[code] += played[player]
            won[code] += wins[player]
    decks, top8 = event_deck_counts()
    now = timezone.now()
    by_code = catalog_index().by_code
    rows = []
    for pk, code in Card.objects.values_list("pk", "code"):
        key = by_code[code].name_key if code in by_code else ""
        rows.append(
            CardStats(
                card_id=pk,
                matches=matches[code],
                match_wins=won[code],
                event_decks=decks[key],
                event_top8=top8[key],
                computed=now,
            )
        )
    # Only these two figures are written over: the deck figures are decks.card_stats' own.
    with transaction.atomic():
        CardStats.objects.bulk_create(
            rows, update_conflicts=True, unique_fields=["card"], update_fields=list(CardStats.FROM_EVENTS)
        )
    return sum(played.values())
