"""Does each piece of machinery added for speed still earn its place? For each, the same endpoints
through gunicorn with it and without it, in turns, on the real catalogue (the full size: the
catalogue is the same on every site). Prints JSON: p50 and p99 per endpoint and variant, what
the piece takes off the p99, and the verdict: a piece stays where it takes at least 20% or 5 ms
off an endpoint's p99 (the house issue's rule); otherwise the simpler code returns.

    .venv/bin/python bench/machinery.py [--requests 2000] [--rounds 3]

The pieces, each switched off here only (bench/machinery_variants.py), never by a setting:
- stored answers: the WSGI front door that sends a stored catalogue answer before Django
  (catalog.stored_answers); without it the same request goes through Django's whole stack;
- heard version (PostgreSQL): the catalogue's version heard by LISTEN/NOTIFY (catalog.cache_version)
  instead of read from its row on every request;
- breaker: with Redis frozen (SIGSTOP), the circuit breaker (webutil.breaker) against asking the
  frozen Redis on every call, each waiting for its socket timeout.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path[0] = str(Path(__file__).resolve().parent.parent)  # the project first: bench/http.py

import argparse  # noqa: E402
import contextlib  # noqa: E402
import json  # noqa: E402
import os  # noqa: E402
import signal  # noqa: E402
import statistics  # noqa: E402
import subprocess  # noqa: E402
import tempfile  # noqa: E402
from collections.abc import Iterator  # noqa: E402

from bench.http import load  # noqa: E402
from bench.server import environment, fresh_postgres, gunicorn, manage, request  # noqa: E402
from tests.support.servers import free_port  # noqa: E402

VARIANTS = "bench.machinery_variants"
PG_URL = os.environ.get("BENCH_POSTGRES_URL", "postgres://postgres@127.0.0.1:5432/zongheng_bench_machinery")
KEEP_SHARE = 0.20
KEEP_MS = 5.0

ENDPOINTS = [
    ("GET /api/cards/?page_size=50", "/api/cards/?page_size=50"),
    ("GET /api/cards/<code>/", "/api/cards/YXJQ-003/"),
    ("card list page /cards/", "/cards/"),
]


def prepare(env: dict[str, str]) -> None:
    manage(env, "migrate", "--noinput")
    manage(env, "loadcatalog")
    manage(env, "collectstatic", "--noinput")
    manage(env, "translations")


def compare(
    env: dict[str, str], with_app: str, without_app: str, total: int, rounds: int, endpoints: list[tuple[str, str]]
) -> dict[str, object]:
    """Each endpoint `rounds` times through each variant, in turns; the median p99 counts."""
    out: dict[str, object] = {}
    with gunicorn(env, workers=1, app=with_app) as on, gunicorn(env, workers=1, app=without_app) as off:
        for name, path in endpoints:
            runs: dict[str, list[dict[str, float]]] = {"with": [], "without": []}
            for _ in range(rounds):
                runs["with"].append(load(on, "GET", path, None, total, 4))
                runs["without"].append(load(off, "GET", path, None, total, 4))
            p99 = {k: statistics.median(r["p99_ms"] for r in v) for k, v in runs.items()}
            p50 = {k: statistics.median(r["p50_ms"] for r in v) for k, v in runs.items()}
            saved = p99["without"] - p99["with"]
            share = saved / p99["without"] if p99["without"] else 0.0
            out[name] = {
                "p50_ms": p50,
                "p99_ms": p99,
                "p99_saved_ms": round(saved, 2),
                "p99_saved_share": round(share, 3),
                "earns_its_place": saved >= KEEP_MS or share >= KEEP_SHARE,
            }
    return out


def compare_one_by_one(
    env: dict[str, str], with_app: str, without_app: str, total: int, path: str
) -> dict[str, object]:
    """`total` requests one after another through each variant (after two to warm it): for a
    Redis that hangs, where each request of the variant without the breaker waits seconds, and a
    load generator's clients would only queue behind one another."""
    p99: dict[str, float] = {}
    p50: dict[str, float] = {}
    with gunicorn(env, workers=1, app=with_app) as on, gunicorn(env, workers=1, app=without_app) as off:
        for name, port in (("with", on), ("without", off)):
            for _ in range(2):
                request(port, "GET", path, None)
            times = sorted(request(port, "GET", path, None) for _ in range(total))
            p50[name] = round(statistics.median(times), 2)
            p99[name] = round(times[min(len(times) - 1, int(len(times) * 0.99))], 2)
    saved = p99["without"] - p99["with"]
    share = saved / p99["without"] if p99["without"] else 0.0
    return {
        path: {
            "p50_ms": p50,
            "p99_ms": p99,
            "p99_saved_ms": round(saved, 2),
            "p99_saved_share": round(share, 3),
            "earns_its_place": saved >= KEEP_MS or share >= KEEP_SHARE,
        }
    }


