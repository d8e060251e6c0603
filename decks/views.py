from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from decks.forms import CheckDeckForm
from decks.i18n import pick
from decks.legality import check_list
from decks.presenters import present_verdict
from rules_check import DeckListError


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
