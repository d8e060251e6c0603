"""What the community plays, counted for every card at the full size of bench/scale.py:

    .venv/bin/python bench/card_stats.py     (after `make bench-scale`; BENCH_SCALE_URL)

Runs decks.card_stats.compute three times on the database a whole run of bench/scale.py left
(100,000 decks, a third public) and prints the seconds of each and the decks counted; then the
cards' win rates at public events (events.card_wins.compute: every list of those events parsed
once; 50,000 lists of 40 cards at about 0.065 ms each). Goal: under 60 s on PostgreSQL, together."""

from __future__ import annotations

import json
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[0] = str(ROOT)  # the project, not bench/ (whose http.py would shadow the standard library)

from bench.server import environment  # noqa: E402

PG_URL = os.environ.get("BENCH_SCALE_URL", "postgres://postgres@127.0.0.1:5432/zongheng_bench_scale")


def main() -> None:
    os.environ.update(environment(PG_URL))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "zongheng.settings")
    import django

    django.setup()
    from django.core.management import call_command

    from decks.card_stats import compute
    from decks.models import Deck
    from events import card_wins
    from events.models import Submission

    call_command("migrate", verbosity=0)
    if Deck.objects.count() < 100_000:
        sys.exit("needs the database of a whole run of bench/scale.py (make bench-scale)")
    runs = []
    for _ in range(3):
        started = time.perf_counter()
        counted = compute()
        runs.append(round(time.perf_counter() - started, 2))
    started = time.perf_counter()
    matches = card_wins.compute()
    wins_seconds = round(time.perf_counter() - started, 2)
    print(
        json.dumps(
            {
                "public_standard_decks": counted,
                "seconds": runs,
                "win_rates": {"event_lists": Submission.objects.count(), "matches": matches, "seconds": wins_seconds},
                "goal_seconds": 60,
            },
            indent=2,
        )
    )


if __name__ == "__main__":
    main()
