"""What the pages that wait for a photo to be read share (my collection's scans, a proposal's
photo): the answer to their progress poll."""

from __future__ import annotations

from django.http import HttpResponse
from django.shortcuts import render

from catalog.models import Scan
from webutil.requests import HtmxHttpRequest


def progress_answer(request: HtmxHttpRequest, scan: Scan) -> HttpResponse | None:
    """A progress poll (htmx GET of the page) is answered with the progress while the photo is
    read, then with a reload of the whole page; anything else is the page's own (None)."""
    if not request.htmx or request.method != "GET":
        return None
    if not scan.is_waiting:
        return HttpResponse(headers={"HX-Refresh": "true"})
    return render(request, "catalog/_scan_progress.html", {"scan": scan})
