"""The organiser's paper lists: send photos or PDFs of the sheets handed in, follow their
reading, check each one's unsure lines and add it as a list of the event. The rules are
events.paper's; the reading is a task (catalog.tasks)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from catalog.images import IMAGE
from catalog.scan_pages import crop_answer, progress_answer
from decks.i18n import pick
from events import day, paper
from events.forms import MAX_SHEET_FILES, PaperListForm, PaperUploadForm
from events.models import Event, PaperList
from events.services import EventClosed
from rules_check import DeckListError
from scanning.matching import SURE
from webutil.bounds import accepts
from webutil.requests import AuthedRequest


def _organised(request: AuthedRequest, event_id: int) -> Event:
    """An event this user runs: its organiser, or one of its judges (who read sheets too)."""
    return get_object_or_404(day.events_run_by(request.user), pk=event_id)


def _paper(event: Event, paper_id: int) -> PaperList:
    found = PaperList.objects.select_related("scan", "submission").filter(event=event, pk=paper_id).first()
    if found is None:
        raise Http404(_("No such paper list."))
    return found


@accepts((IMAGE, MAX_SHEET_FILES))
@login_required
def paper_lists(request: AuthedRequest, event_id: int) -> HttpResponse:
    """Send the sheets (several photos or PDFs at once); below, each sheet and how far it is."""
    event = _organised(request, event_id)
    posted = request.method == "POST"
    form = PaperUploadForm(request.POST if posted else None, request.FILES if posted else None)
    status = 200
    if posted and form.is_valid():
        try:
            sent = len(paper.send(event, request.user, form.cleaned_data["sheets"]))
        except (paper.PaperError, EventClosed) as exc:
            form.add_error("sheets", str(exc))
            status = 429 if getattr(exc, "status", 400) == 429 else 400
            sent = 0
        if sent:
            messages.success(
                request,
                ngettext("%(n)d sheet sent: it is being read.", "%(n)d sheets sent: they are being read.", sent)
                % {"n": sent},
            )
            return redirect("events:paper", event.pk)
        status = status if status != 200 else 400
    elif posted:
        status = 400
    papers = list(PaperList.objects.filter(event=event).select_related("scan", "submission"))
    context = {
        "event": event,
        "form": form,
        "max_files": MAX_SHEET_FILES,
        "papers": papers,
        "reading": sum(1 for sheet in papers if sheet.scan.is_waiting),
    }
    return render(request, "events/paper_lists.html", context, status=status)


@login_required
def paper_detail(request: AuthedRequest, event_id: int, paper_id: int) -> HttpResponse:
    """One sheet: its progress while it is read (htmx polls; without JavaScript the page reloads
    itself), then the list it was read as, its unsure lines beside their crops, to confirm."""
    event = _organised(request, event_id)
    sheet = _paper(event, paper_id)
    read = paper.reading(sheet)
    initial = {"player_name": read.player, "text": read.text} if read else {}
    form = PaperListForm(request.POST if request.method == "POST" else None, initial=initial)
    if request.method == "POST":
        if request.POST.get("action") == "discard":
            paper.discard(event, sheet.pk)
            messages.success(request, _("The sheet is deleted."))
            return redirect("events:paper", event.pk)
        if form.is_valid():
            try:
                paper.confirm(event, sheet.pk, form.cleaned_data["player_name"], form.cleaned_data["text"])
            except paper.PaperError as exc:
                form.add_error(None, exc.message)
            except EventClosed as exc:
                form.add_error(None, str(exc))
            except DeckListError as exc:
                form.add_error("text", pick(exc.message, exc.message_en))
            else:
                added = _("The list of %(player)s is added.") % {"player": form.cleaned_data["player_name"]}
                messages.success(request, added)
                return _next_sheet(event)
    polled = progress_answer(request, sheet.scan)
    if polled is not None:
        return polled
    context = {"event": event, "paper": sheet, "scan": sheet.scan, "read": read, "form": form, "sure": SURE}
    context["waiting"] = sheet.scan.is_waiting
    return render(request, "events/paper_detail.html", context, status=400 if form.errors else 200)


def _next_sheet(event: Event) -> HttpResponse:
    """The next sheet read and not yet added, or the list of them all: one sheet after another."""
    waiting = PaperList.objects.filter(event=event, submission__isnull=True, scan__status="done").first()
    return redirect("events:paper-detail", event.pk, waiting.pk) if waiting else redirect("events:paper", event.pk)


@login_required
def paper_crop(request: AuthedRequest, event_id: int, paper_id: int, number: int) -> HttpResponse:
    """The part of the sheet where a line was read: for the organiser only."""
    sheet = _paper(_organised(request, event_id), paper_id)
    return crop_answer(sheet.scan, sheet.scan.result.get("lines", []), number)
