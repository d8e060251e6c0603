"""The scene at #53's size on PostgreSQL: `make bench-scene`.

    .venv/bin/python bench/scene.py [--requests 300]

A throw-away PostgreSQL database (BENCH_SCENE_URL, by default zongheng_bench_scene on 127.0.0.1)
is migrated and loaded with the real catalogue. Then, written with COPY: 10,000 accounts (each
with a region), 10,000 listed and rated events over two years (half past, half to come, a player
cap of 16 on every other one), 200,000 event entries (20 players with accounts each), 1,000,000
matches (20 rounds of 10 tables at each of the 5,000 past events), 50,000 registrations at the
events to come, and an event deck of each past event's winner.

Then, in this process:
- every rating computed from scratch, as the background task does it (events.ratings.recompute),
  with openskill's share of the time; then one finished event's incremental update (from its day);
- the directory (`/events/`, a region, a month), a listed event's page, a profile with its
  events and rating, the iCal feed and `GET /api/events/?listed=1`, each `--requests` times
  through Django's test client: p50, p99 and the queries each costs.

Prints JSON; goals: p99 under 50 ms for each page, a recompute from scratch under 120 s, an
incremental update under 2 s.
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[0] = str(ROOT)  # the project, not bench/ (whose http.py would shadow the standard library)

import argparse  # noqa: E402
import json  # noqa: E402
import os  # noqa: E402
import random  # noqa: E402
import statistics  # noqa: E402
import time  # noqa: E402
from datetime import UTC, date, datetime, timedelta  # noqa: E402
from typing import Any  # noqa: E402

from bench.server import environment, fresh_postgres  # noqa: E402

PG_URL = os.environ.get("BENCH_SCENE_URL", "postgres://postgres@127.0.0.1:5432/zongheng_bench_scene")
USERS = 10_000
EVENTS = 10_000
PLAYERS_PER_EVENT = 20
ROUNDS = 20  # at each past event: 5,000 events × 20 rounds × 10 tables = 1,000,000 matches
REGISTERED_PER_UPCOMING = 10
GOAL_P99_MS = 50.0
GOAL_RECOMPUTE_S = 120.0
GOAL_INCREMENT_S = 2.0


def setup_django() -> None:
    os.environ.update(environment(PG_URL))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "zongheng.settings")
    import django

    django.setup()


def build(rng: random.Random) -> dict[str, Any]:
    """Every row, by COPY (bench.scale.copy_rows); returns what the pages read."""
    from django.contrib.auth.hashers import make_password
    from django.contrib.auth.models import User

    from bench.scale import copy_rows
    from events.models import Event, EventDeck, Match, Player, Registration, Round
    from people import regions
    from people.models import Profile

    slugs = list(regions.regions())
    password = make_password("bench-password-long-1")
    now = datetime.now(UTC)
    copy_rows(
        User,
        (
            {"id": u, "username": f"player{u:05d}", "password": password, "is_active": True, "date_joined": now}
            for u in range(1, USERS + 1)
        ),
    )
    copy_rows(Profile, ({"user_id": u, "region": slugs[u % len(slugs)]} for u in range(1, USERS + 1)))
    today = date.today()
    days = [today + timedelta(days=(e * 730 // EVENTS) - 365) for e in range(EVENTS)]
    copy_rows(
        Event,
        (
            {
                "id": e + 1,
                "organiser_id": 1 + e % USERS,
                "name": f"公開賽 {e}",
                "format": "standard",
                "deadline": datetime.combine(days[e], datetime.min.time(), UTC),
                "starts_at": datetime.combine(days[e], datetime.min.time(), UTC) + timedelta(hours=5),
                "visibility": "listed",
                "city": f"城市{e % 50}",
                "region": slugs[e % len(slugs)],
                "cap": 16 if e % 2 else None,
                "rated": True,
                "lists_public": "after",
                "token": f"scene-{e}",
                "public_token": f"scene-public-{e}",
                "standings_seed": e,
            }
            for e in range(EVENTS)
        ),
    )
    # Each event's 20 players: distinct accounts, drawn at random.
    seats = {e: rng.sample(range(1, USERS + 1), PLAYERS_PER_EVENT) for e in range(EVENTS)}
    copy_rows(
        Player,
        (
            {
                "id": e * PLAYERS_PER_EVENT + i + 1,
                "event_id": e + 1,
                "name": f"player{u:05d}",
                "user_id": u,
                "legal": True,
                "general": "WJ-001",
                "checked_in": True,
            }
            for e in range(EVENTS)
            for i, u in enumerate(seats[e])
        ),
    )
    past = [e for e in range(EVENTS) if days[e] < today]
    copy_rows(
        Round,
        (
            {
                "id": e * ROUNDS + r + 1,
                "event_id": e + 1,
                "number": r + 1,
                "kind": "swiss",
                "seed": r,
                "started": now,
                "ends": now,
            }
            for e in past
            for r in range(ROUNDS)
        ),
    )
    results = [(2, 0), (0, 2), (2, 1), (1, 2), (1, 1)]

    def matches() -> Any:
        for e in past:
            for r in range(ROUNDS):
                order = rng.sample(range(PLAYERS_PER_EVENT), PLAYERS_PER_EVENT)
                for t in range(PLAYERS_PER_EVENT // 2):
                    aw, bw = results[rng.randrange(len(results))]
                    yield {
                        "round_id": e * ROUNDS + r + 1,
                        "table": t + 1,
                        "player_a_id": e * PLAYERS_PER_EVENT + order[2 * t] + 1,
                        "player_b_id": e * PLAYERS_PER_EVENT + order[2 * t + 1] + 1,
                        "a_wins": aw,
                        "b_wins": bw,
                        "draws": 0,
                        "decided_by": "organiser",
                    }

    match_count = copy_rows(Match, matches())
    upcoming = [e for e in range(EVENTS) if days[e] >= today]
    copy_rows(
        Registration,
        (
            {"event_id": e + 1, "user_id": u, "waiting": False, "created": now}
            for e in upcoming
            for u in rng.sample(range(1, USERS + 1), REGISTERED_PER_UPCOMING)
        ),
    )
    copy_rows(
        EventDeck,
        (
            {
                "event_id": e + 1,
                "player_id": e * PLAYERS_PER_EVENT + 1,
                "user_id": seats[e][0],
                "player_name": "top",
                "placing": 1,
                "players": PLAYERS_PER_EVENT,
                "general": "WJ-001",
                "format": "standard",
                "day": days[e],
                "text": "武將: 劉備\n3 新兵\n",
            }
            for e in past
        ),
    )
    from django.db import connection

    with connection.cursor() as cursor:  # the sequences past the ids written
        for model in (User, Event, Player, Round):
            table = model._meta.db_table
            cursor.execute(f"SELECT setval(pg_get_serial_sequence('{table}', 'id'), (SELECT MAX(id) FROM {table}))")
        cursor.execute("ANALYZE")
    return {
        "matches": match_count,
        "upcoming_event": upcoming[len(upcoming) // 2] + 1,
        "last_past_event": past[-1] + 1,
        "profile": f"player{seats[past[-1]][0]:05d}",
        "region": slugs[3],
    }


def timed_recompute() -> dict[str, Any]:
    """The ratings from scratch, with openskill's own share of the time."""
    from events import ratings

    model = ratings._MODEL
    spent = [0.0]

    class Timed:
        """The model, with the time spent in openskill (its ratings and their updates) counted."""

        def rating(self, *args: Any) -> Any:
            start = time.perf_counter()
            try:
                return model.rating(*args)
            finally:
                spent[0] += time.perf_counter() - start

        def rate(self, *args: Any, **kwargs: Any) -> Any:
            start = time.perf_counter()
            try:
                return model.rate(*args, **kwargs)
            finally:
                spent[0] += time.perf_counter() - start

    ratings._MODEL = Timed()  # type: ignore[assignment]
    try:
        start = time.perf_counter()
        replayed = ratings.recompute()
        total = time.perf_counter() - start
    finally:
        ratings._MODEL = model
    return {
        "matches_replayed": replayed,
        "seconds": round(total, 1),
        "openskill_seconds": round(spent[0], 1),
        "openskill_share": round(spent[0] / total, 2) if total else None,
    }


