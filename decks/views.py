from __future__ import annotations

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _

from decks import batch
from decks.forms import BatchCheckForm, CheckDeckForm
from decks.i18n import pick
from decks.legality import check_list
from decks.presenters import present_verdict
from rules_check import DeckListError
from rules_check.decklist import MAX_BYTES


def check_deck(request: HttpRequest) -> HttpResponse:
    """Paste or upload a deck list, see the verdict. Live with htmx, and plain POST without JS."""
    form = CheckDeckForm(request.POST or None, request.FILES or None)
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


def check_many(request: HttpRequest) -> HttpResponse:
    """Tournament day: many lists at once, a table of verdicts, and the table as CSV."""
    form = BatchCheckForm(request.POST or None, request.FILES or None)
    context: dict[str, object] = {"form": form}
    status = 200
    if request.method == "POST":
        if form.is_valid():
            uploads = form.cleaned_data["files"]
            try:
                files = _batch_files(uploads)
                rows = batch.check_files(files, form.cleaned_data["format"])
            except batch.BatchError as exc:
                form.add_error("files", str(exc))
                status = 400
            else:
                if form.cleaned_data["save_as"]:
                    return _save_as_event(request, form, rows)
                if form.cleaned_data["as_csv"]:
                    response = HttpResponse(batch.to_csv(rows), content_type="text/csv; charset=utf-8")
                    response["Content-Disposition"] = 'attachment; filename="verdicts.csv"'
                    return response
                context["rows"] = rows
                context["legal_count"] = sum(1 for r in rows if r.legal)
        else:
            status = 400
    return render(request, "decks/check_many.html", context, status=status)


def _save_as_event(request: HttpRequest, form: BatchCheckForm, rows: list[batch.BatchRow]) -> HttpResponse:
    from events.services import save_batch

    if not request.user.is_authenticated:
        form.add_error("save_as", _("Log in to save the lists as an event."))
        return render(request, "decks/check_many.html", {"form": form}, status=403)
    readable = [(r.file, r.text, r.player) for r in rows if r.error is None and r.text is not None]
    event = save_batch(request.user, form.cleaned_data["save_as"], form.cleaned_data["format"], readable)
    skipped = [r.file for r in rows if r.error is not None]
    messages.success(request, _("Saved as an event with %(n)d lists.") % {"n": len(readable)})
    if skipped:
        messages.warning(request, _("Not saved, unreadable: %(files)s") % {"files": ", ".join(skipped)})
    return redirect(event)


def _batch_files(uploads: list) -> list[tuple[str, bytes]]:  # type: ignore[type-arg]
    if len(uploads) == 1 and uploads[0].name.lower().endswith(".zip"):
        return batch.read_zip(uploads[0].read(batch.MAX_ZIP_BYTES + 1))
    if len(uploads) > batch.MAX_FILES:
        raise batch.BatchError(_("At most %(max)d files at once.") % {"max": batch.MAX_FILES})
    return [(u.name, u.read(MAX_BYTES + 1)) for u in uploads]
