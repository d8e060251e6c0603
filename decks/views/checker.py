from __future__ import annotations

from django.http import HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.urls import reverse

from decks import batch
from decks.batch import BATCH, DECK_LIST
from decks.forms import BatchCheckForm, CheckDeckForm
from decks.i18n import pick
from decks.legality import check_list
from decks.presenters import present_verdict
from rules_check import DeckListError
from webutil.bounds import accepts
from webutil.requests import HtmxHttpRequest


@accepts(DECK_LIST)
def check_deck(request: HtmxHttpRequest) -> HttpResponse:
    """Paste or upload a deck list, see the verdict. Live with htmx, and plain POST without JS."""
    # ?format= picks the format shown first (a house format's page links here with its key).
    initial = {"format": request.GET["format"][:20]} if "format" in request.GET else {}
    form = CheckDeckForm(request.POST or None, request.FILES or None, user=request.user, initial=initial)
    context: dict[str, object] = {"form": form}
    status = 200
    if request.method == "POST":
        if form.is_valid():
            text = form.deck_text()
            try:
                parsed, verdict = check_list(text, form.cleaned_data["format"])
            except DeckListError as exc:
                form.add_error("list", pick(exc.message, exc.message_en))
                status = 400
            else:
                context.update(present_verdict(text, parsed, verdict))
        else:
            status = 400
    template = "decks/_check_result.html" if request.htmx else "decks/check.html"
    return render(request, template, context, status=status)


@accepts(*BATCH)
def check_many(request: HtmxHttpRequest) -> HttpResponse:
    """Tournament day: many lists at once, a table of verdicts, and the table as CSV."""
    if request.method == "POST" and request.POST.get("save_as"):
        # Saving the lists as an event belongs to the events app; the browser sends the same
        # form there again (307 keeps the method and the files).
        return HttpResponseRedirect(reverse("events:from-files"), status=307)
    form = BatchCheckForm(request.POST or None, request.FILES or None, user=request.user)
    context: dict[str, object] = {"form": form}
    status = 200
    if request.method == "POST":
        if form.is_valid():
            try:
                rows = batch.check_uploads(
                    form.cleaned_data["files"], form.cleaned_data["format"], batch.limits_for(request.user)
                )
            except batch.BatchError as exc:
                form.add_error("files", str(exc))
                status = exc.status
            else:
                if form.cleaned_data["as_csv"]:
                    response = HttpResponse(batch.to_csv(rows), content_type="text/csv; charset=utf-8")
                    response["Content-Disposition"] = 'attachment; filename="verdicts.csv"'
                    return response
                context["rows"] = rows
                context["legal_count"] = sum(1 for r in rows if r.legal)
        else:
            status = 400
    return render(request, "decks/check_many.html", context, status=status)
