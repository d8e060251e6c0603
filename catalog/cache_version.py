"""A version stamp for everything derived from the catalogue (cached API answers, ETags, the
in-process catalogue index).

Loading or editing the catalogue bumps it, so no cached answer outlives the data it came from.
The stamp is one row in the database (catalog.models.CatalogState): every worker and server
reads the same one. It is read once per request (one small primary-key query) and remembered
until the request ends; outside requests it is read each time.
"""

from __future__ import annotations

import threading
import uuid
from collections.abc import Callable
from typing import Any, Generic, TypeVar

from django.core.signals import request_finished, request_started
from django.db import IntegrityError, connection, transaction
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
    from catalog.models import CatalogState

    table = connection.ops.quote_name(CatalogState._meta.db_table)
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT version FROM {table} WHERE id = %s", [1])  # noqa: S608 (a fixed name)
        row = cursor.fetchone()
    return row[0] if row else None


def current() -> str:
    remembered: str | None = getattr(_memo, "version", None)
    if remembered is not None:
        return remembered
    from catalog.models import CatalogState

    version = _read()
    if version is None:
        try:
            with transaction.atomic():
                version = CatalogState.objects.get_or_create(pk=1, defaults={"version": _new_stamp()})[0].version
        except IntegrityError:  # another worker made the row first: theirs counts
            version = CatalogState.objects.get(pk=1).version
    if getattr(_memo, "in_request", False):  # outside requests (commands, shells) never remembered
        _memo.version = version
    return version


# Sent after every bump: what the catalogue's readers derived from it (the verdicts decks keep)
# is written again by those readers, which the catalogue does not import.
changed = Signal()


def bump() -> None:
    from catalog.models import CatalogState

    CatalogState.objects.update_or_create(pk=1, defaults={"version": _new_stamp()})
    _memo.version = None
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
