"""HTTP speed through gunicorn (one sync worker) on loopback, with SQLite and with PostgreSQL.

    .venv/bin/python bench/http.py [--requests 400] [--concurrency 4]

For each database: a fresh database is migrated and loaded, static files collected, gunicorn
started with the production settings (DEBUG=0), then each endpoint gets a fixed number of
requests from a small load generator (threads, one connection a request, as a sync worker
serves; one client by default). Prints JSON: requests/s, p50 and p99 latency per endpoint, and the card-list API's
requests/s as a share of the bare view's (the floor). Goals: the card-list API at
least 60% of the floor; every endpoint's p99 under 50 ms. PostgreSQL is skipped (and said so)
when it cannot be reached.
"""

from __future__ import annotations

import sys
from pathlib import Path

# This file is called http.py: the project, not bench/, goes first on
# the path, so that the standard library's http package is the one imported.
sys.path[0] = str(Path(__file__).resolve().parent.parent)

import argparse  # noqa: E402
import json  # noqa: E402
import os  # noqa: E402
import tempfile  # noqa: E402

from bench.server import drive, environment, fresh_postgres, gunicorn, manage  # noqa: E402

PG_URL = os.environ.get("BENCH_POSTGRES_URL", "postgres://postgres@127.0.0.1:5432/zongheng_bench_http")

LEGAL_60 = (
    "武將: 劉備\n"
    + "\n".join(f"3 YXJQ-{n:03d}" for n in (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18))
    + "\n3 LSHJ-001\n3 LSHJ-002\n"
)
ENDPOINTS = [
    ("floor: bare JSON view", "GET", "/ping/", None),
    ("GET /api/cards/?page_size=50", "GET", "/api/cards/?page_size=50", None),
    ("GET /api/cards/<code>/", "GET", "/api/cards/YXJQ-003/", None),
    ("card list page /cards/", "GET", "/cards/", None),
    ("search /api/cards/?q=liubei", "GET", "/api/cards/?q=liubei", None),
    ("POST /api/legality/ (60 cards)", "POST", "/api/legality/", json.dumps({"format": "standard", "list": LEGAL_60})),
]


def run(database: str, database_url: str, total: int, concurrency: int) -> dict[str, object]:
    env = environment(database_url)
    manage(env, "migrate", "--noinput")
    manage(env, "loadcatalog")
    manage(env, "collectstatic", "--noinput")
    manage(env, "translations")
    with gunicorn(env, workers=1) as port:
        results = {name: drive(port, method, path, body, total, concurrency) for name, method, path, body in ENDPOINTS}
    floor = results[ENDPOINTS[0][0]]["requests_per_s"]
    card_api = results[ENDPOINTS[1][0]]["requests_per_s"]
    return {
        "database": database,
        "endpoints": results,
        "card_list_api_share_of_floor": round(card_api / floor, 2),
        "goal_share_at_least": 0.6,
        "worst_p99_ms": max(r["p99_ms"] for r in results.values()),
        "goal_p99_ms_under": 50,
    }


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--requests", type=int, default=400)
    # One sync worker serves one request at a time: more clients only queue (and add their wait
    # to the latency); raise it to see the queueing.
    parser.add_argument("--concurrency", type=int, default=1)
    args = parser.parse_args()
    report = []
    with tempfile.TemporaryDirectory() as tmp:
        report.append(run("sqlite", f"sqlite:///{tmp}/bench.sqlite3", args.requests, args.concurrency))
    if fresh_postgres(PG_URL):
        report.append(run("postgresql", PG_URL, args.requests, args.concurrency))
    print(json.dumps(report, ensure_ascii=False, indent=2))


if __name__ == "__main__":
    main()
