"""The league's tables, counted in the database: a fixed number of queries however many games."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.contrib.auth import get_user_model
from django.db.models import Count, F, Q

from catalog.lookup import catalog_index
from catalog.models import Card
from decks.models import Deck
from events.models import Match, event_day
from league.models import Game, Result, Season


@dataclass
class Record:
    """Games, wins, draws and losses of one player, general or deck (confirmed games only)."""

    key: Any
    label: str = ""
    games: int = 0
    wins: int = 0
    draws: int = 0

    @property
    def losses(self) -> int:
        return self.games - self.wins - self.draws

    @property
    def win_rate(self) -> float | None:
        return self.wins / self.games if self.games else None

    @property
    def win_percent(self) -> int | None:
        rate = self.win_rate
        return None if rate is None else round(rate * 100)


def _records(games: Any, field: str) -> dict[Any, Record]:
    """Per value of `field` ("player", "general", "deck"): one grouped query for each side."""
    out: dict[Any, Record] = {}
    for side, won in (("a", Result.A), ("b", Result.B)):
        column = f"{field}_{side}"
        rows = (
            games.exclude(**{f"{column}__isnull": True})
            .values(column)
            .annotate(n=Count("pk"), w=Count("pk", filter=Q(result=won)), d=Count("pk", filter=Q(result=Result.DRAW)))
            .order_by()
        )
        for row in rows:
            record = out.setdefault(row[column], Record(row[column]))
            record.games += row["n"]
            record.wins += row["w"]
            record.draws += row["d"]
    return out


# What an event's match says of each side, for the league's three tables.
EVENT_COLUMNS = {
    "player": "player_{side}__user",
    "general": "player_{side}__general",
    "deck": "player_{side}__submission__deck",
}


def _event_records(
    group: Any, field: str, members: list[int], into: dict[Any, Record], season: Season | None = None
) -> None:
    """The matches of the group's events with a result (byes and match losses are no game), per
    member's side: a match is one game of the league, won by whoever won more of its games. One
    grouped query for each side."""
    matches = Match.objects.filter(round__event__group=group, player_b__isnull=False, a_wins__isnull=False)
    if season is not None:  # the event's date: its start, else its list deadline's day
        matches = matches.annotate(day=event_day("round__event__")).filter(
            day__gte=season.starts_on, day__lte=season.ends_on
        )
    for side, other in (("a", "b"), ("b", "a")):
        column = EVENT_COLUMNS[field].format(side=side)
        rows = (
            matches.filter(**{f"player_{side}__user__in": members})
            .exclude(**{f"{column}__isnull": True})
            .values(column)
            .annotate(
                n=Count("pk"),
                w=Count("pk", filter=Q(**{f"{side}_wins__gt": F(f"{other}_wins")})),
                d=Count("pk", filter=Q(a_wins=F("b_wins"))),
            )
            .order_by()
        )
        for row in rows:
            key = row[column]
            if field == "general":  # the event keeps the general's code
                key = catalog_index().pk_by_code.get(key)
                if key is None:
                    continue
            record = into.setdefault(key, Record(key))
            record.games += row["n"]
            record.wins += row["w"]
            record.draws += row["d"]


def _ranked(records: dict[Any, Record]) -> list[Record]:
    return sorted(records.values(), key=lambda r: (-r.wins, -(r.win_rate or 0), -r.games, r.label))


@dataclass
class League:
    players: list[Record]
    generals: list[Record]
    decks: list[Record]


def league(group: Any, usernames: dict[int, str], reader: Any, season: Season | None = None) -> League:
    """The group's tables: per player (labelled from `usernames`, id → name, which the caller
    read with the members), per general and per deck, from the games logged and confirmed and
    from the matches of the group's events; of one season (the games and events of its dates)
    or of all time. A deck the reader may not read (a player's private deck) is left out of the
    decks' table: its name is its owner's. Fourteen queries."""
    games = Game.objects.filter(group=group).confirmed()
    if season is not None:
        games = games.filter(played_on__gte=season.starts_on, played_on__lte=season.ends_on)
    members = list(usernames)
    players = _records(games, "player")
    _event_records(group, "player", members, players, season)
    # A player who left is still in the table, under the name read here.
    gone = [pk for pk in players if pk not in usernames]
    names = {**usernames, **dict(get_user_model().objects.filter(pk__in=gone).values_list("pk", "username"))}
    for pk, record in players.items():
        record.label = names.get(pk, "?")
    generals = _records(games, "general")
    _event_records(group, "general", members, generals, season)
    for card in Card.objects.filter(pk__in=list(generals)).only("pk", "name"):
        generals[card.pk].label = card.name
    decks = _records(games, "deck")
    _event_records(group, "deck", members, decks, season)
    shown = {}
    for deck in Deck.objects.visible_to(reader).filter(pk__in=list(decks)).only("pk", "name"):
        decks[deck.pk].label = deck.name
        shown[deck.pk] = decks[deck.pk]
    return League(_ranked(players), _ranked(generals), _ranked(shown))