@contextlib.contextmanager
def own_redis() -> Iterator[tuple[str, subprocess.Popen[bytes]]]:
    """A Redis of its own on a spare port: its address and its process (to freeze)."""
    port = free_port()
    with tempfile.TemporaryDirectory() as folder:
        server = subprocess.Popen(
            ["redis-server", "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--dir", folder],
            stdout=subprocess.DEVNULL,
        )
        try:
            yield f"redis://127.0.0.1:{port}/0", server
        finally:
            server.send_signal(signal.SIGCONT)
            server.terminate()
            server.wait(timeout=10)


def verdict(results: dict[str, object]) -> bool:
    return any(r["earns_its_place"] for r in results.values() if isinstance(r, dict))


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--requests", type=int, default=2000)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--only", choices=["stored", "breaker", "heard"], action="append", help="these pieces alone")
    args = parser.parse_args()
    pieces = set(args.only or ["stored", "breaker", "heard"])
    report: dict[str, object] = {}
    with tempfile.TemporaryDirectory() as tmp:
        env = environment(f"sqlite:///{tmp}/bench.sqlite3")
        if pieces & {"stored", "breaker"}:
            prepare(env)
        if "stored" in pieces:
            stored = compare(
                env, "zongheng.wsgi", f"{VARIANTS}:without_stored_answers()", args.requests, args.rounds, ENDPOINTS
            )
            report["stored answers (SQLite)"] = {"endpoints": stored, "keep": verdict(stored)}
        if "breaker" in pieces:
            # A frozen Redis behind the cache and the throttle counters: met once by the site, then
            # stopped (SIGSTOP), so that every call to it waits for its socket's timeout.
            with own_redis() as (redis_url, redis):
                frozen_env = environment(f"sqlite:///{tmp}/bench.sqlite3", REDIS_URL=redis_url)
                with gunicorn(frozen_env, workers=1) as warm:
                    load(warm, "GET", "/ping/", None, 10, 1)
                redis.send_signal(signal.SIGSTOP)
                breaker = compare_one_by_one(
                    frozen_env, "zongheng.wsgi", f"{VARIANTS}:without_breaker()", 20, ENDPOINTS[0][1]
                )
            report["breaker (Redis frozen)"] = {"endpoints": breaker, "keep": verdict(breaker)}
    if "heard" in pieces:
        if fresh_postgres(PG_URL):
            env = environment(PG_URL)
            prepare(env)
            heard = compare(
                env, "zongheng.wsgi", f"{VARIANTS}:without_heard_version()", args.requests, args.rounds, ENDPOINTS
            )
            report["heard version (PostgreSQL)"] = {"endpoints": heard, "keep": verdict(heard)}
        else:
            report["heard version (PostgreSQL)"] = {"skipped": f"cannot reach {PG_URL}"}
    print(json.dumps(report, ensure_ascii=False, indent=2))


if __name__ == "__main__":
    main()
