"""The deck builder, deck pages, history, import and export, the public list, the print sheet."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from catalog.filters import CardFilter
from catalog.lookup import catalog_index
from catalog.models import Card
from catalog.vocab import Faction
from collection.queries import with_counts
from collection.services import set_wanted
from decks import deckcode, intake, services
from decks.data import DeckData
from decks.filters import DeckFilter
from decks.forms import DeckSettingsForm, EntryForm, ImportDeckForm, format_choices
from decks.legality import check_deck_snapshot
from decks.models import MAIN, REINFORCEMENTS, Deck, DeckVersion
from decks.sheets import sheet_for_snapshot
from decks.stats import curve_svg, deck_view
from rules_check.model import REINFORCEMENT
from webutil.confirm import unless_confirmed
from webutil.pagination import SlicePage, page_number, per_page
from webutil.requests import AuthedRequest, HtmxHttpRequest

_IMPORT_NOTES = "deck_import_notes"


def _own_deck(request: HtmxHttpRequest, deck_id: int) -> Deck:
    # Another user's deck is a 404, never a 403: its existence is private too.
    return get_object_or_404(Deck.objects.owned_by(request.user), pk=deck_id)


def _visible_deck(request: HtmxHttpRequest, deck_id: int) -> Deck:
    return get_object_or_404(Deck.objects.visible_to(request.user).select_related("owner", "general"), pk=deck_id)


def _deck_context(request: HtmxHttpRequest, deck: Deck) -> dict[str, Any]:
    data = services.snapshot_of(deck)
    verdict = check_deck_snapshot(data)
    view = deck_view(deck, request.user)
    return {
        "deck": deck,
        "view": view,
        "verdict": verdict,
        "bad_cards": verdict.bad_cards,
        "curve": curve_svg(view.curve),
        "deck_code": deckcode.encode(data.format, data.general, data.main, data.reinforcements),
        "is_owner": request.user.is_authenticated and deck.owner_id == request.user.pk,
    }


@login_required
def my_decks(request: AuthedRequest) -> HttpResponse:
    decks = Deck.objects.owned_by(request.user).select_related("general")
    return render(request, "decks/my_decks.html", {"decks": decks})


@login_required
@require_POST
def new_deck(request: AuthedRequest) -> HttpResponse:
    deck = services.save_deck(
        Deck(owner=request.user),
        DeckData(name=_("New deck"), format="standard", general=None, main={}, reinforcements={}),
        note=_("created"),
    )
    return redirect("decks:build", deck.pk)


def detail(request: HtmxHttpRequest, deck_id: int) -> HttpResponse:
    deck = _visible_deck(request, deck_id)
    context = _deck_context(request, deck)
    context["description"] = mark_safe(deck.description_html)  # noqa: S308 (sanitised when saved)
    return render(request, "decks/detail.html", context)


@login_required
def build(request: AuthedRequest, deck_id: int) -> HttpResponse:
    deck = _own_deck(request, deck_id)
    if request.method == "POST":
        form = DeckSettingsForm(request.POST)
        if form.is_valid():
            settings = form.cleaned_data

            def change(current: Deck, data: DeckData) -> None:
                data.name, data.format, data.description = settings["name"], settings["format"], settings["description"]
                current.public = settings["public"]

            services.update_deck(deck, change, note=_("settings"))
            messages.success(request, _("Saved."))
            return redirect("decks:build", deck.pk)
    else:
        form = DeckSettingsForm(
            initial={"name": deck.name, "format": deck.format, "description": deck.description, "public": deck.public}
        )
    card_filter = CardFilter(request.GET, queryset=with_counts(Card.objects.with_set(), request.user))
    results = card_filter.qs[:30] if card_filter.is_valid() else Card.objects.none()
    if request.htmx and request.method == "GET" and request.htmx.target == "search-results":
        return render(request, "decks/_search_results.html", {"deck": deck, "results": results, "filter": card_filter})
    context = _deck_context(request, deck)
    context.update(
        {
            "form": form,
            "filter": card_filter,
            "results": results,
            "generals": Card.objects.generals_for_choice(),
            "import_notes": request.session.pop(f"{_IMPORT_NOTES}:{deck.pk}", None),
        }
    )
    return render(request, "decks/build.html", context, status=400 if request.method == "POST" else 200)


@login_required
@require_POST
def change(request: AuthedRequest, deck_id: int) -> HttpResponse:
    """The builder's one write: +1, −1, set, remove, choose or drop the general."""
    deck = _own_deck(request, deck_id)
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
        else:
            delta = {"inc": 1, "dec": -1, "remove": -10_000}[action]
            deck = services.change_entry(deck, facts.code, delta=delta, section=section)
    if request.htmx:
        return render(request, "decks/_deck_panel.html", _deck_context(request, deck))
    return redirect("decks:build", deck.pk)


def _builder_error(request: HtmxHttpRequest, deck: Deck, message: str) -> HttpResponse:
    if request.htmx:
        context = _deck_context(request, deck) | {"error": message}
        return render(request, "decks/_deck_panel.html", context, status=400)
    return render(request, "collection/error.html", {"message": message}, status=400)


@login_required
@require_POST
def delete(request: AuthedRequest, deck_id: int) -> HttpResponse:
    deck = _own_deck(request, deck_id)
    asked = unless_confirmed(
        request,
        title=_("Delete “%(name)s”?") % {"name": deck.name},
        message=_("The deck and its history are deleted. This cannot be undone."),
        button=_("Delete the deck"),
        back=deck.get_absolute_url(),
    )
    if asked:
        return asked
    deck.delete()
    messages.success(request, _("The deck was deleted."))
    return redirect("decks:mine")


