"""The shared cache as an optimisation only: when Redis cannot be reached, every read misses and
every write is dropped, so requests carry on uncached (slower, never broken). Failures are
logged, at most once a minute per process.

Throttle counters do not use this class: they must know when their cache is gone, to count in
the process instead (webutil.throttling).
"""

from __future__ import annotations

import logging
import time
from typing import Any

from django.core.cache.backends.redis import RedisCache

from webutil.throttling import CACHE_ERRORS

log = logging.getLogger(__name__)
_LOG_EVERY = 60.0


class ResilientRedisCache(RedisCache):
    _last_logged = 0.0

    def _failed(self, operation: str, error: BaseException) -> None:
        now = time.monotonic()
        if now - ResilientRedisCache._last_logged > _LOG_EVERY:
            ResilientRedisCache._last_logged = now
            log.warning("cache unreachable (%s: %s); serving uncached", operation, error)

    def get(self, key: Any, default: Any = None, version: int | None = None) -> Any:
        try:
            return super().get(key, default, version)
        except CACHE_ERRORS as error:
            self._failed("get", error)
            return default

    def get_many(self, keys: Any, version: int | None = None) -> dict[Any, Any]:
        try:
            return super().get_many(keys, version)
        except CACHE_ERRORS as error:
            self._failed("get_many", error)
            return {}

    def has_key(self, key: Any, version: int | None = None) -> bool:
        try:
            return super().has_key(key, version)
        except CACHE_ERRORS as error:
            self._failed("has_key", error)
            return False

    def set(self, key: Any, value: Any, timeout: Any = None, version: int | None = None) -> None:
        try:
            super().set(key, value, timeout, version)
        except CACHE_ERRORS as error:
            self._failed("set", error)

    def set_many(self, data: dict[Any, Any], timeout: Any = None, version: int | None = None) -> list[Any]:
        try:
            return super().set_many(data, timeout, version)
        except CACHE_ERRORS as error:
            self._failed("set_many", error)
            return list(data)

    def add(self, key: Any, value: Any, timeout: Any = None, version: int | None = None) -> bool:
        try:
            return super().add(key, value, timeout, version)
        except CACHE_ERRORS as error:
            self._failed("add", error)
            return False

    def delete(self, key: Any, version: int | None = None) -> bool:
        try:
            return super().delete(key, version)
        except CACHE_ERRORS as error:
            self._failed("delete", error)
            return False

    def delete_many(self, keys: Any, version: int | None = None) -> None:
        try:
            super().delete_many(keys, version)
        except CACHE_ERRORS as error:
            self._failed("delete_many", error)

    def touch(self, key: Any, timeout: Any = None, version: int | None = None) -> bool:
        try:
            return super().touch(key, timeout, version)
        except CACHE_ERRORS as error:
            self._failed("touch", error)
            return False

    def incr(self, key: Any, delta: int = 1, version: int | None = None) -> int:
        try:
            return super().incr(key, delta, version)
        except CACHE_ERRORS as error:
            self._failed("incr", error)
            raise ValueError("cache unreachable") from None  # what callers handle for a missing key

    def clear(self) -> None:
        try:
            super().clear()
        except CACHE_ERRORS as error:
            self._failed("clear", error)
