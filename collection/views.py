from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_POST

from catalog.filters import TIDY_DEFAULTS, CardFilter
from catalog.models import Card, CardSet
from collection import csv_io, queries
from collection.csv_io import CSV
from collection.forms import ACTIONS, ChangeForm, ImportForm, WantedForm
from collection.models import CollectionChange, ShareLink
from collection.services import CountError, change_counts, set_counts, set_wanted, undo_change
from webutil.bounds import accepts
from webutil.confirm import unless_confirmed
from webutil.pagination import per_page
from webutil.querystring import tidy_get
from webutil.requests import AuthedRequest, HtmxHttpRequest

_IMPORT_SESSION_KEY = "collection_import_plan"


def _card(code: str) -> Card:
    card = Card.objects.by_code(code)
    if card is None:
        raise Http404(f"No card {code[:40]!r}")
    return card


def _back(request: HtmxHttpRequest, fallback: str) -> HttpResponse:
    target = request.POST.get("next") or request.GET.get("next") or ""
    if url_has_allowed_host_and_scheme(target, allowed_hosts={request.get_host()}, require_https=request.is_secure()):
        return redirect(target)
    return redirect(fallback)


def _form_message(form: Any) -> str:
    return " ".join(str(e) for errors in form.errors.values() for e in errors)


def _error(request: HtmxHttpRequest, message: str) -> HttpResponse:
    return render(request, "error.html", {"message": message}, status=400)


@login_required
@tidy_get(TIDY_DEFAULTS)
def mine(request: AuthedRequest) -> HttpResponse:
    """The catalogue filtered to what I own, with the catalogue's own filters, and totals."""
    # A row shows the card's name, code, kind and rarity (counters.own_rows): only those are read,
    # with no join for the set; the rest of a card row was a tenth of the page's time.
    # ?short=1: the cards built decks take more of than I own (owned or not).
    short = request.GET.get("short") == "1"
    if short:
        rows = queries.short_of_built(request.user).only("code", "name", "kind", "tier", "stars")
    else:
        rows = queries.with_counts(
            queries.owned_cards(request.user).only("code", "name", "kind", "tier", "stars"), request.user
        )
    card_filter = CardFilter(request.GET, queryset=rows)
    cards = card_filter.qs if card_filter.is_valid() else Card.objects.none()
    page = Paginator(cards, per_page(request)).get_page(request.GET.get("page"))
    context = {
        "filter": card_filter,
        "page": page,
        "cards": page.object_list,
        "totals": queries.totals(request.user),
        "short": short,
        "short_copies": queries.short_copies(request.user),
        "rows": "collection/_rows.html",
    }
    template = "catalog/_card_results.html" if request.htmx else "collection/mine.html"
    return render(request, template, context, status=200 if card_filter.is_valid() else 400)


@login_required
@require_POST
def change(request: AuthedRequest, code: str) -> HttpResponse:
    """+1 / −1 / set, from the card list, the card page or anywhere a counter shows."""
    card = _card(code)
    form = ChangeForm(request.POST)
    if not form.is_valid():
        message = _form_message(form)
        return _counter(request, card, error=message) if request.htmx else _error(request, message)
    action = form.cleaned_data["action"]
    try:
        if action == "set":
            set_counts(
                request.user,
                card,
                quantity=form.cleaned_data["quantity"],
                foil_quantity=form.cleaned_data["foil_quantity"],
            )
        else:
            add, add_foil = ACTIONS[action]
            change_counts(request.user, card, add=add, add_foil=add_foil)
    except CountError as exc:
        return _counter(request, card, error=str(exc)) if request.htmx else _error(request, str(exc))
    if request.htmx:
        return _counter(request, card)
    return _back(request, card.get_absolute_url())


def _counter(request: HtmxHttpRequest, card: Card, error: str | None = None) -> HttpResponse:
    card = queries.with_counts(Card.objects.filter(pk=card.pk), request.user).get()
    compact = request.POST.get("compact") == "1"
    return render(
        request,
        "collection/_counter.html",
        {"card": card, "error": error, "compact": compact},
        status=400 if error else 200,
    )


@login_required
def completion(request: AuthedRequest) -> HttpResponse:
    return render(request, "collection/completion.html", {"sets": queries.completion(request.user)})


@login_required
def missing(request: AuthedRequest, code: str) -> HttpResponse:
    card_set = get_object_or_404(CardSet, code=code.upper())
    lacks = queries.missing_in_set(request.user, card_set)
    return render(
        request,
        "collection/missing.html",
        {"set": card_set, "lacks": lacks, "total_missing": sum(x.missing for x in lacks)},
    )