def timed_increment(event_id: int) -> dict[str, Any]:
    """A finished event's update: the ratings from its day on (the task's run)."""
    from events import ratings
    from events.models import Event

    day = Event.objects.get(pk=event_id).day
    start = time.perf_counter()
    replayed = ratings.recompute(day)
    return {"from": day.isoformat(), "matches_replayed": replayed, "seconds": round(time.perf_counter() - start, 2)}


def pages(facts: dict[str, Any], requests: int) -> dict[str, dict[str, Any]]:
    from django.db import connection
    from django.test import Client

    visitor = Client()
    month = date.today().strftime("%Y-%m")
    urls = {
        "GET /events/": "/events/",
        "GET /events/?region=": f"/events/?region={facts['region']}&month={month}",
        "GET /events/<id>/": f"/events/{facts['upcoming_event']}/",
        "GET /events/<id>/ (finished)": f"/events/{facts['last_past_event']}/",
        "GET /u/<name>/": f"/u/{facts['profile']}/",
        "GET /events/calendar.ics?region=": f"/events/calendar.ics?region={facts['region']}",
        "GET /api/events/?listed=1": "/api/events/?listed=1",
        "GET /events/decks/?card=": "/events/decks/?card=新兵",
    }
    out: dict[str, dict[str, Any]] = {}
    for name, url in urls.items():
        queries: list[str] = []

        def counted(execute: Any, sql: str, params: Any, many: bool, context: Any, queries: list[str] = queries) -> Any:
            queries.append(sql)  # a request resets Django's own query log: count as they run
            return execute(sql, params, many, context)

        with connection.execute_wrapper(counted):
            assert visitor.get(url).status_code == 200, url
        times = []
        for _ in range(requests):
            start = time.perf_counter()
            visitor.get(url)
            times.append((time.perf_counter() - start) * 1000)
        times.sort()
        p99 = times[min(len(times) - 1, int(len(times) * 0.99))]
        out[name] = {
            "p50_ms": round(statistics.median(times), 1),
            "p99_ms": round(p99, 1),
            "queries": len(queries),
            "met": p99 < GOAL_P99_MS,
        }
    return out


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--requests", type=int, default=300, help="requests per page")
    parser.add_argument("--small", action="store_true", help="a hundredth of the size: to try the bench itself")
    args = parser.parse_args()
    if args.small:
        global USERS, EVENTS
        USERS, EVENTS = USERS // 100, EVENTS // 100
    if not fresh_postgres(PG_URL):
        sys.exit(1)
    setup_django()
    from django.conf import settings
    from django.core.management import call_command

    settings.ALLOWED_HOSTS = ["testserver", "localhost"]
    call_command("migrate", verbosity=0)
    call_command("loadcatalog", verbosity=0)
    call_command("collectstatic", "--noinput", verbosity=0)
    started = time.perf_counter()
    facts = build(random.Random(53))
    built = round(time.perf_counter() - started, 1)
    recompute = timed_recompute()
    increment = timed_increment(facts["last_past_event"])
    measured = pages(facts, args.requests)
    print(
        json.dumps(
            {
                "database": "postgresql",
                "measured_on": date.today().isoformat(),
                "machine": f"{os.cpu_count()} cores",
                "rows": {
                    "users": USERS,
                    "events": EVENTS,
                    "event_entries": EVENTS * PLAYERS_PER_EVENT,
                    "matches": facts["matches"],
                },
                "build_seconds": built,
                "recompute_from_scratch": recompute | {"met": recompute["seconds"] < GOAL_RECOMPUTE_S},
                "incremental_update": increment | {"met": increment["seconds"] < GOAL_INCREMENT_S},
                "pages": measured,
                "met": all(p["met"] for p in measured.values())
                and recompute["seconds"] < GOAL_RECOMPUTE_S
                and increment["seconds"] < GOAL_INCREMENT_S,
            },
            indent=2,
            ensure_ascii=False,
        )
    )


if __name__ == "__main__":
    main()
