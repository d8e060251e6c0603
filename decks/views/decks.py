"""Deck pages: mine, a deck, its history, a new or imported deck, the public list; and the helpers
the other deck views share (a deck of mine, a deck I may read, a deck page's context)."""

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

from catalog.lookup import catalog_index
from catalog.models import Card
from catalog.textkeys import to_simplified
from catalog.vocab import Faction
from decks import deckcode, featured, intake, search, services
from decks.batch import DECK_LIST
from decks.data import DeckData
from decks.filters import NarrowSorted
from decks.filters import deck_filter as deck_filter_for
from decks.forms import (
    ImportDeckForm,
    format_choices,
)
from decks.i18n import label_formats
from decks.legality import check_deck_snapshot
from decks.models import Deck, DeckTag, DeckVersion, Visibility
from decks.stats import curve_svg, deck_view
from decks.views.thread import comments_context
from groups.models import Group
from webutil.bounds import accepts
from webutil.confirm import unless_confirmed
from webutil.i18n import wants_english, wants_simplified
from webutil.pagination import SlicePage, page_number, per_page
from webutil.querystring import tidy_get
from webutil.requests import AuthedRequest, HtmxHttpRequest

_IMPORT_NOTES = "deck_import_notes"


def own_deck(request: HtmxHttpRequest, deck_id: int) -> Deck:
    # Another user's deck is a 404, never a 403: its existence is private too.
    # With its general: the builder and the deck's panel show it.
    return get_object_or_404(Deck.objects.owned_by(request.user).select_related("general"), pk=deck_id)


def visible_deck(request: HtmxHttpRequest, deck_id: int) -> Deck:
    return get_object_or_404(Deck.objects.visible_to(request.user).select_related("owner", "general"), pk=deck_id)


def deck_context(request: HtmxHttpRequest, deck: Deck) -> dict[str, Any]:
    view = deck_view(deck, request.user)
    data = services.snapshot_of(deck, view.entries)
    verdict = check_deck_snapshot(data)
    return {
        "deck": deck,
        "view": view,
        "verdict": verdict,
        "bad_cards": verdict.bad_cards,
        "curve": curve_svg(view.curve),
        "deck_code": deckcode.encode(data.format, data.general, data.main, data.reinforcements),
        "is_owner": request.user.is_authenticated and deck.owner_id == request.user.pk,
        # read only when the builder's cached list of generals is drawn again
        "generals": Card.objects.generals_for_choice(),
    }


@login_required
@tidy_get({"sort": "updated"})
def my_decks(request: AuthedRequest) -> HttpResponse:
    """My decks, archived ones apart (?archived=1), filtered by tag and sorted like the public list."""
    archived = request.GET.get("archived") == "1"
    mine = Deck.objects.owned_by(request.user).filter(archived=archived).select_related("general")
    deck_filter = deck_filter_for(request, mine.prefetch_related("tags"))
    valid = deck_filter.is_valid()
    decks = list(deck_filter.qs) if valid else []
    label_formats(decks)
    context = {
        "decks": decks,
        "filter": deck_filter,
        "archived": archived,
        "tags": DeckTag.objects.filter(deck__owner=request.user)
        .values_list("name", flat=True)
        .distinct()
        .order_by("name"),
        "sort": request.GET.get("sort", "updated"),
    }
    return render(request, "decks/my_decks.html", context, status=200 if valid else 400)


@login_required
@require_POST
def new_deck(request: AuthedRequest) -> HttpResponse:
    deck = services.save_deck(
        Deck(owner=request.user),
        DeckData(name=_("New deck"), format="standard", general=None, main={}, reinforcements={}),
        note="created",
    )
    return redirect("decks:build", deck.pk)


def detail_context(request: HtmxHttpRequest, deck_id: int) -> dict[str, Any]:
    """Everything a deck's page shows but its comments (decks.views.comments adds them)."""
    readable = Deck.objects.visible_to(request.user).with_reader_marks(request.user)
    deck = get_object_or_404(readable.select_related("owner", "general"), pk=deck_id)
    context = deck_context(request, deck)
    context["description"] = mark_safe(deck.description_html)  # noqa: S308 (sanitised when saved)
    context["names"] = deck_names(deck)
    # The groups it is shared with that the reader is in (all of them, for its owner).
    context["shared_groups"] = list(deck.groups.filter(pk__in=Group.objects.of(request.user).values("pk")))
    return context


def detail(request: HtmxHttpRequest, deck_id: int) -> HttpResponse:
    context = detail_context(request, deck_id)
    context.update(comments_context(request, context["deck"]))
    if request.user.is_authenticated and request.user.is_staff:
        context["featured"] = featured.is_featured(context["deck"])
    return render(request, "decks/detail.html", context)


def linked(request: HtmxHttpRequest, token: str) -> HttpResponse:
    """An unlisted deck, read by its link: never listed, searched, liked or commented. A public
    deck's link goes to its page; a private deck's (or a replaced link) reads nothing."""
    deck = Deck.objects.select_related("owner", "general").filter(link_token=token).first()
    if deck is None or deck.visibility == Visibility.PRIVATE:
        raise Http404
    if deck.public or (request.user.is_authenticated and deck.owner_id == request.user.pk):
        return redirect(deck.get_absolute_url())
    context = deck_context(request, deck)
    context["description"] = mark_safe(deck.description_html)  # noqa: S308 (sanitised when saved)
    context["names"] = deck_names(deck)
    context["linked"] = True
    return render(request, "decks/linked.html", context)