@login_required
def trade(request: AuthedRequest) -> HttpResponse:
    context = {
        "spares": queries.spares(request.user),
        "wishlist": queries.wishlist(request.user),
        "share": ShareLink.objects.filter(user=request.user).first(),
        "share_next": "trade",
    }
    return render(request, "collection/trade.html", context)


@login_required
@require_POST
def wanted(request: AuthedRequest, code: str) -> HttpResponse:
    card = _card(code)
    form = WantedForm(request.POST)
    if not form.is_valid():
        return _error(request, _form_message(form))
    set_wanted(request.user, card, form.cleaned_data["wanted"])
    messages.success(request, _("Wishlist updated."))
    return _back(request, "collection:trade")


def shared(request: HtmxHttpRequest, token: str) -> HttpResponse:
    """The public, read-only trade list and wishlist; gone as soon as its owner turns it off."""
    link = get_object_or_404(ShareLink.objects.select_related("user"), token=token, enabled=True)
    context = {"owner": link.user, "spares": queries.spares(link.user), "wishlist": queries.wishlist(link.user)}
    return render(request, "collection/shared.html", context)


@login_required
def history(request: AuthedRequest) -> HttpResponse:
    return render(request, "collection/history.html", {"entries": queries.history(request.user)})


def _undo_question(change: CollectionChange) -> str:
    if change.batch is not None:
        steps = CollectionChange.objects.filter(user=change.user_id, batch=change.batch).count()
        return ngettext(
            "The %(n)d card changed in this step goes back to its count before it.",
            "The %(n)d cards changed in this step go back to their counts before it.",
            steps,
        ) % {"n": steps}
    return ngettext(
        "%(code)s goes back from %(after)d to %(before)d copy (%(foil_after)d to %(foil_before)d foil).",
        "%(code)s goes back from %(after)d to %(before)d copies (%(foil_after)d to %(foil_before)d foil).",
        change.quantity_before,
    ) % {
        "code": change.card.code,
        "after": change.quantity_after,
        "before": change.quantity_before,
        "foil_after": change.foil_after,
        "foil_before": change.foil_before,
    }


@login_required
@require_POST
def undo(request: AuthedRequest, change_id: int) -> HttpResponse:
    change = get_object_or_404(CollectionChange.objects.select_related("card"), pk=change_id, user=request.user)
    asked = unless_confirmed(
        request,
        title=_("Undo this change?"),
        message=_undo_question(change),
        button=_("Undo"),
        back=reverse("collection:history"),
    )
    if asked:
        return asked
    try:
        undo_change(request.user, change_id)
    except CountError as exc:
        return _error(request, str(exc))
    messages.success(request, _("The change was undone."))
    return redirect("collection:history")


@login_required
def export(request: AuthedRequest) -> HttpResponse:
    response = HttpResponse(csv_io.export_csv(request.user), content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = 'attachment; filename="collection.csv"'
    return response


@accepts(CSV)
@login_required
def import_csv(request: AuthedRequest) -> HttpResponse:
    """Step 1: upload and preview (nothing changes). Step 2: confirm, and the preview applies."""
    if request.method == "POST" and request.POST.get("confirm"):
        data = request.session.pop(_IMPORT_SESSION_KEY, None)
        if data is None:
            return _error(request, _("There is no import to confirm: upload the file again."))
        try:
            count = csv_io.apply_plan(request.user, csv_io.ImportPlan.from_session(data))
        except csv_io.StaleImport as exc:
            return _error(request, str(exc))
        messages.success(request, _("Imported: %(count)d cards changed.") % {"count": count})
        return redirect("collection:mine")

    form = ImportForm(request.POST or None, request.FILES or None)
    context: dict[str, object] = {"form": form}
    status = 200
    if request.method == "POST":
        if form.is_valid():
            upload = form.cleaned_data["file"]
            try:
                plan = csv_io.plan_import(
                    request.user, upload.read(csv_io.MAX_IMPORT_BYTES + 1), form.cleaned_data["mode"]
                )
            except csv_io.CsvFileError as exc:
                form.add_error("file", str(exc))
                status = 400
            else:
                context["plan"] = plan
                if plan.ok:
                    request.session[_IMPORT_SESSION_KEY] = plan.to_session()
                else:
                    status = 400
        else:
            status = 400
    return render(request, "collection/import.html", context, status=status)
