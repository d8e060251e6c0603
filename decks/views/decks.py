"""The deck builder, deck pages, history, import and export, the public list, the print sheet."""

from __future__ import annotations

import math
import secrets
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.cache import cache
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.safestring import mark_safe
from django.utils.translation import get_language, ngettext
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from catalog.cache_version import current as catalog_version
from catalog.filters import CardFilter
from catalog.lookup import catalog_index
from catalog.models import Card
from catalog.vocab import Faction
from collection.models import MAX_COPIES
from collection.queries import with_counts
from collection.services import set_wanted
from decks import archive as decks_archive
from decks import compare as deck_compare
from decks import deckcode, draw_odds, intake, services
from decks.batch import DECK_LIST, MAX_ZIP_BYTES, ZIP
from decks.close import DEFAULT_MISSING, Suggestion, close_enough
from decks.data import DeckData
from decks.filters import NarrowSorted
from decks.filters import deck_filter as deck_filter_for
from decks.forms import (
    ArchiveUploadForm,
    CloseEnoughForm,
    DeckSettingsForm,
    EntryForm,
    ImportDeckForm,
    PasteForm,
    format_choices,
)
from decks.i18n import label_formats
from decks.image import deck_png
from decks.legality import check_deck_snapshot
from decks.models import MAIN, REINFORCEMENTS, Deck, DeckTag, DeckVersion
from decks.sheets import sheet_for_snapshot
from decks.shopping import as_csv, as_text, shopping_list
from decks.stats import curve_svg, deck_view
from drawing import TURNS, sample_hand
from groups import formats
from groups.models import Group
from rules_check.model import REINFORCEMENT
from webutil.bounds import accepts
from webutil.confirm import unless_confirmed
from webutil.numbers import whole_number
from webutil.pagination import SlicePage, page_number, per_page
from webutil.querystring import tidy_get
from webutil.requests import AuthedRequest, HtmxHttpRequest
from webutil.throttling import hit, minutes

_IMPORT_NOTES = "deck_import_notes"
IMAGE_SECONDS = 24 * 3600  # a deck picture kept this long (a new version replaces it under its key)
_PASTED = "deck_pasted"  # what a list pasted without JavaScript added, shown once with its undo


def _own_deck(request: HtmxHttpRequest, deck_id: int) -> Deck:
    # Another user's deck is a 404, never a 403: its existence is private too.
    # With its general: the builder and the deck's panel show it.
    return get_object_or_404(Deck.objects.owned_by(request.user).select_related("general"), pk=deck_id)


def _visible_deck(request: HtmxHttpRequest, deck_id: int) -> Deck:
    return get_object_or_404(Deck.objects.visible_to(request.user).select_related("owner", "general"), pk=deck_id)


def _deck_context(request: HtmxHttpRequest, deck: Deck) -> dict[str, Any]:
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


def detail(request: HtmxHttpRequest, deck_id: int) -> HttpResponse:
    deck = _visible_deck(request, deck_id)
    context = _deck_context(request, deck)
    context["description"] = mark_safe(deck.description_html)  # noqa: S308 (sanitised when saved)
    context["names"] = deck_names(deck)
    # The groups it is shared with that the reader is in (all of them, for its owner).
    context["shared_groups"] = list(deck.groups.filter(pk__in=Group.objects.of(request.user).values("pk")))
    return render(request, "decks/detail.html", context)


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
    deck = _own_deck(request, deck_id)
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
                "public": deck.public,
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
    context = _deck_context(request, deck)
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
        elif action == "playset":  # as many as the deck's format allows of it, in one tap
            limit = formats.stored(deck.format).limit_for([facts])
            deck = services.change_entry(deck, facts.code, count=limit, section=section)
        else:
            delta = {"inc": 1, "dec": -1, "remove": -10_000}[action]
            deck = services.change_entry(deck, facts.code, delta=delta, section=section)
    if request.htmx:
        return render(request, "decks/_deck_panel.html", _deck_context(request, deck))
    return redirect("decks:build", deck.pk)


@login_required
@require_POST
def paste(request: AuthedRequest, deck_id: int) -> HttpResponse:
    """A pasted list joins the deck (the import page's reader); what could not be read is said,
    and one button puts the deck back as it was."""
    deck = _own_deck(request, deck_id)
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
    context = _deck_context(request, deck) | {
        "pasted": {"count": count, "undo": before, "notes": [n.as_dict() for n in notes]}
    }
    if request.htmx:
        return render(request, "decks/_deck_panel.html", context)
    request.session[f"{_PASTED}:{deck.pk}"] = context["pasted"]
    return redirect("decks:build", deck.pk)


