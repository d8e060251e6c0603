"""An event on tournament day: 500 players' 60-card lists, their verdict table, CSV and sheets.

    .venv/bin/python bench/events.py        (DATABASE_URL picks the database)

Uses a throw-away database, loads the real catalogue, stores 500 submissions (half legal, half
with problems), then times the organiser's page, the CSV and the page of all sheets through the
Django test client, median of 3. Prints JSON.
"""

from __future__ import annotations

import json
import os
import statistics
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
from django.db import connection  # noqa: E402
from django.test import Client  # noqa: E402
from django.test.utils import get_runner  # noqa: E402
from django.utils import timezone  # noqa: E402

PLAYERS = 500


def lists() -> list[str]:
    from catalog.models import Card

    troops = list(Card.objects.filter(kind="troop").values_list("code", flat=True))[:20]
    legal = "武將: WJ-001\n" + "\n".join(f"3 {code}" for code in troops)
    illegal = "武將: WJ-001\n" + "\n".join(f"4 {code}" for code in troops[:15])
    return [legal if i % 2 else illegal for i in range(PLAYERS)]


def main() -> None:
    settings.ALLOWED_HOSTS = ["testserver"]
    runner = get_runner(settings)(verbosity=0, interactive=False)
    old = runner.setup_databases()
    try:
        from catalog.loading import load_catalog
        from events.models import Event, Submission

        load_catalog()
        organiser = get_user_model().objects.create_user("bench", password="bench-password-long-1")
        event = Event.objects.create(organiser=organiser, name="bench", deadline=timezone.now() + timedelta(days=1))
        Submission.objects.bulk_create(
            [Submission(event=event, player_name=f"player {i}", text=text) for i, text in enumerate(lists())]
        )
        client = Client()
        client.force_login(organiser)
        figures = {}
        for name, url in (("page_ms", ""), ("csv_ms", "export.csv"), ("sheets_ms", "sheets/")):
            times = []
            for _ in range(3):
                start = time.perf_counter()
                response = client.get(f"/events/{event.pk}/{url}")
                times.append((time.perf_counter() - start) * 1000)
                assert response.status_code == 200
            figures[name] = round(statistics.median(times), 1)
        print(
            json.dumps(
                {
                    "database": connection.vendor,
                    "lists": PLAYERS,
                    "cards_per_list": 60,
                    **figures,
                    "goal_ms_under": 2000,
                },
                indent=2,
            )
        )
    finally:
        runner.teardown_databases(old)


if __name__ == "__main__":
    main()
