"""A database that cannot be reached answers 503 with Retry-After, never 500: in-process (every
query fails, as with SQLite locked past its timeout), and for real, a PostgreSQL of the test's
own stopped under load behind gunicorn, then started again."""

from __future__ import annotations

import http.client
import threading
import time

import pytest
from django.db import OperationalError
from django.db.backends.utils import CursorWrapper
from django.test import Client

from tests.support.servers import gunicorn, manage, postgres_binaries, postgres_server, server_env


def _refuse(*args: object, **kwargs: object) -> None:
    raise OperationalError("database is locked")


@pytest.mark.django_db
@pytest.mark.parametrize("address", ["/cards/", "/cards/YXJQ-003/", "/decks/", "/changes/"])
def test_a_page_answers_503_in_every_language_when_the_database_fails(
    monkeypatch: pytest.MonkeyPatch, address: str
) -> None:
    client = Client(raise_request_exception=False)
    monkeypatch.setattr(CursorWrapper, "execute", _refuse)
    monkeypatch.setattr(CursorWrapper, "executemany", _refuse)
    response = client.get(address, HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 503 and response["Retry-After"] == "10"
    html = response.content.decode()
    assert "資料庫暫時無法連線" in html and "数据库暂时无法连接" in html and "cannot be reached" in html


@pytest.mark.django_db
def test_the_api_answers_503_as_json(monkeypatch: pytest.MonkeyPatch) -> None:
    client = Client(raise_request_exception=False)
    monkeypatch.setattr(CursorWrapper, "execute", _refuse)
    for method, address in (("get", "/api/cards/"), ("post", "/api/legality/")):
        response = getattr(client, method)(
            address, {"list": "3 新兵"} if method == "post" else None, content_type="application/json"
        )
        assert response.status_code == 503 and response["Retry-After"] == "10"
        assert "try again" in response.json()["detail"]


@pytest.mark.django_db
def test_another_fault_is_still_a_500(monkeypatch: pytest.MonkeyPatch) -> None:
    client = Client(raise_request_exception=False)

    def broken(*args: object, **kwargs: object) -> None:
        raise ZeroDivisionError

    monkeypatch.setattr(CursorWrapper, "execute", broken)
    assert client.get("/cards/").status_code == 500


def _status(port: int, path: str) -> tuple[int, str | None]:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        connection.request("GET", path)
        response = connection.getresponse()
        response.read()
        return response.status, response.getheader("Retry-After")
    finally:
        connection.close()


@pytest.mark.once
@pytest.mark.skipif(postgres_binaries() is None, reason="no PostgreSQL binaries (initdb, pg_ctl) on this machine")
def test_a_postgresql_restart_under_load_gives_503_never_500() -> None:
    with postgres_server() as postgres:
        env = server_env(postgres.url, CONN_MAX_AGE="60")
        manage(env, "migrate", "--noinput", "-v0")
        manage(env, "loadcatalog")
        manage(env, "collectstatic", "--noinput", "-v0")
        with gunicorn(env, workers=2) as port:
            answers: list[tuple[int, str | None]] = []
            stop = time.monotonic() + 8
            paths = ["/cards/", "/api/cards/?page_size=20", "/cards/YXJQ-003/", "/api/sets/", "/decks/"]

            def client() -> None:
                i = 0
                while time.monotonic() < stop:
                    answers.append(_status(port, paths[i % len(paths)]))
                    i += 1

            threads = [threading.Thread(target=client) for _ in range(3)]
            for thread in threads:
                thread.start()
            time.sleep(1.5)
            postgres.stop()
            time.sleep(2.5)
            postgres.start()
            for thread in threads:
                thread.join(timeout=60)
            after = [_status(port, p)[0] for p in paths]
    statuses = [status for status, _retry in answers]
    assert len(statuses) > 30
    assert [s for s in statuses if s >= 500 and s != 503] == []
    assert 503 in statuses, "the outage was not seen"
    assert all(retry == "10" for status, retry in answers if status == 503)
    assert after == [200] * len(paths)  # back once the database is