def _builder_error(request: HtmxHttpRequest, deck: Deck, message: str) -> HttpResponse:
    if request.htmx:
        context = _deck_context(request, deck) | {"error": message}
        return render(request, "decks/_deck_panel.html", context, status=400)
    return render(request, "error.html", {"message": message}, status=400)


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
    # The builder's undo of a pasted list comes back to the builder.
    return redirect("decks:build" if request.POST.get("to") == "build" else "decks:detail", deck.pk)


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


PROXIES_PER_PAGE = 9  # 3 × 3 cards of 63 × 88 mm on an A4 page
MAX_PROXIES = 270  # 30 pages: a deck and its general, with room; an illegal count stops here


def proxies(request: HtmxHttpRequest, deck_id: int) -> HttpResponse:
    """The deck's card faces at real size on A4, nine a page with cut lines, to print and test
    the deck before buying it: the general, then each copy of each main-deck card."""
    deck = _visible_deck(request, deck_id)
    data = services.snapshot_of(deck)
    known = catalog_index().by_code  # in catalogue order
    order = {code: i for i, code in enumerate(known)}
    main = sorted(data.main, key=lambda code: order.get(code, len(order)))
    codes = ([data.general] if data.general else []) + [code for code in main for _ in range(data.main[code])]
    cards = [{"code": code, "name": known[code].name if code in known else code} for code in codes[:MAX_PROXIES]]
    pages = [cards[i : i + PROXIES_PER_PAGE] for i in range(0, len(cards), PROXIES_PER_PAGE)]
    context = {"deck": deck, "pages": pages, "count": len(codes), "cut": len(codes) > MAX_PROXIES, "most": MAX_PROXIES}
    return render(request, "decks/proxies.html", context)


def deck_image(request: HtmxHttpRequest, deck_id: int) -> HttpResponse:
    """The deck as one PNG for chat, for whoever may read the deck (others: 404); kept once per
    deck and language, stamped with the deck's and the catalogue's versions: a change replaces
    the picture under the same key, so the cache holds at most one picture a deck and language."""
    deck = _visible_deck(request, deck_id)
    key = f"deck-image:{deck.pk}:{get_language()}"
    stamp = f"{deck.updated.timestamp()}:{catalog_version()}"
    kept = cache.get(key)
    png = kept[1] if isinstance(kept, tuple) and len(kept) == 2 and kept[0] == stamp else None
    if png is None:
        sheet = sheet_for_snapshot(services.snapshot_of(deck), deck.format_label, deck_name=deck.name)
        life = deck.general.life if deck.general else None
        png = deck_png(sheet, request.build_absolute_uri(deck.get_absolute_url()), life)
        cache.set(key, (stamp, png), IMAGE_SECONDS)
    response = HttpResponse(png, content_type="image/png")
    response["Content-Disposition"] = f'inline; filename="deck-{deck.pk}.png"'
    response["Cache-Control"] = "public, max-age=300" if deck.public else "private, max-age=300"
    return response


@login_required
@require_POST
def want_missing(request: AuthedRequest, deck_id: int) -> HttpResponse:
    deck = _visible_deck(request, deck_id)
    view = deck_view(deck, request.user)
    for line in view.missing:
        set_wanted(request.user, line.card, line.missing)
    messages.success(request, _("%(n)d cards added to your wishlist.") % {"n": len(view.missing)})
    return redirect("collection:trade")


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
        "formats": format_choices(),
        "sort": request.GET.get("sort", "updated"),
        "factions": Faction.values,
    }
    return context, valid


@tidy_get({"sort": "updated"})
def public_list(request: HtmxHttpRequest) -> HttpResponse:
    context, valid = deck_table(request, Deck.objects.filter(public=True))
    return render(request, "decks/public_list.html", context, status=200 if valid else 400)


MAX_SHOPPING_DECKS = 50


def _chosen_decks(request: AuthedRequest, data: Any) -> list[Deck]:
    """The decks named by `deck=` (mine, or anyone's public ones); an unknown id is a 404."""
    try:
        ids = {int(v) for v in data.getlist("deck")[: MAX_SHOPPING_DECKS + 1]}
    except (ValueError, OverflowError):
        raise Http404(_("No such deck.")) from None
    if any(not 0 < i < 2**63 for i in ids):
        raise Http404(_("No such deck."))
    if len(ids) > MAX_SHOPPING_DECKS:
        raise Http404(_("At most %(n)d decks at once.") % {"n": MAX_SHOPPING_DECKS})
    decks = list(Deck.objects.visible_to(request.user).filter(pk__in=ids).order_by("name", "pk"))
    if len(decks) != len(ids):
        raise Http404(_("No such deck."))
    return decks