@login_required
@require_POST
def new_link(request: AuthedRequest, deck_id: int) -> HttpResponse:
    """The owner replaces the unlisted deck's link: whoever had the old one reads nothing now."""
    deck = own_deck(request, deck_id)
    services.new_link(deck)
    messages.success(request, _("A new link was made; the old one no longer works."))
    return redirect(deck.get_absolute_url())


@login_required
@require_POST
def delete(request: AuthedRequest, deck_id: int) -> HttpResponse:
    deck = own_deck(request, deck_id)
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
    copy = services.clone(visible_deck(request, deck_id), request.user)
    messages.success(request, _("Cloned into your decks."))
    return redirect("decks:build", copy.pk)


def history(request: HtmxHttpRequest, deck_id: int) -> HttpResponse:
    deck = visible_deck(request, deck_id)
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
    deck = own_deck(request, deck_id)
    count = services.publish_history(deck)
    messages.success(request, _("%(n)d earlier versions can now be seen by others.") % {"n": count})
    return redirect("decks:history", deck.pk)


@login_required
@require_POST
def restore(request: AuthedRequest, deck_id: int, number: int) -> HttpResponse:
    deck = own_deck(request, deck_id)
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
    # The builder's undo of a pasted list comes back to the builder.
    return redirect("decks:build" if request.POST.get("to") == "build" else "decks:detail", deck.pk)


@accepts(DECK_LIST)
@login_required
def import_deck(request: AuthedRequest) -> HttpResponse:
    form = ImportDeckForm(request.POST or None, request.FILES or None, user=request.user)
    if request.method == "POST" and form.is_valid():
        text = form.cleaned_data.get("file") or form.cleaned_data["text"]
        try:
            data, notes = intake.read_text(
                text, name=form.cleaned_data["name"], format_name=form.cleaned_data["format"], lenient=True
            )
        except intake.DeckInputError as exc:
            form.add_error("text", str(exc))
        else:
            deck = services.save_deck(Deck(owner=request.user), data, note="imported")
            if notes:
                request.session[f"{_IMPORT_NOTES}:{deck.pk}"] = [n.as_dict() for n in notes]
            return redirect("decks:build", deck.pk)
    return render(request, "decks/import.html", {"form": form}, status=400 if form.errors else 200)


# The public list pages without counting (a COUNT over every public deck grows with the site),
# and stops at a page number past which a filter serves better than paging.
DECKS_PER_PAGE = 30
MAX_DECK_PAGE = 50


def deck_table(request: HtmxHttpRequest, decks: Any) -> tuple[dict[str, Any], bool]:
    """What decks/_deck_table.html shows of `decks` (others' decks: the public list, a group's
    shared decks): the filters as the request gives them and one page; and whether they are valid."""
    deck_filter = deck_filter_for(request, decks.select_related("owner", "general"))
    valid = deck_filter.is_valid()
    number = page_number(request, MAX_DECK_PAGE)
    shown = deck_filter.qs if valid else Deck.objects.none()
    page = SlicePage(NarrowSorted(shown), number or 1, per_page(request, DECKS_PER_PAGE)) if number else None
    shown_decks = list(page.object_list) if page else []
    label_formats(shown_decks)
    context = {
        "page": page,
        "decks": shown_decks,
        "too_far": number is None,
        "filter": deck_filter,
        **card_search_fields(request),
        "formats": format_choices(),
        "sort": request.GET.get("sort", "updated"),
        "factions": Faction.values,
    }
    return context, valid


def card_search_fields(request: HtmxHttpRequest) -> dict[str, Any]:
    """The card search's fields as the reader filled them (three cards to play, one to leave
    out, more when the URL names more), the catalogue's names to suggest, and the examples in
    the reader's script."""
    cards = request.GET.getlist("card")[: int(search.SEARCH_CARDS)]
    without = request.GET.getlist("without")[: int(search.SEARCH_CARDS)]
    shown = to_simplified if wants_simplified() else str
    return {
        "card_slots": cards + [""] * max(0, 3 - len(cards)),
        "without_slots": without + [""] * max(0, 1 - len(without)),
        "card_names": sorted({shown(facts.name) for facts in catalog_index().by_code.values()}),
        # An English reader types pinyin.
        "example_card": "xinbing" if wants_english() else shown("新兵"),
        "example_without": "huogong" if wants_english() else shown("火攻"),
    }


@tidy_get({"sort": "updated"})
def public_list(request: HtmxHttpRequest) -> HttpResponse:
    context, valid = deck_table(request, Deck.objects.listed())
    return render(request, "decks/public_list.html", context, status=200 if valid else 400)


def deck_names(deck: Deck) -> list[tuple[str, str]]:
    """The main deck's card names, once each (code of the first, name): the odds form's choices."""
    index = catalog_index()
    seen: dict[str, tuple[str, str]] = {}
    for code in services.snapshot_of(deck).main:
        facts = index.by_code[code]
        seen.setdefault(facts.name_key, (code, facts.name))
    return list(seen.values())
