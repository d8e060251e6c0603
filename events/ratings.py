"""Players' ratings (#53), with the `openskill` package's Plackett–Luce model.

Each confirmed match of a rated event between two players with accounts updates both once, in
the order matches were played: the event's date, then the event, the round and the table. A win
is `ranks=[1, 2]`, a draw `ranks=[1, 1]`; byes, match losses without an opponent (a late entry, a
penalty) and disputed or open matches change nothing. Pages show the `ordinal()` (μ − 3σ: a new
player starts at 0 and rises as the system grows sure of them). Ratings never reset; a season is
a calendar year, and its leaderboard lists the players with at least SEASON_MATCHES rated
matches in it.

All of it runs in the background (events.tasks.update_ratings, under a lease), never in a
request: a result queues a run from its event's date. A run replays every rated match from that
date, starting from each player's rating just before it, so an event entered late, after later
ones, is put in its place; a run from the first date is the recompute from scratch, and gives the
figures the runs one after the other gave (a test). The replay computes outside any lock, then
writes in one short transaction, only if no other run wrote meanwhile (RatingState.generation).
"""

from __future__ import annotations

import datetime
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any

from django.contrib.auth import get_user_model
from django.db import connection, transaction
from django.db.models import Count, F, OuterRef, Q, Subquery
from openskill.models import PlackettLuce

from events.models import AGREED, ORGANISER, Match, PlayerRating, RatingEntry, RatingRun, RatingState, event_day

# The leaderboard of a season lists players with at least this many rated matches in it.
SEASON_MATCHES = 5
_MODEL = PlackettLuce()
_ORDER = ("played_on", "event_id", "round_number", "table")
_NEWEST_FIRST = tuple(f"-{field}" for field in _ORDER)


class Busy(RuntimeError):
    """Another run wrote the ratings while this one computed: compute again."""


@dataclass(frozen=True)
class Played:
    """A rated match, as the replay reads it."""

    match_id: int
    event_id: int
    played_on: datetime.date
    round_number: int
    table: int
    a: int  # the users
    b: int
    a_wins: int
    b_wins: int


def rated_matches(since: datetime.date | None = None) -> Iterator[Played]:
    """The matches that move ratings, in the order played, from `since` on (one query)."""
    day = event_day("round__event__")
    found = (
        Match.objects.filter(
            round__event__rated=True,
            player_b__isnull=False,
            player_a__user__isnull=False,
            player_b__user__isnull=False,
            a_wins__isnull=False,
            b_wins__isnull=False,
            disputed=False,
            decided_by__in=(AGREED, ORGANISER),
        )
        .exclude(player_a__user=F("player_b__user"))
        .annotate(day=day)
    )
    if since is not None:
        found = found.filter(day__gte=since)
    rows = found.order_by("day", "round__event_id", "round__number", "table").values_list(
        "pk", "round__event_id", "day", "round__number", "table", "player_a__user", "player_b__user", "a_wins", "b_wins"
    )
    for pk, event, played_on, number, table, a, b, aw, bw in rows.iterator(chunk_size=5_000):
        assert aw is not None and bw is not None  # the query keeps decided matches
        yield Played(pk, event, played_on, number, table, a, b, aw, bw)


def replay(matches: Iterable[Played], start: dict[int, tuple[float, float]]) -> list[RatingEntry]:
    """Each match's two entries, from the ratings in `start` (by user; a new player has the
    model's defaults), in order. Pure: reads and writes no table."""
    now = dict(start)
    out: list[RatingEntry] = []
    for m in matches:
        a = _MODEL.rating(*now[m.a]) if m.a in now else _MODEL.rating()
        b = _MODEL.rating(*now[m.b]) if m.b in now else _MODEL.rating()
        ranks: list[float]
        if m.a_wins == m.b_wins:
            ranks, outcome = [1.0, 1.0], 0
        else:
            ranks, outcome = ([1.0, 2.0], 1) if m.a_wins > m.b_wins else ([2.0, 1.0], -1)
        [[a_after], [b_after]] = _MODEL.rate([[a], [b]], ranks=ranks)
        for user, after, won in ((m.a, a_after, outcome), (m.b, b_after, -outcome)):
            now[user] = (after.mu, after.sigma)
            out.append(
                RatingEntry(
                    user_id=user,
                    match_id=m.match_id,
                    event_id=m.event_id,
                    played_on=m.played_on,
                    round_number=m.round_number,
                    table=m.table,
                    mu=after.mu,
                    sigma=after.sigma,
                    ordinal=after.ordinal(),
                    outcome=won,
                )
            )
    return out


def _last_entries(users: Iterable[int], before: datetime.date | None = None) -> dict[int, tuple[float, float, float]]:
    """Each user's last entry (before `before`, if given): (mu, sigma, ordinal). One query: for
    each user, the newest of their entries, read through the index on (user, played_on)."""
    entries = RatingEntry.objects.filter(user=OuterRef("pk"))
    if before is not None:
        entries = entries.filter(played_on__lt=before)
    last = entries.order_by(*_NEWEST_FIRST)
    rows = (
        get_user_model()
        .objects.filter(pk__in=list(users))
        .annotate(
            mu=Subquery(last.values("mu")[:1]),
            sigma=Subquery(last.values("sigma")[:1]),
            ordinal=Subquery(last.values("ordinal")[:1]),
        )
        .filter(mu__isnull=False)
        .values_list("pk", "mu", "sigma", "ordinal")
    )
    return {user: (mu, sigma, ordinal) for user, mu, sigma, ordinal in rows}


