"""Leases on background work: a row being worked on carries a deadline that its worker pushes on
while it lives (a heartbeat). A worker killed mid-work (kill -9, the machine lost, memory ran out)
stops pushing; once the deadline has passed, the work is queued again, up to a number of tries,
then marked failed with a message. Any model of work reuses it: inherit `Leased`, name its states.

Claims are conditional updates (`UPDATE … WHERE status = queued`), so two workers never take the
same row, on SQLite and PostgreSQL alike, without holding a lock while the work runs.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from django.db import connections, models
from django.db.models import F, Q
from django.utils import timezone

from webutil import bounds

LEASE = bounds.declare(
    "work lease", 120, "seconds", "how long background work may go without a heartbeat before it is run again"
)
HEARTBEAT_SECONDS = 20  # well inside the lease: two beats may be missed before it runs out
TRIES = bounds.declare("work tries", 3, "tries", "how often work whose worker died is run again before it fails")


class Leased(models.Model):
    """Fields of work that runs under a lease: how often it was started, and until when the
    current run holds it."""

    attempts = models.PositiveSmallIntegerField(default=0)
    lease_until = models.DateTimeField(null=True, blank=True)

    class Meta:
        abstract = True


@dataclass(frozen=True)
class States:
    """The values of a model's status field that the lease moves between."""

    field: str
    queued: str
    running: str
    failed: str


def claim(candidates: models.QuerySet[Any], states: States) -> Any | None:
    """The first of `candidates` (in their order) that this worker takes: marked running under a
    new lease, its attempts counted. None when every candidate was taken by another worker."""
    model = candidates.model
    for pk in candidates.values_list("pk", flat=True)[:20]:
        taken = model.objects.filter(pk=pk, **{states.field: states.queued}).update(
            **{states.field: states.running},
            lease_until=timezone.now() + timedelta(seconds=int(LEASE)),
            attempts=F("attempts") + 1,
        )
        if taken:
            return model.objects.get(pk=pk)
    return None


@contextmanager
def held(row: Any, interval: float = HEARTBEAT_SECONDS) -> Iterator[None]:
    """While the block runs, the row's lease is pushed on every `interval` seconds (a thread of
    its own, with its own connection)."""
    stop = threading.Event()

    def beat() -> None:
        try:
            while not stop.wait(interval):
                type(row).objects.filter(pk=row.pk).update(lease_until=timezone.now() + timedelta(seconds=int(LEASE)))
        finally:
            connections.close_all()

    thread = threading.Thread(target=beat, name=f"lease-{row.pk}", daemon=True)
    thread.start()
    try:
        yield
    finally:
        stop.set()
        thread.join()


def expired(model: Any, states: States) -> models.QuerySet[Any]:
    """Rows marked running whose lease has run out: their worker is gone."""
    running = {states.field: states.running}
    gone: models.QuerySet[Any] = model.objects.filter(
        Q(lease_until__lt=timezone.now()) | Q(lease_until__isnull=True), **running
    )
    return gone


def recover(model: Any, states: States, *, failed: dict[str, Any]) -> list[Any]:
    """Work whose worker died: queued again while it has tries left (their pks are returned, for
    the caller to enqueue), else marked failed with `failed` (the fields a failure sets)."""
    now = timezone.now()
    gone = expired(model, states).filter(Q(lease_until__lt=now) | Q(lease_until__isnull=True))
    out_of_tries = gone.filter(attempts__gte=int(TRIES))
    out_of_tries.update(**{states.field: states.failed, "lease_until": None, **failed})
    again = list(gone.filter(attempts__lt=int(TRIES)).values_list("pk", flat=True))
    if again:
        still_gone = Q(lease_until__lt=now) | Q(lease_until__isnull=True)  # not pushed on meanwhile
        model.objects.filter(still_gone, pk__in=again, **{states.field: states.running}).update(
            **{states.field: states.queued}, lease_until=None
        )
    return again


# What the worker's heartbeat runs to queue again the work of each kind whose worker died: each
# app registers its own (AppConfig.ready), so that the worker knows no app above it.
_RECOVERERS: dict[str, Callable[[], int]] = {}


def recovers(name: str, recover_lost: Callable[[], int]) -> None:
    """Register `recover_lost` (returns how many were queued again) for the worker's beats."""
    _RECOVERERS[name] = recover_lost


def recover_all() -> int:
    """Every kind of lost work queued again (see `recovers`); how many in all."""
    return sum(recover_lost() for recover_lost in _RECOVERERS.values())
