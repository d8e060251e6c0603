"""The tournament day at 512 players (goal: one round paired in under 2 s; the
standings page after 9 rounds in a fixed number of queries).

    .venv/bin/python bench/tournament.py        (DATABASE_URL picks the database)

Times the pure pairing (`tournament.pair_round`) for each of 9 rounds of 512 players with random
results, then, in a throw-away database, runs an event of 512 and of 64 players through 9 rounds
and counts the queries of the organiser's page, the venue's page and the standings API. Prints JSON.
"""

from __future__ import annotations

import json
import os
import random
import sys
import time
from datetime import timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[0] = str(ROOT)  # the project, not bench/ (whose http.py would shadow the standard library)
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "zongheng.settings")

import django  # noqa: E402

django.setup()

from django.conf import settings  # noqa: E402
from django.contrib.auth import get_user_model  # noqa: E402
from django.db import connection, reset_queries  # noqa: E402
from django.test import Client  # noqa: E402
from django.test.utils import CaptureQueriesContext, get_runner  # noqa: E402
from django.utils import timezone  # noqa: E402

from tournament import pair_round  # noqa: E402

PLAYERS = 512
ROUNDS = 9


def pairing_times() -> list[float]:
    rng = random.Random(1)
    players = list(range(1, PLAYERS + 1))
    scores = dict.fromkeys(players, 0)
    met: set[frozenset[int]] = set()
    byes: set[int] = set()
    times = []
    for number in range(1, ROUNDS + 1):
        start = time.perf_counter()
        pairs = pair_round(players, scores, met, byes, seed=number)
        times.append(round(time.perf_counter() - start, 3))
        for a, b in pairs:
            if b is None:
                byes.add(a)
                scores[a] += 3
                continue
            met.add(frozenset((a, b)))
            scores[rng.choice((a, b))] += 3
    return times


def queries(size: int) -> dict[str, int]:
    from events import day
    from events.models import Event, Player

    organiser = get_user_model().objects.create_user(f"organiser{size}", password="bench-password-long-1")
    event = Event.objects.create(
        organiser=organiser, name=f"bench {size}", deadline=timezone.now() + timedelta(days=1), rounds=ROUNDS
    )
    Player.objects.bulk_create(
        [Player(event=event, name=f"player {i}", legal=True, checked_in=True) for i in range(size)]
    )
    rng = random.Random(size)
    for _ in range(ROUNDS):
        for match in day.pair_next_round(event).matches.filter(player_b__isnull=False):
            day.enter_result(match, *rng.choice(((2, 0, 0), (2, 1, 0), (1, 2, 0), (0, 2, 0), (1, 1, 1))))
    client = Client()
    client.force_login(organiser)
    out = {}
    for name, url in (
        ("organiser's page", f"/events/{event.pk}/day/"),
        ("venue's page", f"/t/{event.public_token}/"),
        ("standings API", f"/api/events/{event.pk}/standings/"),
    ):
        client.get(url)
        reset_queries()  # each request resets the log: start from an empty one
        with CaptureQueriesContext(connection) as captured:
            assert client.get(url).status_code == 200
        start = time.perf_counter()
        client.get(url)
        out[name] = {"queries": len(captured), "ms": round((time.perf_counter() - start) * 1000, 1)}
    return out


def main() -> None:
    times = pairing_times()
    runner = get_runner(settings)(verbosity=0, interactive=False)
    old = runner.setup_databases()
    try:
        from catalog.loading import load_catalog

        load_catalog()
        print(
            json.dumps(
                {
                    "database": connection.vendor,
                    "pairing 512 players, seconds per round": times,
                    "slowest round (goal under 2 s)": max(times),
                    f"pages after {ROUNDS} rounds, 64 players": queries(64),
                    f"pages after {ROUNDS} rounds, {PLAYERS} players": queries(PLAYERS),
                },
                indent=2,
            )
        )
    finally:
        runner.teardown_databases(old)


if __name__ == "__main__":
    main()
