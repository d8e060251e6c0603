"""The tournament day at championship size (goal: any round of 2,048 players paired in at
most 1 s; the pages after 9 rounds in a fixed number of queries).

    .venv/bin/python bench/tournament.py        (DATABASE_URL picks the database)

Times the pure pairing (`tournament.pair_round`) for every round of events of 16, 128, 512 and
2,048 players (random results, drops) and prints the slowest per size, each round's floats and
squared score gaps, and the global optimum's where it can be computed (up to 512 players), then,
in a throw-away database, runs an event of 512 and of 64 players through 9 rounds
and counts the queries of the organiser's page, the venue's page and the standings API, and
times the organiser's page, the venue's page and the printout of a 2,000-player event after five
rounds (p50 and p99 of 30 requests; goal: 300 ms at p99). Prints JSON.
"""

from __future__ import annotations

import gc
import json
import math
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
SIZES = (16, 128, 512, 2048)
GOAL_SECONDS = 1.0
OPTIMUM_UP_TO = 512  # the global matching's optimum is computed for the quality up to this size


def _gaps(pairs: list[tuple[int, int | None]], scores: dict[int, int]) -> tuple[int, int]:
    """(floats, the sum of squared score gaps in match points) of a round's pairs."""
    played = [(a, b) for a, b in pairs if b is not None]
    return sum(scores[a] != scores[b] for a, b in played), sum((scores[a] - scores[b]) ** 2 for a, b in played)


def championship(size: int) -> dict[str, object]:
    """An event of `size` players over the usual ⌈log2 n⌉ rounds: random results (a tenth drawn),
    2% dropping after each round. Per round: the seconds, the floats and the squared gaps, and
    where it can be computed, the same for the global optimum (one matching over everyone)."""
    from tournament import pairing

    rng = random.Random(size)
    active = list(range(1, size + 1))
    scores = dict.fromkeys(active, 0)
    met: set[frozenset[int]] = set()
    byes: set[int] = set()
    rounds = []
    for number in range(1, math.ceil(math.log2(size)) + 1):
        start = time.perf_counter()
        pairs = pair_round(active, scores, met, byes, seed=number)
        seconds = time.perf_counter() - start
        floats, squares = _gaps(pairs, scores)
        row: dict[str, object] = {
            "round": number,
            "seconds": round(seconds, 3),
            "floats": floats,
            "squared_gaps": squares,
        }
        bye = next((a for a, b in pairs if b is None), None)
        if bye is not None:
            lowest = min(scores[p] for p in active if p not in byes)
            row["bye_score"], row["lowest_score_without_a_bye"] = scores[bye], lowest
        if number > 1 and OPTIMUM_UP_TO >= size > pairing.GLOBAL_UP_TO:
            order = sorted(active)
            lot = {p: i for i, p in enumerate(order)}
            best = pairing._global(order, scores, met, byes, lot)
            row["optimum_floats"], row["optimum_squared_gaps"] = _gaps(best, scores)
        rounds.append(row)
        for a, b in pairs:
            if b is None:
                byes.add(a)
                scores[a] += 3
                continue
            met.add(frozenset((a, b)))
            if rng.random() < 0.1:
                scores[a] += 1
                scores[b] += 1
            else:
                scores[rng.choice((a, b))] += 3
        for p in rng.sample(active, len(active) // 50):
            active.remove(p)
    slowest = max(float(r["seconds"]) for r in rounds)  # type: ignore[arg-type]
    return {
        "players": size,
        "slowest_round_s": slowest,
        "goal_s": GOAL_SECONDS,
        "met": slowest <= GOAL_SECONDS,
        "rounds": rounds,
    }


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


CHAMPIONSHIP = 2000
CHAMPIONSHIP_ROUNDS = 5
PAGE_GOAL_MS = 300.0
PAGE_SAMPLES = 30


def championship_pages(size: int = CHAMPIONSHIP, rounds: int = CHAMPIONSHIP_ROUNDS) -> dict[str, object]:
    """The organiser's page, the venue's page and the printout of a round of `size` players
    after `rounds` rounds (results written in bulk), each requested PAGE_SAMPLES times: p50 and
    p99 in ms against the goal (300 ms at p99)."""
    from events import day
    from events.models import Event, Match, Player

    organiser = get_user_model().objects.create_user(f"champion{size}", password="bench-password-long-1")
    event = Event.objects.create(
        organiser=organiser, name=f"championship {size}", deadline=timezone.now() + timedelta(days=1)
    )
    Player.objects.bulk_create(
        [Player(event=event, name=f"選手{i:04d}", legal=True, checked_in=True) for i in range(size)]
    )
    rng = random.Random(size)
    for number in range(1, rounds + 1):
        matches = list(day.pair_next_round(event).matches.filter(player_b__isnull=False))
        if number == rounds:
            matches = matches[: len(matches) // 2]  # the newest round half played
        for match in matches:
            match.a_wins, match.b_wins, match.draws = rng.choice(((2, 0, 0), (2, 1, 0), (1, 2, 0), (0, 2, 0)))
            match.decided_by = "organiser"
        Match.objects.bulk_update(matches, ["a_wins", "b_wins", "draws", "decided_by"], batch_size=500)
    client = Client()
    client.force_login(organiser)
    # As a server process does at start (zongheng/wsgi.py): what lives as long as the process is
    # moved out of the garbage collector's sight, so a full collection does not walk it.
    gc.collect()
    gc.freeze()
    out: dict[str, object] = {"players": size, "rounds": rounds}
    for name, url in (
        ("organiser's page", f"/events/{event.pk}/day/"),
        ("venue's page", f"/t/{event.public_token}/"),
        ("pairings printout", f"/events/{event.pk}/pairings/"),
    ):
        client.get(url)  # warm
        times = []
        for _ in range(PAGE_SAMPLES):
            start = time.perf_counter()
            assert client.get(url).status_code == 200
            times.append((time.perf_counter() - start) * 1000)
        times.sort()
        p99 = times[min(len(times) - 1, math.ceil(0.99 * len(times)) - 1)]
        out[name] = {"p50_ms": round(times[len(times) // 2], 1), "p99_ms": round(p99, 1), "met": p99 <= PAGE_GOAL_MS}
    return out


def main() -> None:
    sizes = [championship(size) for size in SIZES]
    runner = get_runner(settings)(verbosity=0, interactive=False)
    old = runner.setup_databases()
    try:
        from catalog.loading import load_catalog

        load_catalog()
        print(
            json.dumps(
                {
                    "database": connection.vendor,
                    "pairing, slowest round per size (goal: at most 1 s)": {
                        str(r["players"]): r["slowest_round_s"] for r in sizes
                    },
                    "pairing by size": sizes,
                    f"pages after {ROUNDS} rounds, 64 players": queries(64),
                    f"pages after {ROUNDS} rounds, {PLAYERS} players": queries(PLAYERS),
                    f"pages at {CHAMPIONSHIP} players (goal: p99 at most {PAGE_GOAL_MS:.0f} ms)": championship_pages(),
                },
                indent=2,
            )
        )
    finally:
        runner.teardown_databases(old)


if __name__ == "__main__":
    main()