@login_required
def shopping(request: AuthedRequest) -> HttpResponse:
    """What I must get to build the chosen decks at once (and the wishlist): a page, text or CSV."""
    decks = _chosen_decks(request, request.GET)
    with_wishlist = request.GET.get("wishlist") == "1"
    lines = shopping_list(request.user, decks, with_wishlist=with_wishlist) if decks or with_wishlist else []
    missing = [line for line in lines if line.missing]
    output = request.GET.get("output", "")
    if output in ("text", "csv"):
        body = as_text(lines) if output == "text" else as_csv(lines)
        kind = "text/plain" if output == "text" else "text/csv"
        response = HttpResponse(body, content_type=f"{kind}; charset=utf-8")
        response["Content-Disposition"] = f'attachment; filename="shopping-list.{"txt" if output == "text" else "csv"}"'
        return response
    close_form = CloseEnoughForm(request.GET if "missing" in request.GET else None)
    missing_at_most = close_form.cleaned_data["missing"] if close_form.is_valid() else DEFAULT_MISSING
    context = {
        "close_form": close_form,
        "close": _purchases(close_enough(request.user, missing_at_most)),
        "mine": Deck.objects.owned_by(request.user).order_by("archived", "name", "pk"),
        "chosen": {d.pk for d in decks},
        "decks": decks,
        "with_wishlist": with_wishlist,
        "lines": missing,
        "missing_total": sum(line.missing for line in missing),
    }
    return render(request, "decks/shopping.html", context, status=400 if close_form.errors else 200)


def _purchases(suggestions: list[Suggestion]) -> list[dict[str, Any]]:
    """The suggestions with their cards and decks as rows (two queries for all of them)."""
    cards = Card.objects.in_bulk([code for s in suggestions for code, _n in s.buy], field_name="code")
    decks = Deck.objects.select_related("owner").in_bulk([pk for s in suggestions for pk in s.decks])
    return [
        {
            "buy": [(cards[code], n) for code, n in s.buy],
            "unlocks": s.unlocks,
            "decks": [decks[pk] for pk in s.decks if pk in decks],
        }
        for s in suggestions
    ]


@login_required
@require_POST
def shopping_want(request: AuthedRequest) -> HttpResponse:
    """Add every missing card of the shopping list to my wishlist (never lowering what it wants)."""
    decks = _chosen_decks(request, request.POST)
    with_wishlist = request.POST.get("wishlist") == "1"
    missing = [line for line in shopping_list(request.user, decks, with_wishlist=with_wishlist) if line.missing]
    wanted = dict(request.user.wishlist.values_list("card", "wanted"))
    for line in missing:
        set_wanted(request.user, line.card, min(MAX_COPIES, max(wanted.get(line.card.pk, 0), line.missing)))
    messages.success(request, _("%(n)d cards added to your wishlist.") % {"n": len(missing)})
    return redirect("collection:trade")


@accepts(ZIP)
@login_required
def archive(request: AuthedRequest) -> HttpResponse:
    """Download all my decks (or everything of mine) as a zip; upload such a zip to add its decks."""
    form = ArchiveUploadForm(request.POST, request.FILES) if request.method == "POST" else ArchiveUploadForm()
    problems: list[str] = []
    if request.method == "POST" and form.is_valid():
        wait = hit(f"deck-archive:user:{request.user.pk}", decks_archive.UPLOADS_PER_HOUR)
        if wait is not None:
            message = _("At most %(n)d uploads an hour: try again in %(minutes)d minutes.") % {
                "n": decks_archive.UPLOADS_PER_HOUR.count,
                "minutes": minutes(wait),
            }
            response = render(request, "decks/archive.html", {"form": form, "problems": [message]}, status=429)
            response["Retry-After"] = str(math.ceil(wait))
            return response
        try:
            incoming = decks_archive.read_archive(form.cleaned_data["file"].read(MAX_ZIP_BYTES + 1))
        except decks_archive.ArchiveError as exc:
            problems = exc.problems
        else:
            added = decks_archive.add_decks(request.user, incoming)
            messages.success(request, _("%(n)d decks added beside your own.") % {"n": len(added)})
            return redirect("decks:mine")
    status = 400 if problems or form.errors else 200
    return render(request, "decks/archive.html", {"form": form, "problems": problems}, status=status)


@login_required
def archive_download(request: AuthedRequest, what: str) -> HttpResponse:
    everything = what == "everything"
    response = HttpResponse(
        decks_archive.export_zip(request.user, everything=everything), content_type="application/zip"
    )
    stamp = timezone.now().strftime("%Y%m%d")
    response["Content-Disposition"] = f'attachment; filename="zongheng-{what}-{stamp}.zip"'
    return response


