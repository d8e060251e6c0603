"""API throttles that cannot be skipped: no trust in X-Forwarded-For unless configured, cached
answers throttled like any other, cache keys from known parameters only, counters that a full
response cache cannot evict, and a per-process limit when the cache is unreachable."""

from __future__ import annotations

import time

import pytest
from django.core.cache import caches
from django.test import Client, RequestFactory, override_settings
from rest_framework.throttling import SimpleRateThrottle

from webutil.throttling import client_ip

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("local_caches")]


@pytest.fixture
def three_a_minute(monkeypatch):
    monkeypatch.setitem(SimpleRateThrottle.THROTTLE_RATES, "anon", "3/minute")


def test_a_spoofed_forwarded_for_gives_no_fresh_budget(client: Client, three_a_minute) -> None:
    statuses = [client.get("/api/sets/", HTTP_X_FORWARDED_FOR=f"198.51.100.{i}").status_code for i in range(5)]
    assert statuses == [200, 200, 200, 429, 429]


def test_cached_answers_are_throttled_too(client: Client, three_a_minute) -> None:
    assert client.get("/api/cards/YXJQ-001/").status_code == 200  # now cached
    statuses = [client.get("/api/cards/YXJQ-001/").status_code for _ in range(3)]
    assert statuses == [200, 200, 429]


def test_unknown_parameters_are_not_keyed(client: Client) -> None:
    first = client.get("/api/cards/?kind=troop")
    keys_before = len(caches["default"]._cache)
    for fill in range(20):
        again = client.get(f"/api/cards/?kind=troop&fill={fill}")
        assert again["ETag"] == first["ETag"]
    assert len(caches["default"]._cache) == keys_before
    # known parameters in another order are the same answer
    assert (
        client.get("/api/cards/?set=YXJQ&kind=troop")["ETag"] == client.get("/api/cards/?kind=troop&set=YXJQ")["ETag"]
    )


def test_the_response_cache_is_bounded(client: Client, monkeypatch) -> None:
    from catalog import stored_answers

    monkeypatch.setattr(stored_answers, "STORE_BUDGET", 50_000)
    for page in range(1, 5):
        assert client.get(f"/api/cards/?page_size=100&cost_max={page}").status_code == 200
    # the views' bodies and the whole answers kept for anonymous clients share one budget
    stored = [
        k for k in caches["default"]._cache if ("catalog-api:" in k or "catalog-answer:" in k) and ":stored:" not in k
    ]
    sizes = sum(len(caches["default"].get(k.split(":", 2)[-1])[0]) for k in stored)
    assert stored and sizes <= 50_000


def test_throttle_counters_survive_a_full_response_cache(client: Client, three_a_minute) -> None:
    assert [client.get("/api/sets/").status_code for _ in range(3)] == [200] * 3
    default = caches["default"]
    for i in range(5000):  # more than the default cache holds: it culls
        default.set(f"filler:{i}", i)
    assert client.get("/api/sets/").status_code == 429


@override_settings(
    CACHES={
        "default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"},
        "throttle": {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": "redis://127.0.0.1:1/0"},
    }
)
def test_an_unreachable_throttle_cache_falls_back_to_a_per_process_limit(client: Client, three_a_minute) -> None:
    statuses = [client.get("/api/sets/", REMOTE_ADDR="192.0.2.77").status_code for _ in range(4)]
    assert statuses == [200, 200, 200, 429]
    # log-ins are counted in the process too
    for _ in range(10):
        client.post("/accounts/login/", {"username": "ghost", "password": "x"}, REMOTE_ADDR="192.0.2.78")
    assert (
        client.post("/accounts/login/", {"username": "ghost", "password": "x"}, REMOTE_ADDR="192.0.2.78").status_code
        == 429
    )


@pytest.mark.parametrize(
    ("trusted", "forwarded", "expected"),
    [
        (0, "203.0.113.9", "127.0.0.1"),
        (1, "203.0.113.9", "203.0.113.9"),
        (1, "6.6.6.6, 203.0.113.9", "203.0.113.9"),  # the client wrote 6.6.6.6 itself
        (2, "6.6.6.6, 203.0.113.9, 10.0.0.2", "203.0.113.9"),
    ],
)
def test_the_client_address_comes_from_trusted_proxies_only(
    settings, trusted: int, forwarded: str, expected: str
) -> None:
    settings.TRUSTED_PROXIES = trusted
    request = RequestFactory().get("/", HTTP_X_FORWARDED_FOR=forwarded, REMOTE_ADDR="127.0.0.1")
    assert client_ip(request) == expected


def test_a_throttle_keeps_one_number_a_client_however_many_requests(client: Client, monkeypatch) -> None:
    # DRF's own throttle kept the time of every request in the window as one list, read and
    # written whole on each request; the counter is one number, and a 429 says how long to wait.
    monkeypatch.setitem(SimpleRateThrottle.THROTTLE_RATES, "anon", "50/minute")
    statuses = [client.get("/api/sets/").status_code for _ in range(52)]
    assert statuses == [200] * 50 + [429, 429]
    assert caches["throttle"].get("throttle_anon_127.0.0.1") == 52
    refused = client.get("/api/sets/")
    assert refused.status_code == 429 and 0 < int(refused["Retry-After"]) <= 60


def test_a_window_begins_with_its_first_event_not_with_the_clock(monkeypatch) -> None:
    # Ten failures from 14:59:59.5 to 15:00:00.4 are ten in one window: a window aligned to the
    # clock counted five and five, and let a guesser through twice the limit.
    from webutil import throttling

    now = [899.5]
    monkeypatch.setattr(time, "time", lambda: now[0])
    limit = throttling.Limit(10, 900)
    hits = []
    for i in range(10):
        now[0] = 899.5 + i / 10
        hits.append(throttling.hit("t:burst", limit))
    assert hits == [None] * 10
    wait = throttling.blocked("t:burst", limit)
    assert wait is not None and 899 <= wait <= 900  # counted from the first failure, at 899.5
