"""The shared cache as an optimisation only: when Redis cannot be reached, every read misses and
every write is dropped, so requests carry on uncached (slower, never broken). After a failure the
process leaves Redis alone for a few seconds (webutil.breaker): a Redis that hangs would otherwise
cost every cache call its socket timeout. Failures are logged at most once a minute per process.

Throttle counters do not use this class: they must know when their cache is gone, to count in
the process instead (webutil.throttling).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from django.core.cache.backends.redis import RedisCache

from webutil.breaker import breaker_for
from webutil.throttling import CACHE_ERRORS

T = TypeVar("T")


class ResilientRedisCache(RedisCache):
    def __init__(self, server: str, params: dict[str, Any]) -> None:
        super().__init__(server, params)
        self._breaker = breaker_for("cache", server)

    def _try(self, operation: str, call: Callable[[], T], otherwise: T) -> T:
        if not self._breaker.closed():
            return otherwise
        try:
            return call()
        except CACHE_ERRORS as error:
            self._breaker.failed(operation, error)
            return otherwise

    def get(self, key: Any, default: Any = None, version: int | None = None) -> Any:
        return self._try("get", lambda: super(ResilientRedisCache, self).get(key, default, version), default)

    def get_many(self, keys: Any, version: int | None = None) -> dict[Any, Any]:
        return self._try("get_many", lambda: super(ResilientRedisCache, self).get_many(keys, version), {})

    def has_key(self, key: Any, version: int | None = None) -> bool:
        return self._try("has_key", lambda: super(ResilientRedisCache, self).has_key(key, version), False)

    def set(self, key: Any, value: Any, timeout: Any = None, version: int | None = None) -> None:
        self._try("set", lambda: super(ResilientRedisCache, self).set(key, value, timeout, version), None)

    def set_many(self, data: dict[Any, Any], timeout: Any = None, version: int | None = None) -> list[Any]:
        return self._try(
            "set_many", lambda: super(ResilientRedisCache, self).set_many(data, timeout, version), list(data)
        )

    def add(self, key: Any, value: Any, timeout: Any = None, version: int | None = None) -> bool:
        return self._try("add", lambda: super(ResilientRedisCache, self).add(key, value, timeout, version), False)

    def delete(self, key: Any, version: int | None = None) -> bool:
        return self._try("delete", lambda: super(ResilientRedisCache, self).delete(key, version), False)

    def delete_many(self, keys: Any, version: int | None = None) -> None:
        self._try("delete_many", lambda: super(ResilientRedisCache, self).delete_many(keys, version), None)

    def touch(self, key: Any, timeout: Any = None, version: int | None = None) -> bool:
        return self._try("touch", lambda: super(ResilientRedisCache, self).touch(key, timeout, version), False)

    def incr(self, key: Any, delta: int = 1, version: int | None = None) -> int:
        missing = object()
        value = self._try("incr", lambda: super(ResilientRedisCache, self).incr(key, delta, version), missing)
        if value is missing:
            raise ValueError("cache unreachable")  # what callers handle for a missing key
        return value  # type: ignore[return-value]

    def clear(self) -> None:
        self._try("clear", lambda: super(ResilientRedisCache, self).clear(), None)
