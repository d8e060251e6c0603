"""Time to import a 10,000-row collection CSV (goal: a few seconds).

    .venv/bin/python bench/collection_import.py        (DATABASE_URL picks the database)

Uses a throw-away database (Django's test database machinery), loads the real catalogue, writes
a 10,000-row file over every card, then times the whole-file check (preview) and the apply.
Prints JSON.
"""

from __future__ import annotations

import csv
import io
import json
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[0] = str(ROOT)  # the project, not bench/ (whose http.py would shadow the standard library)
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "zongheng.settings")

import django  # noqa: E402

django.setup()

from django.contrib.auth import get_user_model  # noqa: E402
from django.db import connection  # noqa: E402
from django.test.utils import get_runner  # noqa: E402

ROWS = 10_000


def build_file() -> bytes:
    from catalog.models import Card

    cards = list(Card.objects.values_list("code", "name"))
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(["code", "name", "quantity", "foil_quantity"])
    for i in range(ROWS):
        code, name = cards[i % len(cards)]
        # half the rows name the card by code, half by name
        writer.writerow([code if i % 2 else "", "" if i % 2 else name, 1, i % 2])
    return out.getvalue().encode("utf-8")


def main() -> None:
    runner = get_runner(django.conf.settings)(verbosity=0, interactive=False)
    old = runner.setup_databases()
    try:
        from catalog.loading import load_catalog
        from collection.csv_io import apply_plan, plan_import
        from collection.models import CollectionEntry

        load_catalog()
        user = get_user_model().objects.create_user("bench", password="bench-password-long-1")
        data = build_file()
        start = time.perf_counter()
        plan = plan_import(user, data, "add")
        planned = time.perf_counter()
        assert plan.ok, plan.errors[:3]
        changed = apply_plan(user, plan)
        done = time.perf_counter()
        copies = sum(e.quantity for e in CollectionEntry.objects.filter(user=user))
        assert copies == ROWS
        print(
            json.dumps(
                {
                    "database": connection.vendor,
                    "rows": ROWS,
                    "file_kib": round(len(data) / 1024),
                    "cards_changed": changed,
                    "check_and_preview_s": round(planned - start, 3),
                    "apply_s": round(done - planned, 3),
                    "total_s": round(done - start, 3),
                    "goal_s_under": 5,
                },
                indent=2,
            )
        )
    finally:
        runner.teardown_databases(old)


if __name__ == "__main__":
    main()
