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
import threading
import time
from pathlib import Path

import pytest

from tests.servers import gunicorn, manage, redis_server, redis_server_binary, request, server_env

IN_CI = os.environ.get("CI") == "true"


@pytest.fixture(scope="module")
def database(tmp_path_factory) -> str:  # type: ignore[no-untyped-def]
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


def test_every_worker_sees_a_catalogue_edit_at_once(database: str) -> None:
    env = server_env(database)
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
def test_redis_going_down_under_load_gives_no_5xx(database: str) -> None:
    with redis_server() as (redis_port, redis):
        env = server_env(database, REDIS_URL=f"redis://127.0.0.1:{redis_port}/0")
        with gunicorn(env, workers=2) as port:
            statuses: list[int] = []
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
                    statuses.append(request(port, method, path, body)[0])
                    i += 1

            threads = [threading.Thread(target=client) for _ in range(4)]
            for thread in threads:
                thread.start()
            time.sleep(2)
            redis.kill()  # the cache goes away mid-load
            redis.wait()
            for thread in threads:
                thread.join(timeout=60)
    assert len(statuses) > 50
    assert [s for s in statuses if s >= 500] == []
