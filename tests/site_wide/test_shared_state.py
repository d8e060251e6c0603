"""Several worker processes and a cache that can fail, tested for real: gunicorn with three
workers on a database of its own, and a redis-server of the test's own.

- The catalogue's version lives in the database: after an edit, every worker answers with the
  new data at once (before, each worker kept its own version in memory until a restart).
- Redis going away under load: the site answers uncached, never 5xx.

These start real servers. On a developer's machine without redis-server the outage test is
skipped and says so; in CI (CI=true) a skip is a failure.
"""

from __future__ import annotations

import json
import os
import signal
import threading
import time
from pathlib import Path

import pytest

from tests.support.servers import (
    gunicorn,
    manage,
    redis_server,
    redis_server_binary,
    request,
    server_env,
    wait_until_up,
)

IN_CI = os.environ.get("CI") == "true"


@pytest.fixture(scope="module")
def database(tmp_path_factory) -> str:
    path = Path(tmp_path_factory.mktemp("shared")) / "site.sqlite3"
    url = f"sqlite:///{path}"
    env = server_env(url)
    manage(env, "collectstatic", "--noinput", "-v0")  # production settings serve hashed static files
    manage(env, "migrate", "--noinput", "-v0")
    manage(env, "loadcatalog")
    return url


def _name_of(port: int, code: str) -> str:
    status, body = request(port, "GET", f"/api/cards/{code}/")
    assert status == 200
    return str(json.loads(body)["name"])


@pytest.fixture(params=["sqlite", "postgresql"])
def any_database(request: pytest.FixtureRequest, database: str) -> str:
    """SQLite reads the version's row on every request; PostgreSQL's workers hear a change
    (catalog.cache_version's LISTEN/NOTIFY) and read the row only then."""
    if request.param == "sqlite":
        return database
    url = _postgres_url("zongheng_shared_state_test")
    env = server_env(url)
    manage(env, "migrate", "--noinput", "-v0")
    manage(env, "loadcatalog")
    return url


def test_every_worker_sees_a_catalogue_edit_at_once(any_database: str) -> None:
    env = server_env(any_database)
    with gunicorn(env, workers=3) as port:
        assert {_name_of(port, "YXJQ-003") for _ in range(30)} == {"新兵"}  # every worker has it cached
        # An edit made elsewhere (another server's admin): the data and the version change.
        manage(
            env,
            "shell",
            "-c",
            (
                "from django.db import transaction\n"
                "from catalog import cache_version\n"
                "from catalog.models import Card, rebuild_search_keys\n"
                "card = Card.objects.get(code='YXJQ-003'); card.name = '新兵甲'; card.compute_derived(); card.save()\n"
                "rebuild_search_keys([card]); cache_version.bump()\n"
            ),
        )
        assert {_name_of(port, "YXJQ-003") for _ in range(60)} == {"新兵甲"}
        verdicts = set()
        for _ in range(30):
            status, body = request(
                port, "POST", "/api/legality/", {"format": "standard", "list": "武將: 劉備\n3 新兵甲"}
            )
            verdicts.add((status, "unknown_card" in body.decode()))
        assert verdicts == {(200, False)}  # the new name is known to every worker


@pytest.mark.skipif(not IN_CI and redis_server_binary() is None, reason="no redis-server on this machine")
@pytest.mark.parametrize("outage", ["killed", "frozen"])
def test_redis_going_down_under_load_gives_no_5xx(database: str, outage: str) -> None:
    """Killed: connections are refused. Frozen (SIGSTOP, like a Redis that hangs or a network
    that drops packets): only the client's timeouts (REDIS_TIMEOUT) keep requests moving."""
    with redis_server() as (redis_port, redis):
        env = server_env(database, REDIS_URL=f"redis://127.0.0.1:{redis_port}/0")
        with gunicorn(env, workers=2) as port:
            statuses: list[int] = []
            answered_at: list[float] = []
            failures: list[str] = []
            stop = time.monotonic() + 6
            paths = [
                ("GET", "/cards/", None),
                ("GET", "/api/cards/?page_size=20", None),
                ("GET", "/api/sets/", None),
                ("POST", "/api/legality/", {"list": "武將: 劉備\n3 YXJQ-003"}),
                ("GET", "/cards/YXJQ-003/", None),
            ]

            def client() -> None:
                i = 0
                while time.monotonic() < stop:
                    method, path, body = paths[i % len(paths)]
                    try:
                        statuses.append(request(port, method, path, body)[0])
                        answered_at.append(time.monotonic())
                    except OSError as error:  # a stalled request times out here
                        failures.append(f"{method} {path}: {error!r}")
                    i += 1

            threads = [threading.Thread(target=client) for _ in range(4)]
            for thread in threads:
                thread.start()
            time.sleep(2)
            # the cache goes away mid-load
            outage_at = time.monotonic()
            if outage == "killed":
                redis.kill()
                redis.wait()
            else:
                redis.send_signal(signal.SIGSTOP)
            for thread in threads:
                thread.join(timeout=60)
            if outage == "frozen":
                redis.send_signal(signal.SIGCONT)
    assert failures == []
    assert len(statuses) > 50
    assert [s for s in statuses if s >= 500] == []
    # Slower without the cache, never stalled: a cache that is gone costs a refused connection
    # or a short timeout, so the site kept answering (a stalled one answers none after it).
    assert len([at for at in answered_at if at > outage_at]) >= 20


