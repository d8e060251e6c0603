"""A circuit breaker for a shared service the site can do without (the cache, throttle counters).

When Redis refuses, each call fails in a millisecond; when it hangs, each call waits for the
socket's timeout, and a request makes several. So after one failure the process stops asking for
a few seconds and serves as if the service were absent; then one request tries again.

Why it stays: with Redis frozen (SIGSTOP), `bench/machinery.py` (2026-12-06, SQLite, one
gunicorn worker, 20 requests one after another) measured `/api/cards/?page_size=50` at p99 32 ms
with the breaker and 4,062 ms without it: each request waited for its socket timeouts.
"""

from __future__ import annotations

import logging
import time

log = logging.getLogger(__name__)


class Breaker:
    def __init__(self, name: str, pause: float = 5.0, log_every: float = 60.0) -> None:
        self.name = name
        self.pause = pause
        self.log_every = log_every
        self._open_until = 0.0
        self._last_logged = float("-inf")

    def closed(self) -> bool:
        """True while the service may be asked."""
        return time.monotonic() >= self._open_until

    def failed(self, operation: str, error: BaseException) -> None:
        now = time.monotonic()
        self._open_until = now + self.pause
        if now - self._last_logged > self.log_every:
            self._last_logged = now
            log.warning("%s unreachable (%s: %s); doing without it for %.0f s", self.name, operation, error, self.pause)

    def reset(self) -> None:
        self._open_until = 0.0


_BREAKERS: dict[str, Breaker] = {}


def breaker_for(name: str, location: str) -> Breaker:
    """One breaker per service address and process: one Redis being down says nothing of another."""
    key = f"{name} {location}"
    if key not in _BREAKERS:
        _BREAKERS[key] = Breaker(name)
    return _BREAKERS[key]


def reset_all() -> None:
    """For tests: forget every failure."""
    for breaker in _BREAKERS.values():
        breaker.reset()
