"""Work done outside the request, by `manage.py worker` (Django's tasks, stored in the database):
reading the photos of scans. The recogniser is loaded by the worker on its first scan and kept
for the process; a web worker never imports it (scanning.reader is imported here, inside the
task).

Each run of the task reads the scan that is fairest to start, not necessarily the one it was
queued for (every scan queues one run, so every scan is read): a user's n-th waiting photo starts
only after every other user's (n-1)-th, so one user's hundred sheets never hold up another's
photo. A scan runs under a lease (webutil.leases): a worker killed mid-reading leaves it to be
read again, up to a number of tries, then failed with a message its owner sees."""

from __future__ import annotations

from typing import Any

from django.db.models import Count, F, Max, Min, OuterRef, Subquery, Value, Window
from django.db.models.functions import Coalesce, RowNumber
from django.utils import timezone
from django_tasks import task

from catalog.facts import offered
from catalog.models import LEASE_LOST, PICTURE_REFUSED, Scan, WorkerBeat
from catalog.scans import (
    as_result,
    as_sheet,
    catalogue_refs,
    decode_source,
    release_source,
    sheet_labels,
    type_words,
)
from scanning import find_cards, reader
from scanning.facts import read_facts
from scanning.pictures import PictureError
from scanning.sheet import read_sheet
from webutil import leases

# Kept on a scan that could not be read (with what failed, for whoever looks into it); its owner
# reads Scan.error_message, in their language.
FAILED = "unreadable"


def fair_order() -> Any:
    """Queued scans, fairest first: by how many of its owner's photos wait before it (those being
    read count), then by age."""
    running = (
        Scan.objects.filter(user=OuterRef("user"), status=Scan.Status.RUNNING)
        .order_by()
        .values("user")
        .annotate(n=Count("pk"))
        .values("n")
    )
    return (
        Scan.objects.filter(status=Scan.Status.QUEUED)
        .annotate(
            place=Window(RowNumber(), partition_by=[F("user")], order_by=[F("created").asc(), F("pk").asc()]),
            ahead=Coalesce(Subquery(running), Value(0)),
        )
        .annotate(turn=F("place") + F("ahead"))
        .order_by("turn", "created", "pk")
    )


def work_state() -> dict[str, float | None]:
    """How background work stands, for /readyz and /metrics: the age in seconds of the oldest
    work waiting to start, and of the last heartbeat of any worker (None: none waits; no worker
    has beaten)."""
    now = timezone.now()
    oldest = Scan.objects.filter(status=Scan.Status.QUEUED).order_by().aggregate(at=Min("created"))["at"]
    beat = WorkerBeat.objects.aggregate(at=Max("beat_at"))["at"]
    return {
        "oldest_waiting_seconds": round((now - oldest).total_seconds(), 1) if oldest else None,
        "worker_beat_seconds": round((now - beat).total_seconds(), 1) if beat else None,
    }


def recover_lost() -> int:
    """Scans whose reader died (their lease ran out) queued again, each with a run of its own;
    those out of tries failed. Returns how many were queued again."""
    again = leases.recover(Scan, Scan.STATES, failed={"error": LEASE_LOST, "finished_at": timezone.now()})
    for scan_id in again:
        read_scan.enqueue(scan_id)
    return len(again)


@task()
def read_scan(scan_id: int) -> str:
    """Read the fairest waiting scan's photo (see above; `scan_id` is the one that queued this
    run): the cards found in it (or the list a paper sheet holds), kept on the scan. Never inside
    a lock: the scan is claimed, then decoded and read under its lease, then written."""
    scan = leases.claim(fair_order(), Scan.STATES)
    if scan is None:  # every scan was read already, or deleted with its owner
        return "skipped"
    with leases.held(scan):
        result, status, error = _read(scan)
    reader.give_back()  # the reading's memory, before the next file's decoding child starts
    Scan.objects.filter(pk=scan.pk).update(
        status=status, result=result, error=error, finished_at=timezone.now(), lease_until=None
    )
    return str(status)


def _read(scan: Scan) -> tuple[dict[str, Any], str, str]:
    try:
        decode_source(scan)
    except PictureError as exc:  # the file itself: its owner is told what was wrong with it
        Scan.objects.filter(pk=scan.pk).update(status=Scan.Status.FAILED)
        release_source(scan.source.name)
        refusal = {"code": exc.code, "detail": exc.detail}
        return {"refusal": refusal}, Scan.Status.FAILED, f"{PICTURE_REFUSED}: {exc.code}"
    try:
        with scan.image.open("rb") as photo:
            image = reader.open_image(photo.read())
        sheet_page = scan.purpose == Scan.Purpose.SHEET
        lines = reader.read_lines(image, "page" if sheet_page else "cards")
        if sheet_page:  # a paper deck list: its QR code, else its lines
            headings, players = sheet_labels()
            sheet = read_sheet(lines, catalogue_refs(), labels=headings, player_labels=players)
            result = as_sheet(sheet, reader.read_codes(image))
        else:
            reading = find_cards(lines, catalogue_refs())
            result = as_result(reading)
        if scan.purpose == Scan.Purpose.PROPOSAL:  # one card's face: what it prints
            wanted = {fact.name for fact in offered(scan.card)} if scan.card else set()
            read = read_facts(lines, reading, wanted=wanted, type_words=type_words())
            result["facts"] = {name: {"value": f.value, "confidence": f.confidence} for name, f in read.items()}
    except Exception as exc:  # any failure is the scan's, said to its owner: never a row stuck running
        return {}, Scan.Status.FAILED, f"{FAILED}: {type(exc).__name__}"
    return result, Scan.Status.DONE, ""
