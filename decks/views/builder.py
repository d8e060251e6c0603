"""The deck builder: its page, a card added or taken away, a pasted list."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_POST

from catalog.filters import CardFilter
from catalog.lookup import catalog_index
from catalog.models import Card
from collection.queries import with_counts
from decks import intake, services
from decks.forms import (
    DeckSettingsForm,
    EntryForm,
    PasteForm,
)
from decks.models import MAIN, REINFORCEMENTS, Deck
from decks.stats import deck_view
from decks.views.decks import deck_context, own_deck
from groups import formats
from rules_check.model import REINFORCEMENT
from webutil.confirm import unless_confirmed
from webutil.requests import AuthedRequest, HtmxHttpRequest

_IMPORT_NOTES = "deck_import_notes"
_PASTED = "deck_pasted"  # what a list pasted without JavaScript added, shown once with its undo


def _unless_built_is_understood(request: AuthedRequest, deck: Deck, given: dict[str, Any]) -> HttpResponse | None:
    """Marking a deck built sets its copies aside in the collection: when the owner lacks some,
    say how many before it happens (they then show as over-committed elsewhere)."""
    if not given.get("built") or deck.built:
        return None
    view = deck_view(deck, request.user)
    lacking = view.needed_total - view.available_total
    if lacking <= 0:
        return None
    return unless_confirmed(
        request,
        title=_("Mark “%(name)s” built?") % {"name": deck.name},
        message=ngettext(
            "Built, its %(needed)d cards are set aside in your collection, and you lack %(lacking)d copy of "
            "them: your collection and other decks will count it as over-committed until you add it.",
            "Built, its %(needed)d cards are set aside in your collection, and you lack %(lacking)d copies of "
            "them: your collection and other decks will count them as over-committed until you add them.",
            lacking,
        )
        % {"needed": view.needed_total, "lacking": lacking},
        button=_("Mark it built"),
        back=reverse("decks:build", args=[deck.pk]),
    )


@login_required
def build(request: AuthedRequest, deck_id: int) -> HttpResponse:
    deck = own_deck(request, deck_id)
    if request.method == "POST":
        form = DeckSettingsForm(request.POST, user=request.user, keep=deck.format)
        if form.is_valid():
            asked = _unless_built_is_understood(request, deck, form.cleaned_data)
            if asked:
                return asked
            try:
                services.apply_settings(deck, form.cleaned_data, note="settings")
            except services.DeckError as exc:  # a group left between the form and the save
                form.add_error(None, str(exc))
            else:
                messages.success(request, _("Saved."))
                return redirect("decks:build", deck.pk)
    else:
        form = DeckSettingsForm(
            user=request.user,
            keep=deck.format,
            initial={
                "name": deck.name,
                "format": deck.format,
                "description": deck.description,
                "visibility": deck.visibility,
                "built": deck.built,
                "archived": deck.archived,
                "tags": ", ".join(deck.tags.values_list("name", flat=True)),
                "groups": list(deck.groups.values_list("pk", flat=True)),
            },
        )
    # The results show no set: no join for it.
    card_filter = CardFilter(request.GET, queryset=with_counts(Card.objects.all(), request.user))
    results = card_filter.qs[:30] if card_filter.is_valid() else Card.objects.none()
    if request.htmx and request.method == "GET" and request.htmx.target == "search-results":
        return render(request, "decks/_search_results.html", {"deck": deck, "results": results, "filter": card_filter})
    context = deck_context(request, deck)
    context.update(
        {
            "form": form,
            "filter": card_filter,
            "results": results,
            "import_notes": request.session.pop(f"{_IMPORT_NOTES}:{deck.pk}", None),
            "pasted": request.session.pop(f"{_PASTED}:{deck.pk}", None),
        }
    )
    return render(request, "decks/build.html", context, status=400 if request.method == "POST" else 200)


@login_required
@require_POST
def change(request: AuthedRequest, deck_id: int) -> HttpResponse:
    """The builder's one write: +1, −1, a typed count, a full playset, remove, choose or drop
    the general."""
    deck = own_deck(request, deck_id)
    form = EntryForm(request.POST)
    if not form.is_valid():
        return _builder_error(request, deck, " ".join(str(e) for errors in form.errors.values() for e in errors))
    action, code = form.cleaned_data["action"], form.cleaned_data["card"]
    if action == "no_general" or (action == "general" and not code):
        deck = services.set_general(deck, None)
    else:
        facts = catalog_index().lookup(code or "")
        if facts is None:
            return _builder_error(request, deck, _("No card “%(code)s”.") % {"code": (code or "")[:40]})
        section = form.cleaned_data["section"] or (REINFORCEMENTS if facts.kind == REINFORCEMENT else MAIN)
        if action == "general":
            deck = services.set_general(deck, facts.code)
        elif action == "set":
            deck = services.change_entry(deck, facts.code, count=form.cleaned_data["count"] or 0, section=section)
        elif action == "playset":  # as many as the deck's format allows of it, in one tap
            limit = formats.stored(deck.format).limit_for([facts])
            deck = services.change_entry(deck, facts.code, count=limit, section=section)
        else:
            delta = {"inc": 1, "dec": -1, "remove": -10_000}[action]
            deck = services.change_entry(deck, facts.code, delta=delta, section=section)
    if request.htmx:
        return render(request, "decks/_deck_panel.html", deck_context(request, deck))
    return redirect("decks:build", deck.pk)


@login_required
@require_POST
def paste(request: AuthedRequest, deck_id: int) -> HttpResponse:
    """A pasted list joins the deck (the import page's reader); what could not be read is said,
    and one button puts the deck back as it was."""
    deck = own_deck(request, deck_id)
    form = PasteForm(request.POST)
    if not form.is_valid():
        return _builder_error(request, deck, " ".join(str(e) for errors in form.errors.values() for e in errors))
    try:
        added, notes = intake.read_text(form.cleaned_data["text"], format_name=deck.format, lenient=True)
    except intake.DeckInputError as exc:
        return _builder_error(request, deck, str(exc))
    count = sum(added.main.values()) + sum(added.reinforcements.values())
    if not count and not added.general:
        return _builder_error(request, deck, _("No card of the list could be read."))
    deck, before = services.add_cards(deck, added)
    context = deck_context(request, deck) | {
        "pasted": {"count": count, "undo": before, "notes": [n.as_dict() for n in notes]}
    }
    if request.htmx:
        return render(request, "decks/_deck_panel.html", context)
    request.session[f"{_PASTED}:{deck.pk}"] = context["pasted"]
    return redirect("decks:build", deck.pk)


def _builder_error(request: HtmxHttpRequest, deck: Deck, message: str) -> HttpResponse:
    if request.htmx:
        context = deck_context(request, deck) | {"error": message}
        return render(request, "decks/_deck_panel.html", context, status=400)
    return render(request, "error.html", {"message": message}, status=400)
