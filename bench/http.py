"""HTTP speed through gunicorn (one sync worker) on loopback, with SQLite and with PostgreSQL.

    .venv/bin/python bench/http.py [--requests 2000] [--concurrency 4] [--rounds 3]

For each database: a fresh database is migrated and loaded, static files collected, gunicorn
started with the production settings (DEBUG=0: the throttle, the request log, metrics, CSP and
the catalogue-version check all on), then each endpoint gets a fixed number of requests from
`ab` (ApacheBench, 4 clients, a new connection a request), or from a small Python load
generator where `ab` is not installed (it then says so: the generator itself costs a share).

The floor is a bare Django view: bench/bare_django.py, a one-file Django application with no
middleware whose one view returns a small JSON answer, served by the same gunicorn. The site's
own `/ping/` goes through every middleware, so it shows their cost. Prints JSON: requests/s,
p50 and p99 per endpoint, and the card-list API's requests/s as a share of the floor's. Goals:
the card-list API (anonymous, `?page_size=50`) at least 70% of the bare floor; every endpoint's
p99 under 50 ms. PostgreSQL is skipped (and said so) when it cannot be reached.
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
import re  # noqa: E402
import shutil  # noqa: E402
import subprocess  # noqa: E402
import tempfile  # noqa: E402

from bench.server import drive, environment, fresh_postgres, gunicorn, manage  # noqa: E402

PG_URL = os.environ.get("BENCH_POSTGRES_URL", "postgres://postgres@127.0.0.1:5432/zongheng_bench_http")
AB = shutil.which("ab")
GOAL_SHARE = 0.7
GOAL_P99_MS = 50

LEGAL_60 = (
    "武將: 劉備\n"
    + "\n".join(f"3 YXJQ-{n:03d}" for n in (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18))
    + "\n3 LSHJ-001\n3 LSHJ-002\n"
)
FLOOR = "floor: a bare Django view (bench/bare_django.py)"
CARD_API = "GET /api/cards/?page_size=50"
ENDPOINTS = [
    ("/ping/ through every middleware", "GET", "/ping/", None),
    (CARD_API, "GET", "/api/cards/?page_size=50", None),
    ("GET /api/cards/<code>/", "GET", "/api/cards/YXJQ-003/", None),
    ("card list page /cards/", "GET", "/cards/", None),
    ("search /api/cards/?q=liubei", "GET", "/api/cards/?q=liubei", None),
    ("POST /api/legality/ (60 cards)", "POST", "/api/legality/", json.dumps({"format": "standard", "list": LEGAL_60})),
]


def load(port: int, method: str, path: str, body: str | None, total: int, concurrency: int) -> dict[str, float]:
    """`total` requests from `concurrency` clients, after a warm-up: ab's figures, else drive's."""
    drive(port, method, path, body, 20 * concurrency, concurrency)  # warm every worker and cache
    if AB is None:
        return drive(port, method, path, body, total, concurrency)
    command = [AB, "-q", "-n", str(total), "-c", str(concurrency), "-e", "/dev/stdout"]
    with tempfile.NamedTemporaryFile("w", suffix=".json") as posted:
        if body is not None:
            posted.write(body)
            posted.flush()
            command += ["-p", posted.name, "-T", "application/json"]
        # -e prints each percentile; the summary gives the rate and the failures.
        out = subprocess.run([*command, f"http://127.0.0.1:{port}{path}"], capture_output=True, text=True, check=True)
    text = out.stdout
    failed = int(re.search(r"Failed requests:\s+(\d+)", text).group(1))  # type: ignore[union-attr]
    non_2xx = re.search(r"Non-2xx responses:\s+(\d+)", text)
    if failed or non_2xx:
        raise RuntimeError(f"{method} {path}: {failed} failed, {non_2xx.group(1) if non_2xx else 0} not 2xx")
    percentiles = dict(re.findall(r"^(\d+(?:\.\d+)?),(\d+(?:\.\d+)?)$", text, re.MULTILINE))
    return {
        "requests": total,
        "requests_per_s": float(re.search(r"Requests per second:\s+([\d.]+)", text).group(1)),  # type: ignore[union-attr]
        "p50_ms": float(percentiles["50"]),
        "p99_ms": float(percentiles["99"]),
    }


def run(database: str, database_url: str, total: int, concurrency: int, rounds: int) -> dict[str, object]:
    env = environment(database_url)
    manage(env, "migrate", "--noinput")
    manage(env, "loadcatalog")
    manage(env, "collectstatic", "--noinput")
    manage(env, "translations")
    # This machine's speed drifts from minute to minute (a shared host): the floor and the card
    # API are measured in turns, `rounds` times each, and the best of each counts, as timeit does.
    with (
        gunicorn(env, workers=1, app="bench.bare_django", ready="/ping/") as floor_port,
        gunicorn(env, workers=1) as port,
    ):
        turns: dict[str, list[dict[str, float]]] = {FLOOR: [], CARD_API: []}
        for _ in range(rounds):
            turns[FLOOR].append(load(floor_port, "GET", "/ping/", None, total, concurrency))
            turns[CARD_API].append(load(port, "GET", "/api/cards/?page_size=50", None, total, concurrency))
        results = {name: max(runs, key=lambda r: r["requests_per_s"]) for name, runs in turns.items()}
        for name, method, path, body in ENDPOINTS:
            if name != CARD_API:
                results[name] = load(port, method, path, body, total, concurrency)
    share = results[CARD_API]["requests_per_s"] / results[FLOOR]["requests_per_s"]
    every_turn = {name: [r["requests_per_s"] for r in runs] for name, runs in turns.items()}
    return {
        "database": database,
        "load": "ab" if AB else "bench.server.drive (ab is not installed)",
        "clients": concurrency,
        "endpoints": results,
        "card_list_api_share_of_floor": round(share, 2),
        "requests_per_s_each_turn": every_turn,
        "goal_share_at_least": GOAL_SHARE,
        "worst_p99_ms": max(r["p99_ms"] for r in results.values()),
        "goal_p99_ms_under": GOAL_P99_MS,
        "met": share >= GOAL_SHARE and all(r["p99_ms"] < GOAL_P99_MS for r in results.values()),
    }


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--requests", type=int, default=2000)
    parser.add_argument("--concurrency", type=int, default=4)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--sqlite-only", action="store_true")
    args = parser.parse_args()
    report = []
    with tempfile.TemporaryDirectory() as tmp:
        report.append(run("sqlite", f"sqlite:///{tmp}/bench.sqlite3", args.requests, args.concurrency, args.rounds))
    if not args.sqlite_only:
        if fresh_postgres(PG_URL):
            report.append(run("postgresql", PG_URL, args.requests, args.concurrency, args.rounds))
        else:
            report.append({"database": "postgresql", "skipped": f"cannot reach {PG_URL}"})
    print(json.dumps(report, ensure_ascii=False, indent=2))


if __name__ == "__main__":
    main()
