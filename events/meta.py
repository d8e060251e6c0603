"""The meta across public events: which generals and factions are played, how often they win,
and how often they reach the top cut. Events count when their organiser makes lists public
(at the top cut or after the event) and at least one round was played."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from datetime import date
from typing import Any

from django.db.models import QuerySet

from catalog.lookup import catalog_index
from catalog.models import Card
from events.models import PUBLIC_LISTS, SWISS, TOP, Event, Match, Player

BAR = 180


def _scaled(part: int, whole: int, scale: int) -> int | None:
    return round(scale * part / whole) if whole else None


@dataclass
class Share:
    key: str  # a general's code or a faction slug ("" for lists without a general)
    label: str
    lists: int = 0
    share: float = 0.0
    wins: int = 0
    matches: int = 0
    in_cut_events: int = 0  # lists in events with a top cut
    reached_cut: int = 0

    # Whole percentages and bar lengths (the charts' bars are BAR units long at 100%), for the
    # page and its charts: templates do no arithmetic.
    @property
    def share_percent(self) -> int:
        return round(100 * self.share)

    @property
    def share_bar(self) -> int:
        return round(BAR * self.share)

    @property
    def win_percent(self) -> int | None:
        return _scaled(self.wins, self.matches, 100)

    @property
    def win_bar(self) -> int | None:
        return _scaled(self.wins, self.matches, BAR)

    @property
    def cut_percent(self) -> int | None:
        return _scaled(self.reached_cut, self.in_cut_events, 100)

    @property
    def cut_bar(self) -> int | None:
        return _scaled(self.reached_cut, self.in_cut_events, BAR)

    @property
    def win_rate(self) -> float | None:
        return self.wins / self.matches if self.matches else None

    @property
    def conversion(self) -> float | None:
        return self.reached_cut / self.in_cut_events if self.in_cut_events else None


def public_events(format_name: str = "", since: date | None = None, until: date | None = None) -> QuerySet[Event]:
    events = Event.objects.filter(lists_public__in=PUBLIC_LISTS, tournament_rounds__isnull=False)
    if format_name:
        events = events.filter(format=format_name)
    if since:
        events = events.filter(deadline__date__gte=since)
    if until:
        events = events.filter(deadline__date__lte=until)
    return events.distinct()


def swiss_tally(event_ids: list[int]) -> tuple[Counter[int], Counter[int]]:
    """Each player's Swiss match wins and matches played (decided matches, byes left out), by
    the player's id: one query."""
    wins: Counter[int] = Counter()
    played: Counter[int] = Counter()
    for a, b, aw, bw in Match.objects.filter(
        round__event__in=event_ids, round__kind=SWISS, a_wins__isnull=False, player_b__isnull=False
    ).values_list("player_a", "player_b", "a_wins", "b_wins"):
        assert b is not None and aw is not None and bw is not None  # the query keeps decided matches
        played[a] += 1
        played[b] += 1
        if aw > bw:
            wins[a] += 1
        elif bw > aw:
            wins[b] += 1
    return wins, played


def meta(events: QuerySet[Event]) -> dict[str, Any]:
    """Generals and factions with their share of lists, match-win rate (Swiss, byes left out) and
    conversion to the top cut. Five queries, however many events."""
    ids = list(events.values_list("pk", flat=True))
    cut_events = set(events.filter(top_cut__gt=0).values_list("pk", flat=True))
    players = list(Player.objects.filter(event__in=ids).values_list("pk", "event", "general"))
    general_of = {pk: general for pk, _event, general in players}
    wins, played = swiss_tally(ids)
    in_cut: set[int] = set()
    for a, b in Match.objects.filter(round__event__in=ids, round__kind=TOP).values_list("player_a", "player_b"):
        in_cut.update(p for p in (a, b) if p)
    faction_of = dict(Card.objects.filter(code__in=set(general_of.values()) - {""}).values_list("code", "faction"))
    index = catalog_index()
    generals: dict[str, Share] = {}
    factions: dict[str, Share] = {}
    for pk, event_id, general in players:
        faction = faction_of.get(general) or ""
        name = index.by_code[general].name if general in index.by_code else ""
        for table, key, label in ((generals, general, name), (factions, faction, faction)):
            row = table.setdefault(key, Share(key, label))
            row.lists += 1
            row.wins += wins[pk]
            row.matches += played[pk]
            if event_id in cut_events:
                row.in_cut_events += 1
                row.reached_cut += pk in in_cut
    total = len(players)
    for table in (generals, factions):
        for row in table.values():
            row.share = row.lists / total if total else 0.0
    return {"events": len(ids), "lists": total, "generals": _by_lists(generals), "factions": _by_lists(factions)}


def _by_lists(rows: dict[str, Share]) -> list[Share]:
    return sorted(rows.values(), key=lambda r: (-r.lists, r.key))
