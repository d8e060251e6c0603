"""A version stamp for everything derived from the catalogue (cached API answers, ETags).

Loading or editing the catalogue bumps it, so no cached answer outlives the data it came from.
"""

from __future__ import annotations

import threading
import uuid
from collections.abc import Callable
from typing import Generic, TypeVar

from django.core.cache import cache

_KEY = "catalog:version"
T = TypeVar("T")


def current() -> str:
    version = cache.get(_KEY)
    if version is None:
        version = uuid.uuid4().hex[:12]
        # add() so that two workers starting at once agree on one stamp
        cache.add(_KEY, version, timeout=None)
        version = cache.get(_KEY, version)
    return str(version)


def bump() -> None:
    cache.set(_KEY, uuid.uuid4().hex[:12], timeout=None)


class PerVersion(Generic[T]):
    """A value derived from the whole catalogue, built at most once per process and version:
    readers share it without a query until the catalogue (or a card picture) changes."""

    def __init__(self, build: Callable[[], T]) -> None:
        self._build = build
        self._value: tuple[str, T] | None = None
        self._lock = threading.Lock()

    def get(self) -> T:
        version = current()
        held = self._value
        if held is None or held[0] != version:
            with self._lock:
                if self._value is None or self._value[0] != version:
                    self._value = (version, self._build())
                held = self._value
        return held[1]
