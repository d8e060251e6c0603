"""The cluster of `make cluster` (deploy/cluster.py), driven for real: two gunicorn servers that
started together on an empty PostgreSQL database, sharing Redis and an S3 store, behind haproxy.
Journeys alternate between the servers; then one server is killed with SIGKILL under load.

Skipped on a machine without haproxy, PostgreSQL or Redis (it says which); in CI a skip fails."""

from __future__ import annotations

import http.client
import http.cookiejar
import io
import json
import os
import re
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Iterator
from typing import Any

import pytest

from deploy.cluster import Cluster, cluster, drop_database, haproxy_binary
from tests.support.image_helpers import picture_bytes
from tests.support.servers import manage

IN_CI = os.environ.get("CI") == "true"
DATABASE = "postgres://postgres@127.0.0.1:5432/zongheng_cluster_test"
REDIS = "redis://127.0.0.1:6379/14"
PASSWORD = "a-long-cluster-password-1"
pytestmark = pytest.mark.once  # heavy: one of CI's two passes runs it


def _missing() -> str | None:
    if haproxy_binary() is None:
        return "haproxy is not installed"
    try:
        import psycopg

        psycopg.connect("postgresql://postgres@127.0.0.1:5432/postgres", connect_timeout=3).close()
    except Exception:
        return "no PostgreSQL on 127.0.0.1:5432"
    try:
        import redis

        redis.Redis.from_url(REDIS, socket_connect_timeout=2).ping()
    except Exception:
        return "no Redis on 127.0.0.1:6379"
    return None


@pytest.fixture(scope="module")
def running() -> Iterator[Cluster]:
    missing = _missing()
    if missing:
        if IN_CI:
            pytest.fail(f"the cluster test must run in CI: {missing}")
        pytest.skip(f"cluster test skipped: {missing}")
    drop_database(DATABASE)  # an empty database: both servers migrate and load it at once
    import redis

    redis.Redis.from_url(REDIS).flushdb()  # no cache or throttle counts of an earlier run
    # The load test sends hundreds of requests a second: throttling is tested on its own.
    unthrottled = {"API_THROTTLE_ANON": "100000000/minute", "API_THROTTLE_USER": "100000000/minute"}
    with cluster(DATABASE, REDIS, extra_env=unthrottled) as found:
        script = (
            "from django.contrib.auth import get_user_model; from rest_framework.authtoken.models import Token; "
            "U = get_user_model(); "
            f"a = U.objects.create_user('ada', password='{PASSWORD}'); "
            f"c = U.objects.create_user('cora', password='{PASSWORD}', is_staff=True); "
            "print(Token.objects.create(user=a).key, Token.objects.create(user=c).key)"
        )
        tokens = manage(found.env, "shell", "-c", script).split()
        found.env["ADA_TOKEN"], found.env["CORA_TOKEN"] = tokens[-2], tokens[-1]
        yield found
    drop_database(DATABASE)


def _call(url: str, method: str = "GET", body: Any = None, token: str | None = None) -> tuple[int, Any]:
    data = json.dumps(body).encode() if body is not None else None
    request = urllib.request.Request(url, data=data, method=method)
    if body is not None:
        request.add_header("Content-Type", "application/json")
    if token:
        request.add_header("Authorization", f"Token {token}")
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            raw = response.read()
            kind = response.headers.get("Content-Type", "")
            return response.status, json.loads(raw) if kind.startswith("application/json") else raw
    except urllib.error.HTTPError as error:
        return error.code, error.read()


def test_both_servers_started_on_one_empty_database_with_one_catalogue(running: Cluster) -> None:
    from tests.support.catalogue import CARD_COUNT

    for server in ("a", "b"):
        status, body = _call(f"{running.url(server)}/api/cards/?page_size=1")
        assert status == 200 and body["count"] == CARD_COUNT