def _postgres_url(name: str) -> str:
    """A new, empty PostgreSQL database; skipped without PostgreSQL (failed in CI)."""
    try:
        import psycopg

        with psycopg.connect("postgresql://postgres@127.0.0.1:5432/postgres", autocommit=True, connect_timeout=3) as c:
            c.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
            c.execute(f'CREATE DATABASE "{name}"')
    except Exception:
        if IN_CI:
            pytest.fail("PostgreSQL is not reachable in CI")
        pytest.skip("no PostgreSQL on this machine")
    return f"postgres://postgres@127.0.0.1:5432/{name}"


@pytest.mark.parametrize("engine", ["sqlite", "postgresql"])
def test_servers_starting_together_on_an_empty_database_end_with_one_catalogue(engine: str, tmp_path) -> None:
    import subprocess

    from tests.support.servers import PYTHON, ROOT

    url = f"sqlite:///{tmp_path / 'fresh.sqlite3'}" if engine == "sqlite" else _postgres_url("zongheng_startup_test")
    env = server_env(url)
    step = f"{PYTHON} manage.py migrate --noinput -v0 && {PYTHON} manage.py loadcatalog"
    starts = [
        subprocess.Popen(["bash", "-c", step], cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        for _ in range(3)
    ]
    outcomes = [(p.wait(timeout=300), p.stderr.read().decode()[-500:]) for p in starts]
    assert [code for code, _ in outcomes] == [0, 0, 0], outcomes
    count = manage(
        env,
        "shell",
        "-c",
        "from catalog.models import Card, CatalogState; "
        "print(Card.objects.count(), Card.objects.values('code').distinct().count(), CatalogState.objects.count())",
    )
    from tests.support.catalogue import CARD_COUNT

    assert count.strip().splitlines()[-1].split() == [str(CARD_COUNT), str(CARD_COUNT), "1"]


def test_health_and_readiness_answer_without_logging_throttle_or_cache(client, settings, db) -> None:
    from django.test import override_settings

    assert client.get("/healthz").json() == {"ok": True}
    ready = client.get("/readyz")
    assert ready.status_code == 200 and ready.json()["ok"] is True and ready.json()["down"] == []
    assert "no-store" in ready["Cache-Control"]
    broken = {
        "default": {"BACKEND": "webutil.cache.ResilientRedisCache", "LOCATION": "redis://127.0.0.1:1/0"},
        "throttle": settings.CACHES["throttle"],
    }
    with override_settings(CACHES=broken):
        down = client.get("/readyz")
        assert down.status_code == 503 and down.json()["down"] == ["cache"]
        assert client.get("/api/sets/").status_code == 200  # the site itself serves on, uncached


def test_health_checks_stay_out_of_the_access_log(database: str, tmp_path) -> None:
    import subprocess

    from tests.support.servers import GUNICORN, ROOT, free_port

    port, log = free_port(), tmp_path / "access.log"
    process = subprocess.Popen(
        [
            GUNICORN,
            "zongheng.wsgi",
            "-c",
            "zongheng/gunicorn_conf.py",
            "--bind",
            f"127.0.0.1:{port}",
            "--workers",
            "1",
            "--access-logfile",
            str(log),
        ],
        cwd=ROOT,
        env=server_env(database),
    )
    try:
        wait_until_up(port)
        assert request(port, "GET", "/healthz")[0] == 200 and request(port, "GET", "/readyz")[0] == 200
        request(port, "GET", "/api/sets/")
    finally:
        process.terminate()
        process.wait(timeout=30)
    lines = log.read_text()
    assert "/api/sets/" in lines and "/healthz" not in lines and "/readyz" not in lines