def _start(since: datetime.date | None, matches: list[Played]) -> dict[int, tuple[float, float]]:
    """The rating just before `since` of each player of the matches replayed: their last entry
    before it. Players not among them keep their entries."""
    if since is None:
        return {}
    players = {m.a for m in matches} | {m.b for m in matches}
    return {user: (mu, sigma) for user, (mu, sigma, _ordinal) in _last_entries(players, since).items()}


def _insert(entries: list[RatingEntry]) -> None:
    """The entries written: by COPY on PostgreSQL (a recompute from scratch writes two million
    rows: bulk INSERTs took most of its time, bench/scene.py), else in batches."""
    if connection.vendor != "postgresql":
        RatingEntry.objects.bulk_create(entries, batch_size=5_000)
        return
    fields = [f for f in RatingEntry._meta.concrete_fields if not f.primary_key]
    columns = ", ".join(connection.ops.quote_name(f.column) for f in fields)
    table = connection.ops.quote_name(RatingEntry._meta.db_table)
    with connection.cursor() as cursor, cursor.cursor.copy(f"COPY {table} ({columns}) FROM STDIN") as copy:
        for entry in entries:
            copy.write_row([getattr(entry, f.attname) for f in fields])


def _generation() -> int:
    state, _created = RatingState.objects.get_or_create(pk=1)
    return state.generation


def recompute(since: datetime.date | None = None) -> int:
    """Every rating from `since` on (None: from scratch) computed again and written; returns the
    matches replayed. Raises Busy if another run wrote meanwhile."""
    seen = _generation()
    matches = list(rated_matches(since))
    entries = replay(matches, _start(since, matches))
    with transaction.atomic():
        state = RatingState.objects.select_for_update().get(pk=1)
        if state.generation != seen:
            raise Busy
        old = RatingEntry.objects.all() if since is None else RatingEntry.objects.filter(played_on__gte=since)
        touched = set(old.values_list("user_id", flat=True).distinct()) | {e.user_id for e in entries}
        old.delete()
        _insert(entries)
        _write_current(touched)
        state.generation += 1
        state.save(update_fields=["generation"])
    return len(entries) // 2


def _write_current(users: set[int]) -> None:
    """The players' ratings now, from their last entries; a player left without one has none."""
    if not users:
        return
    latest = _last_entries(users)
    counts = dict(
        RatingEntry.objects.filter(user__in=users).values("user").annotate(n=Count("pk")).values_list("user", "n")
    )
    rows = [
        PlayerRating(user_id=user, mu=mu, sigma=sigma, ordinal=ordinal, matches=counts.get(user, 0))
        for user, (mu, sigma, ordinal) in latest.items()
    ]
    PlayerRating.objects.filter(user__in=users).exclude(user__in=[r.user_id for r in rows]).delete()
    PlayerRating.objects.bulk_create(
        rows, update_conflicts=True, unique_fields=["user"], update_fields=["mu", "sigma", "ordinal", "matches"]
    )


# --- the background run ------------------------------------------------------------------------


def queue_from(day: datetime.date) -> RatingRun | None:
    """Ask for the ratings from `day` on: the queued run goes back to it (one run queued at a
    time); None when a queued run already covers it. The caller enqueues the task on commit."""
    with transaction.atomic():
        queued = RatingRun.objects.select_for_update().filter(status=RatingRun.Status.QUEUED).order_by("pk").first()
        if queued is not None:
            if day < queued.from_date:
                queued.from_date = day
                queued.save(update_fields=["from_date"])
            return None
        return RatingRun.objects.create(from_date=day)


# --- what pages read ---------------------------------------------------------------------------


def seasons() -> list[int]:
    """The years with rated matches, newest first (one query)."""
    years = RatingEntry.objects.dates("played_on", "year", order="DESC")
    return [d.year for d in years]


def season_table(year: int, region: str = "") -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """The season's leaderboard: players with at least SEASON_MATCHES rated matches in it, by their
    rating at the season's last match, highest first; then the others, apart. Players who left
    the leaderboard are not listed. `region`: only players whose profile says they play there
    (people.regions). Three queries."""
    in_year = RatingEntry.objects.filter(played_on__year=year)
    if region:
        in_year = in_year.filter(user__profile__region=region)
    last = in_year.filter(user=OuterRef("user")).order_by(*_NEWEST_FIRST).values("pk")[:1]
    counts = dict(in_year.values("user").annotate(n=Count("pk")).values_list("user", "n"))
    rows = (
        in_year.filter(pk=Subquery(last))
        .exclude(Q(user__profile__on_leaderboard=False) | Q(user__is_active=False))
        .values("user__username", "user_id", "ordinal", "mu", "sigma")
    )
    players = [
        {
            "username": r["user__username"],
            "rating": r["ordinal"],
            "mu": r["mu"],
            "sigma": r["sigma"],
            "matches": counts.get(r["user_id"], 0),
        }
        for r in rows
    ]
    players.sort(key=lambda p: (-p["rating"], p["username"]))
    ranked = [p for p in players if p["matches"] >= SEASON_MATCHES]
    for place, player in enumerate(ranked, start=1):
        player["place"] = place
    return ranked, [p for p in players if p["matches"] < SEASON_MATCHES]


def history(user: Any, last: int | None = None) -> list[RatingEntry]:
    """A player's entries (the `last` ones), oldest first (one query)."""
    newest_first = RatingEntry.objects.filter(user=user).order_by(*_NEWEST_FIRST)
    return list(reversed(newest_first[:last] if last else newest_first))
