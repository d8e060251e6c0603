"""Who a request comes from, and counters that limit how often they may do something.

The client address comes from REMOTE_ADDR, or from X-Forwarded-For only as far as the configured
number of trusted proxies (TRUSTED_PROXIES, default 0): a header the client wrote itself must
never give it a fresh budget. Counters live in their own cache alias ("throttle"), which nothing
else fills, so that a flood of cached answers cannot evict them. When that cache cannot be
reached, a per-process counter takes over for a few seconds (webutil.breaker): slower to agree
between workers, but never no limit.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, MutableMapping
from dataclasses import dataclass
from typing import Any, TypeVar, cast

from django.conf import settings
from django.core.cache import caches
from django.core.cache.backends.base import BaseCache
from django.core.cache.backends.locmem import LocMemCache
from django.http import HttpRequest
from redis.exceptions import RedisError
from rest_framework.throttling import AnonRateThrottle, UserRateThrottle

from webutil.breaker import Breaker, breaker_for

_T = TypeVar("_T")

# Used only while the shared throttle cache is unreachable; one per process.
_FALLBACK = LocMemCache("throttle-fallback", {"MAX_ENTRIES": 100_000})


def client_ip(request: HttpRequest) -> str:
    """The address of the client: REMOTE_ADDR, or the one the nearest trusted proxy saw."""
    remote = str(request.META.get("REMOTE_ADDR") or "")
    trusted = settings.TRUSTED_PROXIES
    forwarded = request.META.get("HTTP_X_FORWARDED_FOR")
    if trusted <= 0 or not forwarded:
        return remote
    hops = [part.strip() for part in str(forwarded).split(",") if part.strip()]
    # Each trusted proxy appended the address it saw; the one `trusted` from the right was
    # written by our outermost proxy. Anything further left was written by the client.
    return hops[-min(trusted, len(hops))] if hops else remote


def _throttle_breaker() -> Breaker:
    return breaker_for("throttle cache", str(settings.CACHES["throttle"].get("LOCATION", "")))


def throttle_cache() -> BaseCache:
    """The shared counters, or this process's own while they were just found unreachable."""
    return caches["throttle"] if _throttle_breaker().closed() else _FALLBACK


# What a cache that cannot be reached raises (redis-py's errors, or the socket's own).
CACHE_ERRORS: tuple[type[BaseException], ...] = (RedisError, ConnectionError, OSError, TimeoutError)


@dataclass(frozen=True)
class Limit:
    """At most `count` events per `seconds` for one key."""

    count: int
    seconds: int


def _started(key: str) -> str:
    return f"{key}:started"


def _incr(cache: BaseCache, key: str, seconds: int) -> int:
    """Count one event under `key`; returns the events so far in its window.

    A window begins with its key's first event and lasts `seconds`, not aligned to the clock:
    ten failed log-ins in a row are ten in one window, whatever the time. (Windows aligned to
    the clock let a burst across a boundary count twice the limit, and made the count of a
    test's burst depend on when it ran.) Redis's INCR and the local cache's incr keep the
    expiry the first event set."""
    if cache.add(key, 1, timeout=seconds):
        cache.set(_started(key), time.time(), timeout=seconds)
        return 1
    try:
        return int(cache.incr(key))
    except ValueError:  # the window ended between add and incr: this event begins the next
        cache.set(key, 1, timeout=seconds)
        cache.set(_started(key), time.time(), timeout=seconds)
        return 1


def _left(started: Any, seconds: int) -> float:
    """Seconds until the window that began at `started` ends (all of it when that is unknown)."""
    if not isinstance(started, (int, float)):
        return float(seconds)
    return max(0.0, float(started) + seconds - time.time())


def _peek(cache: BaseCache, key: str, seconds: int) -> tuple[int, float]:
    found = cache.get_many([key, _started(key)])
    return int(found.get(key) or 0), _left(found.get(_started(key)), seconds)


def _wait(cache: BaseCache, key: str, seconds: int) -> float:
    return _left(cache.get(_started(key)), seconds)


def _with_fallback(operation: Callable[[BaseCache, str, int], _T], key: str, seconds: int) -> _T:
    try:
        return operation(throttle_cache(), key, seconds)
    except CACHE_ERRORS as error:
        _throttle_breaker().failed("count", error)
        return operation(_FALLBACK, key, seconds)


def hit(key: str, limit: Limit) -> float | None:
    """Count an event; None while within the limit, else the seconds until it may happen again."""
    if _with_fallback(_incr, key, limit.seconds) <= limit.count:
        return None  # within the limit: the window's start is not read
    return _with_fallback(_wait, key, limit.seconds)


def blocked(key: str, limit: Limit) -> float | None:
    """Without counting: None if another event is allowed, else the seconds to wait."""
    count, left = _with_fallback(_peek, key, limit.seconds)
    return None if count < limit.count else left


def minutes(seconds: float) -> int:
    return max(1, math.ceil(seconds / 60))


class _CountingMixin:
    """DRF's throttles (their rates, scopes and keys) counted as `hit` counts: one increment in
    a window a request, whatever the rate, on the throttle cache with its fallback. DRF's
    own keep the time of every request in the window as one list, read and written whole on
    each request: at a rate of hundreds a minute that list was most of a cached answer's cost."""

    rate: str | None
    num_requests: int
    duration: int

    def allow_request(self, request: Any, view: Any) -> bool:
        self._wait: float | None = None
        if self.rate is None:
            return True
        key = self.get_cache_key(request, view)  # type: ignore[attr-defined]  # DRF's, by scope
        if key is None:
            return True
        limit = Limit(self.num_requests, self.duration)
        if request.META.get(COUNTED):
            # Counted already, before Django (webutil.throttling.anonymous_throttled): only read.
            count, left = _with_fallback(_peek, key, limit.seconds)
            self._wait = None if count <= limit.count else left
        else:
            self._wait = hit(key, limit)
        return self._wait is None

    def wait(self) -> float | None:
        return self._wait

    def get_ident(self, request: Any) -> str:
        return client_ip(request)


class AnonThrottle(_CountingMixin, AnonRateThrottle):
    pass


class UserThrottle(_CountingMixin, UserRateThrottle):
    pass


# Set in a request's WSGI environ (its META) once its throttles were counted before Django saw it.
COUNTED = "zongheng.throttles_counted"


class _Anonymous:
    """What DRF's throttles read of a request (its user and its address), for a request answered
    before Django sees it: nobody signed in."""

    __slots__ = ("META", "user")

    def __init__(self, environ: MutableMapping[str, Any]) -> None:
        self.META = environ
        self.user = None


def anonymous_throttled(environ: MutableMapping[str, Any]) -> bool:
    """Counts an anonymous API request, given its WSGI environ, as DRF's default throttles do
    (their keys, their rates): True when one of them refuses it. The environ is marked as
    counted, so that DRF, if the request goes on to it, reads the counters without counting."""
    from rest_framework.settings import api_settings  # here: DRF's settings import this module

    seen = _Anonymous(environ)
    # DRF has imported them (its stubs type the setting as the dotted names)
    classes = cast("list[type[_CountingMixin]]", api_settings.DEFAULT_THROTTLE_CLASSES)
    allowed = [throttle().allow_request(seen, None) for throttle in classes]
    environ[COUNTED] = True
    return not all(allowed)
