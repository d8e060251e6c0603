"""The site without one piece of its speed machinery, for bench/machinery.py only: each a WSGI
application factory (gunicorn's `module:factory()`), so that loading one switches off nothing
else."""

from __future__ import annotations

from typing import Any


def without_stored_answers() -> Any:
    """Every request through Django's whole stack: no answer is sent from the front door."""
    from zongheng import wsgi

    return wsgi.django_application


def without_heard_version() -> Any:
    """The catalogue's version read from its row on every request, as on SQLite."""
    from catalog import cache_version
    from zongheng import wsgi

    cache_version._listener.stamp = lambda: None  # type: ignore[method-assign]
    return wsgi.application


def without_breaker() -> Any:
    """Every cache and throttle call asks Redis, however often it just failed."""
    from webutil.breaker import Breaker
    from zongheng import wsgi

    Breaker.closed = lambda self: True  # type: ignore[method-assign]
    return wsgi.application
