"""Named points inside long writes where a test can stop the work, as a crash (kill -9) would.

A point does nothing unless a test has put a hook on it (`pause_at`): the site never sets one.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager

_hooks: dict[str, Callable[[], None]] = {}


def pause_point(name: str) -> None:
    hook = _hooks.get(name)
    if hook is not None:
        hook()


@contextmanager
def pause_at(name: str, hook: Callable[[], None]) -> Iterator[None]:
    _hooks[name] = hook
    try:
        yield
    finally:
        _hooks.pop(name, None)
