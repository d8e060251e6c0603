"""What the HTTP benchmarks share: a production-like environment, gunicorn on a spare loopback
port, and a small load generator (threads, one connection a request) that reports p50/p99."""

from __future__ import annotations

import contextlib
import http.client
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator

# The tests' own servers start the same way: their constants and port picking serve here too.
from tests.support.servers import GUNICORN, PYTHON, ROOT, free_port


def environment(database_url: str, **extra: str) -> dict[str, str]:
    """Production settings (DEBUG off) on `database_url`, with the API throttles out of the way:
    a benchmark measures the pages, not the limit on how often one client may ask."""
    env = {k: v for k, v in os.environ.items() if k not in ("DEBUG", "DATABASE_URL")}
    env.update(
        {
            "DEBUG": "0",
            "SECRET_KEY": "bench-only-" + "k" * 50,
            "ALLOWED_HOSTS": "127.0.0.1,testserver",
            "SECURE_SSL_REDIRECT": "0",
            "DATABASE_URL": database_url,
            "LOG_LEVEL": "ERROR",
            "API_THROTTLE_ANON": "100000000/minute",
            "API_THROTTLE_USER": "100000000/minute",
            **extra,
        }
    )
    return env


def fresh_postgres(url: str) -> bool:
    """Drop and create the database of `url`; False (and said so) when PostgreSQL is not there."""
    try:
        import psycopg

        with psycopg.connect(url.rsplit("/", 1)[0] + "/postgres", autocommit=True, connect_timeout=3) as conn:
            name = url.rsplit("/", 1)[1]
            conn.execute(f'DROP DATABASE IF EXISTS "{name}"')
            conn.execute(f'CREATE DATABASE "{name}"')
        return True
    except Exception as exc:
        print(f"PostgreSQL skipped: {exc}", file=sys.stderr)
        return False


def manage(env: dict[str, str], *args: str) -> None:
    subprocess.run([PYTHON, "manage.py", *args], cwd=ROOT, env=env, check=True, capture_output=True)


def request(
    port: int, method: str, path: str, body: str | None, headers: dict[str, str] | None = None, expect: int = 200
) -> float:
    """One request on a new connection; its latency in ms. Any other status than `expect` is an
    error: a benchmark of error pages measures nothing."""
    start = time.perf_counter()
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    sent = dict(headers or {})
    if body and "Content-Type" not in sent:
        sent["Content-Type"] = "application/json"
    conn.request(method, path, body=body.encode() if body else None, headers=sent)
    response = conn.getresponse()
    response.read()
    conn.close()
    if response.status != expect:
        raise RuntimeError(f"{method} {path}: {response.status}")
    return (time.perf_counter() - start) * 1000


def drive(
    port: int,
    method: str,
    path: str,
    body: str | None,
    total: int,
    concurrency: int,
    headers: dict[str, str] | None = None,
) -> dict[str, float]:
    """`total` requests from `concurrency` clients at once, after a warm-up."""

    def warm_up() -> None:
        for _ in range(10):
            request(port, method, path, body, headers)

    # Every worker is warmed (imports, caches, connections) by as many clients at once as the
    # measure has: requests one after another mostly reach the same idle worker, and another one
    # then paid for its first requests inside the figures.
    warming = [threading.Thread(target=warm_up) for _ in range(concurrency)]
    for t in warming:
        t.start()
    for t in warming:
        t.join()
    latencies: list[float] = []
    lock = threading.Lock()
    remaining = [total]
    failures: list[BaseException] = []

    def worker() -> None:
        while True:
            with lock:
                if remaining[0] == 0 or failures:
                    return
                remaining[0] -= 1
            try:
                elapsed = request(port, method, path, body, headers)
            except Exception as exc:
                failures.append(exc)
                return
            with lock:
                latencies.append(elapsed)

    start = time.perf_counter()
    threads = [threading.Thread(target=worker) for _ in range(concurrency)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    if failures:
        raise RuntimeError(str(failures[0]))
    wall = time.perf_counter() - start
    latencies.sort()
    return {
        "requests": total,
        "requests_per_s": round(total / wall, 1),
        "p50_ms": round(statistics.median(latencies), 2),
        "p99_ms": round(latencies[min(len(latencies) - 1, int(len(latencies) * 0.99))], 2),
    }


@contextlib.contextmanager
def gunicorn(env: dict[str, str], workers: int, app: str = "zongheng.wsgi", ready: str = "/ping/") -> Iterator[int]:
    """gunicorn (sync workers) serving `app` on a spare port, answering; yields the port."""
    port = free_port()
    # The server's own log goes to a file (a pipe nobody reads would fill and stall it), shown
    # when something fails.
    log = tempfile.TemporaryFile()  # noqa: SIM115  # closed in the finally below, after the server
    server = subprocess.Popen(
        [
            *(GUNICORN, app, "--workers", str(workers), "--worker-class", "sync"),
            *("--bind", f"127.0.0.1:{port}", "--log-level", "warning"),
        ],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=log,
    )
    try:
        deadline = time.time() + 30
        while True:
            try:
                request(port, "GET", ready, None)
                break
            except (OSError, RuntimeError):
                if time.time() > deadline or server.poll() is not None:
                    raise RuntimeError("gunicorn did not start") from None
                time.sleep(0.2)
        yield port
    except BaseException:
        log.seek(0)
        print(log.read().decode(errors="replace")[-4000:], file=sys.stderr)
        raise
    finally:
        server.terminate()
        try:
            server.wait(timeout=10)
        except subprocess.TimeoutExpired:
            server.kill()
        log.close()
