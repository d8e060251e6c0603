"""Counting a collection by photo, the pages: send photos (a phone's camera or files), follow
their reading, check what was found and add it. The reading itself is a task (catalog.tasks);
the rules are collection.scans'."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from catalog.images import IMAGE
from catalog.lookup import catalog_index
from catalog.models import Card, Scan
from catalog.scan_pages import crop_answer, progress_answer
from catalog.textkeys import to_simplified
from collection import scans
from collection.forms import MAX_PHOTOS_AT_ONCE, ScanApplyForm, ScanUploadForm
from scanning.matching import SURE
from webutil.bounds import accepts
from webutil.i18n import wants_simplified
from webutil.requests import AuthedRequest

RECENT = 20


def _mine(request: AuthedRequest, scan_id: int) -> Scan:
    scan = Scan.objects.filter(pk=scan_id, user=request.user, purpose=Scan.Purpose.COLLECTION).first()
    if scan is None:
        raise Http404(_("No such scan."))
    return scan


def _labels() -> dict[str, str]:
    """Each card as the match list names it: its name in the reader's script and its code."""
    simplified = wants_simplified()
    return {
        code: f"{to_simplified(facts.name) if simplified else facts.name} ({code})"
        for code, facts in catalog_index().by_code.items()
    }


@accepts((IMAGE, MAX_PHOTOS_AT_ONCE))
@login_required
def scan_page(request: AuthedRequest) -> HttpResponse:
    """Send photos (several at once); below, my recent photos and how far their reading is."""
    posted = request.method == "POST"
    form = ScanUploadForm(request.POST if posted else None, request.FILES if posted else None)
    status = 200
    if request.method == "POST" and form.is_valid():
        try:
            started = scans.start_photos(request.user, form.cleaned_data["photos"])
        except scans.ScanError as exc:  # all of them or none: nothing is queued
            form.add_error("photos", exc.message)
            status, started = exc.status, []
        if started:
            count = len(started)
            messages.success(
                request,
                ngettext("%(n)d photo sent: it is being read.", "%(n)d photos sent: they are being read.", count)
                % {"n": count},
            )
            return redirect("collection:scan-detail", started[0].pk) if count == 1 else redirect("collection:scan")
    mine = Scan.objects.filter(user=request.user, purpose=Scan.Purpose.COLLECTION)
    context = {"form": form, "scans": mine[:RECENT], "max_photos": MAX_PHOTOS_AT_ONCE}
    status = status if status != 200 else (400 if form.errors else 200)
    return render(request, "collection/scan.html", context, status=status)


@login_required
def scan_detail(request: AuthedRequest, scan_id: int) -> HttpResponse:
    """A photo's reading: its progress while it is read (htmx polls; without JavaScript the page
    reloads itself), then each card found beside its crop, to check and add in one step."""
    scan = _mine(request, scan_id)
    found = scan.result.get("cards", []) if scan.status == Scan.Status.DONE else []
    form = ScanApplyForm(found, _labels(), request.POST if request.method == "POST" else None)
    if request.method == "POST" and form.is_valid():
        additions = []
        for code, add, foil in form.additions():
            card = Card.objects.by_code(code)
            if card is not None:
                additions.append(scans.Addition(card, add, foil))
        try:
            added = scans.apply(request.user, scan.pk, additions)
        except scans.ScanError as exc:
            form.add_error(None, exc.message)
        else:
            messages.success(request, ngettext("%(n)d copy added.", "%(n)d copies added.", added) % {"n": added})
            return redirect("collection:history")
    polled = progress_answer(request, scan)
    if polled is not None:
        return polled
    context = {"scan": scan, "form": form, "sure": SURE, "waiting": scan.is_waiting}
    return render(request, "collection/scan_detail.html", context, status=400 if form.errors else 200)


@login_required
def scan_crop(request: AuthedRequest, scan_id: int, number: int) -> HttpResponse:
    """The part of the photo where a card was found: for its owner only."""
    scan = _mine(request, scan_id)
    return crop_answer(scan, scan.result.get("cards", []) if scan.status == Scan.Status.DONE else [], number)
