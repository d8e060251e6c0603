"""A lock held across processes and servers while one of them prepares the database (migrate,
loadcatalog): any number of servers may start at once, and they end with one catalogue.

PostgreSQL: a session advisory lock (every server sharing the database sees it). SQLite: an
exclusive file lock on a file beside the database (every process on the machine sees it).
"""

from __future__ import annotations

import fcntl
import hashlib
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from django.db import connections


def _key(name: str) -> int:
    # A stable signed 64-bit number for the advisory lock.
    return int.from_bytes(hashlib.sha256(name.encode()).digest()[:8], "big", signed=True)


@contextmanager
def database_lock(name: str, using: str = "default") -> Iterator[None]:
    connection = connections[using]
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_lock(%s)", [_key(name)])
        try:
            yield
        finally:
            with connection.cursor() as cursor:
                cursor.execute("SELECT pg_advisory_unlock(%s)", [_key(name)])
    elif connection.vendor == "sqlite" and str(connection.settings_dict["NAME"]) not in ("", ":memory:"):
        path = Path(f"{connection.settings_dict['NAME']}.{name}.lock")
        with path.open("a") as handle:
            fcntl.flock(handle, fcntl.LOCK_EX)
            try:
                yield
            finally:
                fcntl.flock(handle, fcntl.LOCK_UN)
    else:
        yield
