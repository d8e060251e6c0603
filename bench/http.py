"""HTTP speed through gunicorn (one sync worker) on loopback, with SQLite and with PostgreSQL.

    .venv/bin/python bench/http.py [--requests 400] [--concurrency 4]

For each database: a fresh database is migrated and loaded, static files collected, gunicorn
started with the production settings (DEBUG=0), then each endpoint gets a fixed number of
requests from a small load generator (threads, one connection a request, as a sync worker
serves; one client by default). Prints JSON: requests/s, p50 and p99 latency per endpoint, and the card-list API's
requests/s as a share of the bare view's (the floor). Goals (issue #8): the card-list API at
least 60% of the floor; every endpoint's p99 under 50 ms. PostgreSQL is skipped (and said so)
when it cannot be reached.
"""

from __future__ import annotations

import sys
from pathlib import Path

# This file is called http.py (as issue #8 names it): the project, not bench/, goes first on
# the path, so that the standard library's http package is the one imported.
sys.path[0] = str(Path(__file__).resolve().parent.parent)

import argparse  # noqa: E402
import http.client  # noqa: E402
import json  # noqa: E402
import os  # noqa: E402
import socket  # noqa: E402
import statistics  # noqa: E402
import subprocess  # noqa: E402
import tempfile  # noqa: E402
import threading  # noqa: E402
import time  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
PYTHON = sys.executable
GUNICORN = str(Path(PYTHON).parent / "gunicorn")
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


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def environment(database_url: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("DEBUG", "DATABASE_URL")}
    env.update(
        {
            "DEBUG": "0",
            "SECRET_KEY": "bench-only-" + "k" * 50,
            "ALLOWED_HOSTS": "127.0.0.1",
            "SECURE_SSL_REDIRECT": "0",
            "DATABASE_URL": database_url,
            "LOG_LEVEL": "ERROR",
            "API_THROTTLE_ANON": "100000000/minute",
            "API_THROTTLE_USER": "100000000/minute",
        }
    )
    return env


def prepare_postgres() -> bool:
    try:
        import psycopg

        with psycopg.connect(PG_URL.rsplit("/", 1)[0] + "/postgres", autocommit=True, connect_timeout=3) as conn:
            name = PG_URL.rsplit("/", 1)[1]
            conn.execute(f'DROP DATABASE IF EXISTS "{name}"')
            conn.execute(f'CREATE DATABASE "{name}"')
        return True
    except Exception as exc:
        print(f"PostgreSQL skipped: {exc}", file=sys.stderr)
        return False


def manage(env: dict[str, str], *args: str) -> None:
    subprocess.run([PYTHON, "manage.py", *args], cwd=ROOT, env=env, check=True, capture_output=True)


def request(port: int, method: str, path: str, body: str | None) -> float:
    start = time.perf_counter()
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    headers = {"Content-Type": "application/json"} if body else {}
    conn.request(method, path, body=body.encode() if body else None, headers=headers)
    response = conn.getresponse()
    response.read()
    conn.close()
    if response.status != 200:
        raise RuntimeError(f"{method} {path}: {response.status}")
    return (time.perf_counter() - start) * 1000


def drive(port: int, method: str, path: str, body: str | None, total: int, concurrency: int) -> dict[str, float]:
    for _ in range(20):  # warm up: imports, caches, connections
        request(port, method, path, body)
    latencies: list[float] = []
    lock = threading.Lock()
    remaining = [total]

    def worker() -> None:
        while True:
            with lock:
                if remaining[0] == 0:
                    return
                remaining[0] -= 1
            elapsed = request(port, method, path, body)
            with lock:
                latencies.append(elapsed)

    start = time.perf_counter()
    threads = [threading.Thread(target=worker) for _ in range(concurrency)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    wall = time.perf_counter() - start
    latencies.sort()
    return {
        "requests": total,
        "requests_per_s": round(total / wall, 1),
        "p50_ms": round(statistics.median(latencies), 2),
        "p99_ms": round(latencies[min(len(latencies) - 1, int(len(latencies) * 0.99))], 2),
    }


def run(database: str, database_url: str, total: int, concurrency: int) -> dict[str, object]:
    env = environment(database_url)
    manage(env, "migrate", "--noinput")
    manage(env, "loadcatalog")
    manage(env, "collectstatic", "--noinput")
    manage(env, "translations")
    port = free_port()
    server = subprocess.Popen(
        [
            GUNICORN,
            "zongheng.wsgi",
            "--workers",
            "1",
            "--worker-class",
            "sync",
            "--bind",
            f"127.0.0.1:{port}",
            "--log-level",
            "warning",
        ],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    try:
        deadline = time.time() + 30
        while True:
            try:
                request(port, "GET", "/ping/", None)
                break
            except (OSError, RuntimeError):
                if time.time() > deadline or server.poll() is not None:
                    raise RuntimeError("gunicorn did not start") from None
                time.sleep(0.2)
        results = {name: drive(port, method, path, body, total, concurrency) for name, method, path, body in ENDPOINTS}
    finally:
        server.terminate()
        server.wait(timeout=10)
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
    if prepare_postgres():
        report.append(run("postgresql", PG_URL, args.requests, args.concurrency))
    print(json.dumps(report, ensure_ascii=False, indent=2))


if __name__ == "__main__":
    main()