@login_required
@require_POST
def clone(request: AuthedRequest, deck_id: int) -> HttpResponse:
    copy = services.clone(_visible_deck(request, deck_id), request.user)
    messages.success(request, _("Cloned into your decks."))
    return redirect("decks:build", copy.pk)


def history(request: HtmxHttpRequest, deck_id: int) -> HttpResponse:
    deck = _visible_deck(request, deck_id)
    is_owner = request.user.is_authenticated and deck.owner_id == request.user.pk
    # Others see only versions saved while the deck was public, unless the owner published more.
    shown = deck.versions.all() if is_owner else deck.versions.filter(public=True)
    versions = list(shown[:100])
    numbers = [v.number for v in versions]
    a, b = request.GET.get("a"), request.GET.get("b")
    comparison = None
    if a and b:
        try:
            va = shown.get(number=int(a))
            vb = shown.get(number=int(b))
        except (ValueError, OverflowError, DeckVersion.DoesNotExist):
            raise Http404(_("No such version.")) from None
        comparison = {"a": va, "b": vb, "diff": services.diff(va.snapshot, vb.snapshot)}
    elif len(numbers) >= 2:
        comparison = {
            "a": versions[1],
            "b": versions[0],
            "diff": services.diff(versions[1].snapshot, versions[0].snapshot),
        }
    private_count = sum(1 for v in versions if not v.public) if is_owner else 0
    context = {
        "deck": deck,
        "versions": versions,
        "comparison": comparison,
        "is_owner": is_owner,
        "private_count": private_count,
    }
    return render(request, "decks/history.html", context)


@login_required
@require_POST
def publish_history(request: AuthedRequest, deck_id: int) -> HttpResponse:
    deck = _own_deck(request, deck_id)
    count = services.publish_history(deck)
    messages.success(request, _("%(n)d earlier versions can now be seen by others.") % {"n": count})
    return redirect("decks:history", deck.pk)


@login_required
@require_POST
def restore(request: AuthedRequest, deck_id: int, number: int) -> HttpResponse:
    deck = _own_deck(request, deck_id)
    version = get_object_or_404(deck.versions, number=number)
    asked = unless_confirmed(
        request,
        title=_("Restore version %(n)d?") % {"n": number},
        message=_("The deck becomes what it was then; what it is now stays in the history as a version."),
        button=_("Restore"),
        back=reverse("decks:history", args=[deck.pk]),
    )
    if asked:
        return asked
    services.restore(deck, version)
    messages.success(request, _("Version %(n)d restored.") % {"n": number})
    return redirect("decks:detail", deck.pk)


def export_text(request: HtmxHttpRequest, deck_id: int) -> HttpResponse:
    deck = _visible_deck(request, deck_id)
    response = HttpResponse(services.deck_text(deck), content_type="text/plain; charset=utf-8")
    if request.GET.get("download"):
        response["Content-Disposition"] = f'attachment; filename="deck-{deck.pk}.txt"'
    return response


def sheet(request: HtmxHttpRequest, deck_id: int) -> HttpResponse:
    deck = _visible_deck(request, deck_id)
    sheet = sheet_for_snapshot(services.snapshot_of(deck), deck.format_label, deck_name=deck.name)
    return render(request, "decks/sheet.html", {"deck": deck, "sheet": sheet})


@login_required
@require_POST
def want_missing(request: AuthedRequest, deck_id: int) -> HttpResponse:
    deck = _visible_deck(request, deck_id)
    view = deck_view(deck, request.user)
    for line in view.missing:
        set_wanted(request.user, line.card, line.missing)
    messages.success(request, _("%(n)d cards added to your wishlist.") % {"n": len(view.missing)})
    return redirect("collection:trade")


@login_required
def import_deck(request: AuthedRequest) -> HttpResponse:
    form = ImportDeckForm(request.POST or None, request.FILES or None)
    if request.method == "POST" and form.is_valid():
        text = form.cleaned_data.get("file") or form.cleaned_data["text"]
        try:
            data, notes = intake.read_text(
                text, name=form.cleaned_data["name"], format_name=form.cleaned_data["format"], lenient=True
            )
        except intake.DeckInputError as exc:
            form.add_error("text", str(exc))
        else:
            deck = services.save_deck(Deck(owner=request.user), data, note=_("imported"))
            if notes:
                request.session[f"{_IMPORT_NOTES}:{deck.pk}"] = [n.as_dict() for n in notes]
            return redirect("decks:build", deck.pk)
    return render(request, "decks/import.html", {"form": form}, status=400 if form.errors else 200)


# The public list pages without counting (a COUNT over every public deck grows with the site),
# and stops at a page number past which a filter serves better than paging.
DECKS_PER_PAGE = 30
MAX_DECK_PAGE = 50


def public_list(request: HtmxHttpRequest) -> HttpResponse:
    services.refresh_verdicts()  # the list filters by the verdicts decks keep
    deck_filter = DeckFilter(request.GET, queryset=Deck.objects.filter(public=True).select_related("owner", "general"))
    valid = deck_filter.is_valid()
    decks = deck_filter.qs if valid else Deck.objects.none()
    number = page_number(request, MAX_DECK_PAGE)
    page = SlicePage(decks, number or 1, per_page(request, DECKS_PER_PAGE)) if number else None
    context = {
        "page": page,
        "decks": page.object_list if page else [],
        "too_far": number is None,
        "filter": deck_filter,
        "formats": format_choices(),
        "sort": request.GET.get("sort", "updated"),
        "factions": Faction.values,
    }
    return render(request, "decks/public_list.html", context, status=200 if valid else 400)
