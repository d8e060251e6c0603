"""Search speed on the real catalogue and on a synthetic one of 50,000 cards.

    .venv/bin/python bench/search.py          (DATABASE_URL picks the database; run it for both)

Each query runs as the card list does (filter, count, first page of 50) against a throw-away
test database. Prints JSON: median and worst milliseconds per query. Goals: under
20 ms per query at the real size, under 100 ms at 50,000 cards. Synthetic cards carry skills
text made of the real texts' characters (40 to 120 of them), since a text search spends its
time there. At 50,000 cards the queries run twice: scanning the text (`text_scan`, as before
the gram index) and through the indexed grams (catalog.models.TextGram); goal: the
slowest query's median through the grams at most a third of the scan's.
"""

from __future__ import annotations

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

from django.db import connection  # noqa: E402
from django.test.utils import get_runner  # noqa: E402

QUERIES = [
    "劉備",
    "刘备",
    "liubei",
    "liu bei",
    "lb",
    "liub",
    "changgong",
    "新兵",
    "yxjq3",
    "wd1",
    "class:cavalry cost<=3",
    "faction:wei or faction:wu",
    "set:yxjq -kind:general",
    't:"造成"',
    't:"摸一張牌"',
    '"傷害"',
    "t:殺",
    "stars>=4 tier:silver",
]
SYNTHETIC = int(os.environ.get("BENCH_SEARCH_CARDS", "50000"))  # fewer for a quick look
RUNS = 7


def time_queries() -> dict[str, dict[str, float]]:
    from catalog.filters import CardFilter
    from catalog.models import Card

    results = {}
    for q in QUERIES:
        samples = []
        for _run in range(RUNS):
            start = time.perf_counter()
            card_filter = CardFilter({"q": q}, queryset=Card.objects.with_set())
            assert card_filter.is_valid(), card_filter.errors
            qs = card_filter.qs
            qs.count()
            list(qs[:50])
            samples.append((time.perf_counter() - start) * 1000)
        results[q] = {"median_ms": round(statistics.median(samples), 2), "worst_ms": round(max(samples), 2)}
    return results


def add_synthetic_cards(count: int) -> None:
    """Cards made of the real ones' characters and facts, with new codes, keys computed as loading does."""
    from catalog.models import Card, rebuild_search_keys

    rng = random.Random(6)
    real = list(Card.objects.all())
    chars = sorted({ch for card in real for ch in card.name})
    text_chars = sorted({ch for card in real for ch in (card.text or "") if not ch.isspace()})
    batch = []
    for i in range(count):
        model = rng.choice(real)
        name = "".join(rng.choice(chars) for _ in range(rng.randint(2, 5)))
        card = Card(
            code=f"SYN-{i:06d}",
            name=name,
            set=model.set,
            kind=model.kind,
            cost=model.cost,
            power=model.power,
            health=model.health,
            life=model.life,
            troop_class=model.troop_class,
            faction=model.faction,
            speed=model.speed,
            element=model.element,
            tier=model.tier,
            stars=model.stars,
            text="".join(rng.choice(text_chars) for _ in range(rng.randint(40, 120))),
            affiliation=model.affiliation,
            position=10_000 + i,
        )
        card.compute_derived()
        card.position = 10_000 + i
        batch.append(card)
        if len(batch) == 2000:
            rebuild_search_keys(Card.objects.bulk_create(batch))
            batch = []
    rebuild_search_keys(Card.objects.bulk_create(batch))


def summary(results: dict[str, dict[str, float]]) -> dict[str, float]:
    medians = [r["median_ms"] for r in results.values()]
    return {"slowest_median_ms": max(medians), "mean_median_ms": round(statistics.mean(medians), 2)}


def main() -> None:
    runner = get_runner(django.conf.settings)(verbosity=0, interactive=False)
    old = runner.setup_databases()
    try:
        from catalog.loading import load_catalog
        from catalog.models import Card

        load_catalog()
        real = time_queries()
        start = time.perf_counter()
        add_synthetic_cards(SYNTHETIC)
        built = time.perf_counter() - start
        if connection.vendor == "postgresql":
            with connection.cursor() as cursor:
                cursor.execute("ANALYZE catalog_card")
                cursor.execute("ANALYZE catalog_searchkey")
                cursor.execute("ANALYZE catalog_textgram")
        from catalog import search

        grams = search.textkeys.query_grams
        search.textkeys.query_grams = lambda phrase, most=4: []  # type: ignore[assignment]  # the plain scan
        scan = time_queries()
        search.textkeys.query_grams = grams
        big = time_queries()
        print(
            json.dumps(
                {
                    "database": connection.vendor,
                    "real_catalogue": {"cards": 215, **summary(real), "goal_ms_under": 20, "queries": real},
                    "synthetic": {
                        "cards": Card.objects.count(),
                        "build_s": round(built, 1),
                        **summary(big),
                        "goal_ms_under": 100,
                        "queries": big,
                    },
                    "text_scan": {
                        **summary(scan),
                        "queries": {q: r for q, r in scan.items() if "t:" in q or '"' in q or not q.isascii()},
                    },
                    "grams_vs_scan": round(summary(big)["slowest_median_ms"] / summary(scan)["slowest_median_ms"], 3),
                },
                ensure_ascii=False,
                indent=2,
            )
        )
    finally:
        runner.teardown_databases(old)


if __name__ == "__main__":
    main()
