"""Work done outside the request, by `manage.py db_worker` (Django's tasks, stored in the
database): reading the photos of scans. The recogniser is loaded by the worker on its first scan
and kept for the process; a web worker never imports it (scanning.reader is imported here, inside
the task)."""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone
from django_tasks import task

from catalog.models import Scan

# Kept on a scan that could not be read (with what failed, for whoever looks into it); its owner
# reads Scan.error_message, in their language.
FAILED = "unreadable"


@task()
def read_scan(scan_id: int) -> str:
    """Read one scan's photo: the cards found in it (or the list a paper sheet holds), kept on
    the scan (never inside a lock: the row is marked running, then read, then written)."""
    from catalog.facts import offered
    from catalog.scans import as_result, as_sheet, catalogue_refs, sheet_labels
    from scanning import find_cards
    from scanning.facts import read_facts
    from scanning.reader import open_image, read_codes, read_lines
    from scanning.sheet import read_sheet

    with transaction.atomic():
        scan = Scan.objects.select_for_update().filter(pk=scan_id, status=Scan.Status.QUEUED).first()
        if scan is None:  # read already, or deleted with its owner
            return "skipped"
        scan.status = Scan.Status.RUNNING
        scan.save(update_fields=["status"])
    try:
        with scan.image.open("rb") as photo:
            image = open_image(photo.read())
        sheet_page = scan.purpose == Scan.Purpose.SHEET
        lines, status, error = read_lines(image, "page" if sheet_page else "cards"), Scan.Status.DONE, ""
        if sheet_page:  # a paper deck list: its QR code, else its lines
            headings, players = sheet_labels()
            sheet = read_sheet(lines, catalogue_refs(), labels=headings, player_labels=players)
            result = as_sheet(sheet, read_codes(image))
        else:
            reading = find_cards(lines, catalogue_refs())
            result = as_result(reading)
        if scan.purpose == Scan.Purpose.PROPOSAL:  # one card's face: what it prints
            wanted = {fact.name for fact in offered(scan.card)} if scan.card else set()
            read = read_facts(lines, reading, wanted=wanted)
            result["facts"] = {name: {"value": f.value, "confidence": f.confidence} for name, f in read.items()}
    except Exception as exc:  # any failure is the scan's, said to its owner: never a row stuck running
        result, status, error = {}, Scan.Status.FAILED, f"{FAILED}: {type(exc).__name__}"
    Scan.objects.filter(pk=scan_id).update(status=status, result=result, error=error, finished_at=timezone.now())
    return str(status)
