"""The faults a probe of the running site found, each through the real stack: a search whose cost
grew past any request (the `t:` term 49 times), a forged cursor, SQL that outlives its request,
workers that never give memory back. (The deck-picture cache is tested in tests/decks, the league's
removed members in tests/league.)"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.db import connection
from django.test import Client

from catalog import query
from tests.support.deck_helpers import make_deck
from webutil import bounds, query_time

pytestmark = pytest.mark.django_db
ROOT = Path(__file__).resolve().parents[2]
LONG_CHAIN = " ".join(["t:a"] * 49)  # 195 characters: within the length, not the terms


@pytest.mark.parametrize(
    ("url", "field"),
    [("/api/cards/?q=", "q"), ("/api/decks/{deck}/odds/?k=1&q=", "q")],
)
def test_a_search_past_its_bounds_is_a_400_that_names_the_bound(alice, english, url: str, field: str) -> None:
    deck = make_deck(alice, public=True)
    client = Client()
    answer = client.get(url.format(deck=deck.pk) + LONG_CHAIN)
    assert answer.status_code == 400, answer.content
    assert "at most 12 terms; this one has 49" in answer.content.decode()
    assert client.get(url.format(deck=deck.pk) + "(" * 6 + "a" + ")" * 6).status_code == 400
    assert client.get(url.format(deck=deck.pk) + "x" * 201).status_code == 400
    assert client.get(url.format(deck=deck.pk) + " ".join(["t:傷害"] * 12)).status_code == 200


def test_the_cards_page_says_what_bound_a_search_passed(english) -> None:
    page = Client().get("/cards/", {"q": LONG_CHAIN})
    assert page.status_code in (200, 400) and "at most 12 terms" in page.content.decode()


def test_the_bounds_are_declared_and_checked_where_a_query_is_read(english) -> None:
    assert {"query terms", "query depth", "query characters"} <= {b.key for b in bounds.registered()}
    with pytest.raises(query.QueryError, match="12 terms"):
        query.parse(" ".join(["a"] * 13))
    assert query.parse("-(-(a or b))") is not None  # four levels are allowed


def test_a_forged_cursor_is_a_400() -> None:
    answer = Client().get("/api/decks/?cursor=cD1hYmM=")
    assert answer.status_code == 400 and "cursor" in answer.json()


def test_sql_past_the_request_s_time_bound_answers_503_with_retry_after(english, monkeypatch) -> None:
    client = Client(raise_request_exception=False)
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:  # this test's transaction only: rolled back after it
            cursor.execute("SET statement_timeout = 1")
        answer = client.get(
            "/api/cards/",
            {"q": " ".join(f"t:{w}" for w in ["傷害", "摸", "牌", "回合", "部隊", "錦囊", "武將", "攻擊"])},
        )
    else:
        monkeypatch.setattr(query_time, "WEB_SECONDS", bounds.Bound("request query time", -1, "seconds", ""))
        monkeypatch.setattr(query_time, "_STEPS", 10)  # the clock is read often: any query is past it
        monkeypatch.setattr(query_time._local, "watched", None, raising=False)
        answer = client.get("/api/cards/", {"q": "新兵"})
    assert answer.status_code == 503 and answer["Retry-After"] == "10"
    assert "took longer than any may" in answer.json()["detail"]


@pytest.mark.skipif(connection.vendor != "postgresql", reason="statement_timeout is PostgreSQL's")
def test_the_web_server_s_connections_carry_the_statement_timeout() -> None:
    # zongheng.wsgi (gunicorn, runserver) gives each connection the bound as it opens.
    settings = connection.settings_dict
    url = f"postgres://{settings['USER']}@{settings['HOST']}:{settings['PORT']}/{settings['NAME']}"
    code = (
        "import zongheng.wsgi; from django.db import connection; c = connection.cursor(); "
        "c.execute('SHOW statement_timeout'); print(c.fetchone()[0])"
    )
    shown = subprocess.run(
        [sys.executable, "-c", code],
        cwd=ROOT,
        env={**os.environ, "DATABASE_URL": url},
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    assert shown.stdout.strip() == f"{int(query_time.WEB_SECONDS)}s"


def test_background_work_on_sqlite_stops_a_statement_past_its_own_bound(tmp_path) -> None:
    # The worker's process (manage.py worker calls for_work), with the bound cut to a moment: a
    # query that never ends is interrupted; the next one runs.
    code = (
        "import django; django.setup(); from webutil import bounds, query_time; "
        "query_time.WORK_SECONDS = bounds.Bound('work query time', 0.2, 'seconds', ''); "
        "query_time.for_work(); from django.db import connection, OperationalError; c = connection.cursor()\n"
        "try:\n"
        "    c.execute('WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n) SELECT count(*) FROM n')\n"
        "except OperationalError as error:\n"
        "    print('stopped', query_time.stopped_for_time(error))\n"
        "c.execute('SELECT 1'); print('then', c.fetchone()[0])"
    )
    env = {
        **os.environ,
        "DATABASE_URL": f"sqlite:///{tmp_path}/work.sqlite3",
        "DJANGO_SETTINGS_MODULE": "zongheng.settings",
    }
    shown = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, timeout=60, check=True
    )
    assert shown.stdout.split() == ["stopped", "True", "then", "1"]


def test_for_web_adds_the_timeout_to_postgresql_connections_only() -> None:
    databases = {"default": {"ENGINE": "django.db.backends.postgresql", "OPTIONS": {"options": "-c x=1"}}}
    query_time.for_web(databases)
    assert databases["default"]["OPTIONS"]["options"] == "-c x=1 -c statement_timeout=10000"
    sqlite = {"default": {"ENGINE": "django.db.backends.sqlite3"}}
    query_time.for_web(sqlite)
    assert "OPTIONS" not in sqlite["default"]


def test_gunicorn_recycles_its_workers_with_jitter(monkeypatch, tmp_path) -> None:
    from gunicorn.config import Config

    # The settings file names a metrics directory when none is set; in this process that would
    # turn prometheus_client to multiprocess mode for every later test.
    monkeypatch.setenv("PROMETHEUS_MULTIPROC_DIR", str(tmp_path))
    config = Config()
    namespace: dict[str, object] = {}
    exec((ROOT / "zongheng" / "gunicorn_conf.py").read_text(encoding="utf-8"), namespace)  # as gunicorn -c does
    for name in ("max_requests", "max_requests_jitter", "timeout"):
        config.set(name, namespace[name])
    assert config.max_requests >= 100 and config.max_requests_jitter > 0 and config.timeout <= 60