def _odds_context(request: HtmxHttpRequest, deck: Deck) -> tuple[dict[str, Any], int]:
    """The odds form and, when a card or query is chosen, its table and chart."""
    card, q = request.GET.get("card", "").strip(), request.GET.get("q", "").strip()
    context: dict[str, Any] = {"deck": deck, "card": card, "q": q, "k": request.GET.get("k", "1")}
    context["names"] = deck_names(deck)
    if not (card or q):
        return context, 200
    try:
        k = int(context["k"])
        choice = draw_odds.choose(deck, card=card, q=q[:200])
        table = draw_odds.table_for(choice, k)
    except (ValueError, OverflowError) as exc:
        context["error"] = str(exc) if isinstance(exc, draw_odds.OddsError) else _("k must be a whole number.")
        return context, 400
    context.update(
        {"choice": choice, "table": table, "rows": draw_odds.rows(table), "chart": draw_odds.chart_svg(table)}
    )
    return context, 200


def deck_odds(request: HtmxHttpRequest, deck_id: int) -> HttpResponse:
    deck = _visible_deck(request, deck_id)
    context, status = _odds_context(request, deck)
    template = "decks/_odds.html" if request.htmx else "decks/odds.html"
    return render(request, template, context, status=status)


def deck_names(deck: Deck) -> list[tuple[str, str]]:
    """The main deck's card names, once each (code of the first, name): the odds form's choices."""
    index = catalog_index()
    seen: dict[str, tuple[str, str]] = {}
    for code in services.snapshot_of(deck).main:
        facts = index.by_code[code]
        seen.setdefault(facts.name_key, (code, facts.name))
    return list(seen.values())


def deck_sample(request: HtmxHttpRequest, deck_id: int) -> HttpResponse:
    """A sample hand, then the next turn's draw, or a 調度 of chosen cards: replayed from a seed."""
    deck = _visible_deck(request, deck_id)
    seed = whole_number(request.GET["seed"]) if request.GET.get("seed") else secrets.randbelow(10**9)
    turn = whole_number(request.GET.get("turn", "0"))
    asides = [whole_number(i, high=4) for i in request.GET.getlist("aside")[:5]]
    aside = frozenset(i for i in asides if i is not None)
    if seed is None or turn is None or None in asides or not (seed < 10**9 and turn <= TURNS):
        return render(request, "error.html", {"message": _("Not a sample hand.")}, status=400)
    first = request.GET.get("second") != "1"
    data = services.snapshot_of(deck)
    cards = [code for code, n in data.main.items() for _copy in range(n)]
    hand = sample_hand(cards, seed, turn=turn, first=first, aside=aside)
    name = {code: catalog_index().by_code[code].name for code in data.main}
    context = {
        "deck": deck,
        "sample": hand,
        "hand": [name[code] for code in hand.hand],
        "drawn": [(t, [name[code] for code in cards]) for t, cards in enumerate(hand.drawn, start=1)],
        "aside": sorted(aside),
        "next_turn": turn + 1 if turn < TURNS and hand.left else None,
        "second": not first,
    }
    template = "decks/_sample.html" if request.htmx else "decks/sample.html"
    return render(request, template, context)


def _deck_param(request: HtmxHttpRequest, name: str) -> Deck | None:
    """A deck named by id (or by its URL, pasted) in the query; None when not given."""
    raw = request.GET.get(name, "").strip()
    if not raw:
        return None
    digits = raw.rstrip("/").rsplit("/", 1)[-1]
    number = whole_number(digits, low=1)
    if number is None:
        raise Http404(_("No such deck."))
    return _visible_deck(request, number)


def compare(request: HtmxHttpRequest) -> HttpResponse:
    """Any two decks the reader may see, side by side: `?a=<id>&b=<id>`."""
    a, b = _deck_param(request, "a"), _deck_param(request, "b")
    context: dict[str, Any] = {"a": a, "b": b, "mine": Deck.objects.owned_by(request.user).order_by("name", "pk")}
    if a is not None and b is not None:
        view_a, view_b = deck_view(a), deck_view(b)
        context.update(
            {
                "comparison": deck_compare.compare(services.snapshot_of(a), services.snapshot_of(b)),
                "view_a": view_a,
                "view_b": view_b,
                "stats": _side_by_side(view_a, view_b),
                "curves": deck_compare.curves_svg(view_a.curve, view_b.curve),
            }
        )
    return render(request, "decks/compare.html", context)


def _side_by_side(a: Any, b: Any) -> list[tuple[str, list[tuple[str, int, int]]]]:
    """Kinds, classes, speeds and elements of both decks: (heading, [(slug, in A, in B)])."""
    rows = []
    for heading, name in (
        (_("Kind"), "by_kind"),
        (_("Troop class"), "by_class"),
        (_("Speed"), "by_speed"),
        (_("Element"), "by_element"),
    ):
        left, right = getattr(a, name), getattr(b, name)
        keys = list(dict.fromkeys([*left, *right]))
        if keys:
            rows.append((heading, [(key, left.get(key, 0), right.get(key, 0)) for key in keys]))
    return rows