def test_log_in_on_one_server_and_count_a_card_on_the_other(running: Cluster) -> None:
    # The servers run as in production, with Secure cookies; this client talks plain HTTP on
    # loopback, so it sends them anyway (a browser would be behind the TLS proxy).
    class LoopbackPolicy(http.cookiejar.DefaultCookiePolicy):
        def return_ok_secure(self, cookie, request) -> bool:
            return True

        def set_ok(self, cookie, request) -> bool:
            return True

    jar = http.cookiejar.CookieJar(policy=LoopbackPolicy())
    browser = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))
    page = browser.open(f"{running.url('a')}/accounts/login/", timeout=30).read().decode()
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page).group(1)
    form = urllib.parse.urlencode({"csrfmiddlewaretoken": token, "username": "ada", "password": PASSWORD}).encode()
    login = urllib.request.Request(
        f"{running.url('a')}/accounts/login/", data=form, headers={"Referer": running.url("a")}
    )
    browser.open(login, timeout=30)
    assert any(c.name == "sessionid" for c in jar)
    csrf = next(c.value for c in jar if c.name == "csrftoken")
    plus = urllib.request.Request(
        f"{running.url('b')}/collection/cards/YXJQ-003/",
        data=urllib.parse.urlencode({"action": "inc", "csrfmiddlewaretoken": csrf}).encode(),
        headers={"Referer": running.url("b")},
    )
    browser.open(plus, timeout=30)
    status, entry = _call(f"{running.url('a')}/api/collection/YXJQ-003/", token=running.env["ADA_TOKEN"])
    assert status == 200 and entry["quantity"] == 1


def test_a_picture_sent_to_one_server_is_served_by_the_other_and_a_change_shows_at_once(running: Cluster) -> None:
    ada, cora = running.env["ADA_TOKEN"], running.env["CORA_TOKEN"]
    code = urllib.parse.quote("五道·004")
    status, proposal = _call(
        f"{running.url('a')}/api/cards/{code}/proposals/", "POST", {"facts": {"cost": 4}, "note": "my copy"}, ada
    )
    assert status == 201, proposal
    boundary = "zongheng-cluster-boundary"
    body = io.BytesIO()
    for name, value in (("side", b"front"),):
        body.write(f'--{boundary}\r\nContent-Disposition: form-data; name="{name}"\r\n\r\n'.encode() + value + b"\r\n")
    body.write(
        f'--{boundary}\r\nContent-Disposition: form-data; name="image"; filename="f.png"\r\n'
        "Content-Type: image/png\r\n\r\n".encode()
        + picture_bytes("PNG", (300, 420))
        + f"\r\n--{boundary}--\r\n".encode()
    )
    upload = urllib.request.Request(
        f"{running.url('a')}/api/proposals/{proposal['id']}/photos/",
        data=body.getvalue(),
        headers={"Content-Type": f"multipart/form-data; boundary={boundary}", "Authorization": f"Token {ada}"},
    )
    with urllib.request.urlopen(upload, timeout=30) as response:
        assert response.status == 201
    # The worker prepares the photo first; until then a curator is asked to come back (409).
    for _ in range(120):
        status, approved = _call(f"{running.url('b')}/api/proposals/{proposal['id']}/approve/", "POST", {}, cora)
        if status != 409:
            break
        time.sleep(0.5)
    assert status == 200 and approved["status"] == "approved"
    for _ in range(10):  # every answer of the other server, at once
        status, card = _call(f"{running.url('a')}/api/cards/{code}/")
        assert status == 200 and card["cost"] == 4
    url = card["pictures"]["front"]["url"]
    for server in ("a", "b"):
        status, picture = _call(f"{running.url(server)}{url}")
        assert status == 200 and picture[:4] == b"RIFF"


@pytest.mark.destructive
def test_killing_one_server_under_load_fails_only_requests_in_flight(running: Cluster) -> None:
    results: list[int] = []
    stop = threading.Event()

    def client() -> None:
        while not stop.is_set():
            try:
                status, _body = _call(f"{running.url()}/api/cards/?page_size=5")
            except (OSError, http.client.HTTPException):  # refused, reset, or cut off mid-answer
                status = 0
            results.append(status)

    threads = [threading.Thread(target=client) for _ in range(4)]
    for thread in threads:
        thread.start()
    time.sleep(2)
    before = len(results)
    running.kill("a")
    killed_at = len(results)
    time.sleep(4)
    after_settling = len(results)
    time.sleep(2)
    stop.set()
    for thread in threads:
        thread.join(timeout=30)
    assert before > 20 and all(s == 200 for s in results[:before])
    failures = [s for s in results[killed_at:after_settling] if s != 200]
    assert len(failures) <= 4 * 2, failures  # at most the requests in flight (4 clients)
    assert results[after_settling:] and all(s == 200 for s in results[after_settling:])  # routed around
