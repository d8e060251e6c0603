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
from typing import Any, cast

from django.conf import settings
from django.core.cache import caches
from django.core.cache.backends.base import BaseCache
from django.core.cache.backends.locmem import LocMemCache
from django.http import HttpRequest
from redis.exceptions import RedisError
from rest_framework.throttling import AnonRateThrottle, UserRateThrottle

from webutil.breaker import Breaker, breaker_for

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


def _incr(cache: BaseCache, key: str, seconds: int) -> tuple[int, float]:
    """Count one event under `key` in a fixed window; returns (events so far, seconds left)."""
    now = time.time()
    window_start = math.floor(now / seconds) * seconds
    full_key = f"{key}:{int(window_start)}"
    if cache.add(full_key, 1, timeout=seconds + 1):
        count = 1
    else:
        try:
            count = cache.incr(full_key)
        except ValueError:  # expired between add and incr
            cache.set(full_key, 1, timeout=seconds + 1)
            count = 1
    return count, window_start + seconds - now


def _peek(cache: BaseCache, key: str, seconds: int) -> tuple[int, float]:
    now = time.time()
    window_start = math.floor(now / seconds) * seconds
    return int(cache.get(f"{key}:{int(window_start)}") or 0), window_start + seconds - now


def _with_fallback(
    operation: Callable[[BaseCache, str, int], tuple[int, float]], key: str, seconds: int
) -> tuple[int, float]:
    try:
        return operation(throttle_cache(), key, seconds)
    except CACHE_ERRORS as error:
        _throttle_breaker().failed("count", error)
        return operation(_FALLBACK, key, seconds)


def hit(key: str, limit: Limit) -> float | None:
    """Count an event; None while within the limit, else the seconds until it may happen again."""
    count, left = _with_fallback(_incr, key, limit.seconds)
    return None if count <= limit.count else left


def blocked(key: str, limit: Limit) -> float | None:
    """Without counting: None if another event is allowed, else the seconds to wait."""
    count, left = _with_fallback(_peek, key, limit.seconds)
    return None if count < limit.count else left


def minutes(seconds: float) -> int:
    return max(1, math.ceil(seconds / 60))


class _CountingMixin:
    """DRF's throttles (their rates, scopes and keys) counted as `hit` counts: one increment in
    a fixed window a request, whatever the rate, on the throttle cache with its fallback. DRF's
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
