"""A version stamp for everything derived from the catalogue (cached API answers, ETags, the
in-process catalogue index).

Loading or editing the catalogue bumps it, so no cached answer outlives the data it came from.
The stamp is one row in the database (catalog.models.CatalogState): every worker and server
reads the same one. On SQLite it is read once per request (one small primary-key query) and
remembered until the request ends; outside requests it is read each time.

On PostgreSQL that read was the one round trip left in a stored catalogue answer (about as long
as a bare Django request here), so each process keeps a connection of its own that LISTENs on
CHANNEL: the bump sends a NOTIFY in its transaction, which PostgreSQL delivers to every listener
when it commits, and each request polls that connection without waiting (under a microsecond)
and reads the row again only after a notice. The stamp is still read from the row inside a
transaction (which may hold its own bump, and every test runs in one), and whenever the
listening connection cannot be had; the bump waits (briefly) for its own notice before it
returns, so by the time a changed answer leaves this worker the notice has been sent to every
other listener too (PostgreSQL signals them all in the same step of the commit).

Why the listening stays (speed machinery keeps its place where a benchmark takes 20% or 5 ms off
a p99): `bench/machinery.py`, 2026-12-06, a 2-core machine, PostgreSQL, gunicorn with one
worker, ab with 4 clients, the median of 3 rounds of 1,000 requests; p99 heard / read on every
request: `/api/cards/?page_size=50` 3.8 / 6.3 ms (2.6 ms, 41% off); `/api/cards/YXJQ-003/` 3.2 /
4.1 ms (0.8 ms, 20% off). A page (`/cards/`, p99 about 60 ms of drawing) gains nothing measurable.
"""

from __future__ import annotations

import os
import select
import threading
import time
import uuid
from collections.abc import Callable
from typing import Any, Generic, TypeVar

from django.core.signals import request_finished, request_started
from django.db import DatabaseError, IntegrityError, connection, transaction
from django.db.models.signals import post_migrate
from django.dispatch import Signal

T = TypeVar("T")
_memo = threading.local()


def _request_started(**kwargs: Any) -> None:
    _memo.in_request = True
    _memo.version = None


def _request_finished(**kwargs: Any) -> None:
    _memo.in_request = False
    _memo.version = None


request_started.connect(_request_started, dispatch_uid="catalog-version-request-started")
request_finished.connect(_request_finished, dispatch_uid="catalog-version-request-finished")


def _new_stamp() -> str:
    return uuid.uuid4().hex[:12]


def _read() -> str | None:
    """The stamp's row, by its primary key through a plain cursor: the query runs on every
    request that shows catalogue data, and the ORM's compiling of it cost more than the query."""
    from catalog.models import CatalogState  # here: catalog.models reads this module

    table = connection.ops.quote_name(CatalogState._meta.db_table)
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT version FROM {table} WHERE id = %s", [1])  # noqa: S608 (a fixed name)
        row = cursor.fetchone()
    return row[0] if row else None


CHANNEL = "zongheng_catalog_version"
# After a failure to listen (the database away, a refused connection), rows are read again for
# this long before the next try, so an outage does not cost a connection attempt per request.
RETRY_SECONDS = 5.0
# How long a bump waits for its own notice (it comes within a millisecond here).
NOTICE_WAIT_SECONDS = 1.0


