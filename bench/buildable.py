""" "Buildable from my collection" at community scale (goal: the filtered, sorted
first page of public decks in under 200 ms p99 on PostgreSQL), and "what to buy next" (the
purchases of at most 3 copies that unlock the most decks: under 200 ms p99 too).

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres .venv/bin/python bench/buildable.py

Uses a throw-away database, loads the real catalogue, then writes 100,000 decks (a third
public) of about 17 distinct cards each (1.7 million deck entries) and their requirement bits
in bulk, and a reader whose collection covers 200 of the 215 cards. Times the first page of the
public list, filtered to what the reader can build and sorted by cards missing, and the same
sorted by share owned, over the real stack (Django test client: throttles, sessions and all),
and the plain anti-join over the deck entries for comparison. Prints JSON.
"""

from __future__ import annotations

import gc
import json
import os
import random
import statistics
import sys
import time
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
from django.test.utils import get_runner, override_settings  # noqa: E402

DECKS = int(os.environ.get("BENCH_DECKS", "100000"))
PER_DECK = 17
RUNS = 200


def build(owner_ids: list[int]) -> None:
    from catalog.lookup import catalog_index
    from decks import needs
    from decks.models import Deck, DeckEntry

    rng = random.Random(17)
    index = catalog_index()
    cards = [pk for code, pk in index.pk_by_code.items() if index.by_code[code].kind != "general"]
    generals = [pk for code, pk in index.pk_by_code.items() if index.by_code[code].kind == "general"]
    slot_of = needs.slots()
    batch = 2000
    for start in range(0, DECKS, batch):
        decks, plans = [], []
        for i in range(start, min(start + batch, DECKS)):
            chosen = {pk: rng.choice((1, 2, 3, 3)) for pk in rng.sample(cards, PER_DECK)}
            general = rng.choice(generals)
            need = chosen | {general: chosen.get(general, 0) + 1}
            bits, more = needs.encode(need, slot_of)
            decks.append(
                Deck(
                    owner_id=owner_ids[i % len(owner_ids)],
                    name=f"deck {i}",
                    general_id=general,
                    public=i % 3 == 0,
                    is_legal=True,
                    main_count=sum(chosen.values()),
                    needs=bits,
                    needs_over=bool(more),
                    needs_more=more,
                    needs_total=sum(need.values()),
                )
            )
            plans.append(chosen)
        Deck.objects.bulk_create(decks)
        entries = [
            DeckEntry(deck=d, card_id=pk, count=n)
            for d, plan in zip(decks, plans, strict=True)
            for pk, n in plan.items()
        ]
        DeckEntry.objects.bulk_create(entries, batch_size=10_000)


def timed(call: object, runs: int = RUNS) -> dict[str, float]:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        call()  # type: ignore[operator]
        times.append((time.perf_counter() - start) * 1000)
    times.sort()
    return {
        "median_ms": round(statistics.median(times), 1),
        "p99_ms": round(times[int(len(times) * 0.99) - 1], 1),
    }


def main() -> None:
    # BENCH_KEEP=1 keeps the database between runs (Django's keepdb): built once, measured often.
    keep = os.environ.get("BENCH_KEEP") == "1"
    runner = get_runner(settings)(verbosity=0, interactive=False, keepdb=keep)
    old = runner.setup_databases()
    try:
        from catalog.loading import load_catalog
        from catalog.models import Card
        from collection.models import CollectionEntry
        from decks.models import Deck, DeckEntry, VerdictState
        from decks.services import verdict_stamp

        users = get_user_model()
        started = time.perf_counter()
        rng = random.Random(5)
        if Deck.objects.count() != DECKS:
            load_catalog()
            owners = [users.objects.create_user(f"owner{i}").pk for i in range(50)]
            reader = users.objects.create_user("reader", password="bench-password-long-1")
            build(owners)
            covered = rng.sample(list(Card.objects.values_list("pk", flat=True)), 200)
            CollectionEntry.objects.bulk_create(
                [CollectionEntry(user=reader, card_id=pk, quantity=rng.choice((1, 2, 3, 3, 4))) for pk in covered]
            )
        reader = users.objects.get(username="reader")
        covered = list(CollectionEntry.objects.filter(user=reader).values_list("card", flat=True))
        built_s = time.perf_counter() - started
        # The decks were written with their verdicts and bits for this catalogue version.
        VerdictState.objects.update_or_create(pk=1, defaults={"catalog_version": verdict_stamp()})
        if connection.vendor == "postgresql":
            with connection.cursor() as cursor:
                cursor.execute("ANALYZE")
        client = Client()
        client.force_login(reader)
        client.get("/api/decks/close/?missing=3")  # the catalogue index and the views, loaded
        # As a server process does at start (zongheng/wsgi.py): what lives as long as the process is
        # moved out of the garbage collector's sight, so a full collection does not walk it.
        gc.collect()
        gc.freeze()
        with override_settings(REST_FRAMEWORK={**settings.REST_FRAMEWORK, "DEFAULT_THROTTLE_CLASSES": []}):
            assert client.get("/decks/?buildable=1&sort=missing").status_code == 200
            page_missing = timed(lambda: client.get("/decks/?sort=missing"))
            page_buildable = timed(lambda: client.get("/decks/?buildable=1&sort=missing"))
            page_share = timed(lambda: client.get("/decks/?sort=-owned_share"))
            api = timed(lambda: client.get("/api/decks/?public=1&buildable=1&sort=missing&page_size=30"))
            close_answer = client.get("/api/decks/close/?missing=3")
            assert close_answer.status_code == 200
            close = timed(lambda: client.get("/api/decks/close/?missing=3"))
            close_5 = timed(lambda: client.get("/api/decks/close/?missing=5"), runs=50)
        owned = dict(CollectionEntry.objects.filter(user=reader).values_list("card", "quantity"))

        def anti_join() -> None:
            # The plain way: public decks with no entry needing more than the reader owns.
            from django.db.models import Exists, OuterRef, Q

            from decks.models import Deck

            short = Q()
            for pk in Card.objects.values_list("pk", flat=True):
                short |= Q(card_id=pk, count__gt=owned.get(pk, 0))
            lacking = DeckEntry.objects.filter(short, deck=OuterRef("pk"))
            list(Deck.objects.listed().exclude(Exists(lacking)).order_by("-updated")[:30])

        print(
            json.dumps(
                {
                    "database": connection.vendor,
                    "decks": DECKS,
                    "public_decks": DECKS // 3 + (DECKS % 3 > 0),
                    "deck_entries": DeckEntry.objects.count(),
                    "reader_owns_cards": len(covered),
                    "build_seconds": round(built_s, 1),
                    "GET /decks/?sort=missing": page_missing,
                    "GET /decks/?buildable=1&sort=missing": page_buildable,
                    "GET /decks/?sort=-owned_share": page_share,
                    "GET /api/decks/?public=1&buildable=1&sort=missing": api,
                    "GET /api/decks/close/?missing=3 (goal: p99 under 200 ms)": close,
                    "GET /api/decks/close/?missing=5": close_5,
                    "close enough: purchases suggested, decks the first unlocks": [
                        len(close_answer.json()),
                        close_answer.json()[0]["unlocks"] if close_answer.json() else 0,
                    ],
                    "anti-join over deck entries (for comparison)": timed(anti_join, runs=5),
                },
                indent=2,
            )
        )
    finally:
        if not keep:
            runner.teardown_databases(old)


if __name__ == "__main__":
    main()
