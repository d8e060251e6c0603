"""No query outlives its request: web requests run under a time bound on every SQL statement, and
background work under a larger one of its own.

- PostgreSQL: `statement_timeout`, given to each web connection at its start (libpq's `options`,
  no query of its own: `for_web`, called by zongheng.wsgi before the first connection), and set by
  the task worker on each of its connections (`for_work`).
- SQLite: a progress handler on the connection interrupts any statement still running past the
  request's deadline, which `RequestDeadlineMiddleware` sets when a request starts; in the task
  worker, each statement sets its own deadline as it starts (`for_work`).

A statement stopped this way raises OperationalError; zongheng.views answers it 503 with
Retry-After, never 500 (`stopped_for_time` tells it from a database that is down).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Any

from django.db import connection as default_connection
from django.db.backends.signals import connection_created
from django.http import HttpRequest, HttpResponse

from webutil import bounds

WEB_SECONDS = bounds.declare(
    "request query time", 10, "seconds", "how long a web request's SQL may run (then 503 with Retry-After)"
)
WORK_SECONDS = bounds.declare("work query time", 300, "seconds", "how long a statement of background work may run")
# How many SQLite virtual-machine steps pass between two looks at the clock (a few microseconds).
_STEPS = 20_000

_local = threading.local()


def for_web(databases: Any) -> None:
    """Give every PostgreSQL connection of this process the web requests' statement_timeout."""
    for settings in databases.values():
        if "postgresql" in settings.get("ENGINE", ""):
            options = settings.setdefault("OPTIONS", {})
            given = str(options.get("options", ""))
            options["options"] = f"{given} -c statement_timeout={int(WEB_SECONDS) * 1000}".strip()


def _work_deadline(execute: Callable[..., Any], sql: str, params: Any, many: bool, context: Any) -> Any:
    """An execute wrapper: the statement's deadline on SQLite, WORK_SECONDS from its start."""
    _local.deadline = time.monotonic() + float(WORK_SECONDS.value)
    try:
        return execute(sql, params, many, context)
    finally:
        _local.deadline = None


def _set_work_timeout(sender: Any, connection: Any, **kwargs: Any) -> None:
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute(f"SET statement_timeout = {int(WORK_SECONDS) * 1000}")
    elif connection.vendor == "sqlite" and _work_deadline not in connection.execute_wrappers:
        connection.execute_wrappers.append(_work_deadline)


def for_work() -> None:
    """The task worker's connections: background work's larger bound on each statement
    (PostgreSQL's statement_timeout; on SQLite, a deadline each statement sets as it starts)."""
    connection_created.connect(_set_work_timeout, dispatch_uid="work-statement-timeout")
    default_connection.close()  # the next one is made with it


def stopped_for_time(error: BaseException) -> bool:
    """Whether a database error is a statement stopped by these bounds (not a database down)."""
    text = str(error).lower()
    return "statement timeout" in text or "canceling statement" in text or text.strip() == "interrupted"


def _past_deadline() -> int:
    deadline: float | None = getattr(_local, "deadline", None)
    return 1 if deadline is not None and time.monotonic() > deadline else 0


def _watch(raw: Any) -> None:
    if getattr(_local, "watched", None) is not raw:
        raw.set_progress_handler(_past_deadline, _STEPS)
        _local.watched = raw


def _watch_new(sender: Any, connection: Any, **kwargs: Any) -> None:
    if connection.vendor == "sqlite":
        _watch(connection.connection)


connection_created.connect(_watch_new, dispatch_uid="sqlite-request-deadline")


class RequestDeadlineMiddleware:
    """A request's SQL on SQLite stops WEB_SECONDS after the request began (PostgreSQL's own
    statement_timeout needs nothing per request)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        _local.deadline = time.monotonic() + float(WEB_SECONDS.value)
        if default_connection.vendor == "sqlite" and default_connection.connection is not None:
            _watch(default_connection.connection)  # opened before this request, in this thread
        try:
            return self.get_response(request)
        finally:
            _local.deadline = None