class _Listener:
    """This process's LISTENing connection to PostgreSQL and the stamp it last read. One per
    process, shared by its threads under a lock; a forked child opens its own."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.pid = 0
        self.conn: Any = None
        self.version: str | None = None
        self.stale = True
        self.retry_at = 0.0
        # A connection inherited through fork is the parent's socket: never closed from here,
        # and kept referenced so that its finalizer never says goodbye on the parent's behalf.
        self.inherited: list[Any] = []

    def stamp(self) -> str | None:
        """The stamp without a round trip, or None when the row must be read."""
        if connection.vendor != "postgresql" or connection.in_atomic_block:
            return None
        import psycopg  # on PostgreSQL only, where Django has imported it already

        with self.lock:
            try:
                if self.conn is None or self.pid != os.getpid():
                    if time.monotonic() < self.retry_at:
                        return None
                    self._open()
                self._drain()
                if self.stale or self.version is None:
                    # No row yet (a new database, or a flushed one): made here, under the lock, so
                    # that no other thread drains a notice between the making and the remembering.
                    self.version = _read() or _made()
                    self.stale = False
                return self.version
            except (DatabaseError, OSError, psycopg.Error):
                self._drop()
                return None

    def heard(self, stamp: str) -> None:
        """Marks the stamp stale at once (this process knows), then waits for the notice of
        `stamp` itself, so that it has reached every listener before the bump returns."""
        with self.lock:
            self.stale = True
            if self.conn is None or self.pid != os.getpid():
                return
            import psycopg  # PostgreSQL's alone: never loaded on SQLite

            try:
                deadline = time.monotonic() + NOTICE_WAIT_SECONDS
                while stamp not in self._drain():
                    left = deadline - time.monotonic()
                    if left <= 0:
                        return
                    select.select([self.conn.pgconn.socket], [], [], left)
            except (OSError, psycopg.Error):
                self._drop()

    def _open(self) -> None:
        import psycopg  # PostgreSQL's alone: never loaded on SQLite

        if self.conn is not None:
            self.inherited.append(self.conn)
        self.conn, self.pid, self.stale = None, os.getpid(), True
        params = {k: v for k, v in connection.get_connection_params().items() if k not in _NOT_FOR_LISTENING}
        params.setdefault("connect_timeout", 5)
        self.conn = psycopg.connect(**params, autocommit=True)
        # LISTEN before the first read: a bump committed in between is either read or heard.
        self.conn.execute(f"LISTEN {CHANNEL}")

    def _drain(self) -> set[str]:
        """The payloads of the notices that have arrived (a read of the socket, never a wait)."""
        pgconn = self.conn.pgconn
        pgconn.consume_input()
        # Again: a session the server ended sends its last message, then closes; the first read
        # takes the message without complaint, the second meets the close and raises.
        pgconn.consume_input()
        payloads = set()
        while (notice := pgconn.notifies()) is not None:
            payloads.add(notice.extra.decode())
        if payloads:
            self.stale = True
        return payloads

    def _drop(self) -> None:
        if self.conn is not None and self.pid == os.getpid():
            self.conn.close()  # psycopg closes a broken connection without complaint
        self.conn, self.stale, self.retry_at = None, True, time.monotonic() + RETRY_SECONDS


# Django's own keys for its connections: the listener is a plain connection of psycopg.
_NOT_FOR_LISTENING = frozenset({"cursor_factory", "context", "prepare_threshold", "server_side_binding"})
_listener = _Listener()


def stop_listening() -> None:
    """Closes this process's listening connection (before its database is dropped, in tests and
    benchmarks); the next read on PostgreSQL opens it again."""
    with _listener.lock:
        _listener._drop()
        _listener.retry_at = 0.0


def _rewritten(**kwargs: Any) -> None:
    """A migration or a flush may have written the row without a notice: read it again."""
    _listener.stale = True


post_migrate.connect(_rewritten, dispatch_uid="catalog-version-rewritten")


def _made() -> str:
    """The stamp's row where there is none yet, or the one another worker made first."""
    from catalog.models import CatalogState  # here: catalog.models reads this module

    try:
        with transaction.atomic():
            return CatalogState.objects.get_or_create(pk=1, defaults={"version": _new_stamp()})[0].version
    except IntegrityError:  # another worker made the row first: theirs counts
        return CatalogState.objects.get(pk=1).version


def current() -> str:
    remembered: str | None = getattr(_memo, "version", None)
    if remembered is not None:
        return remembered
    version = _listener.stamp() or _read() or _made()
    if getattr(_memo, "in_request", False):  # outside requests (commands, shells) never remembered
        _memo.version = version
    return version


# Sent after every bump: what the catalogue's readers derived from it (the verdicts decks keep)
# is written again by those readers, which the catalogue does not import.
changed = Signal()


def bump() -> None:
    from catalog.models import CatalogState  # here: catalog.models reads this module

    stamp = _new_stamp()
    with transaction.atomic():
        CatalogState.objects.update_or_create(pk=1, defaults={"version": stamp})
        if connection.vendor == "postgresql":
            with connection.cursor() as cursor:  # sent to every listener when this commits
                cursor.execute("SELECT pg_notify(%s, %s)", [CHANNEL, stamp])
    _memo.version = None
    transaction.on_commit(lambda: _listener.heard(stamp))
    changed.send(sender=None)


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
