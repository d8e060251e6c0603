"""What to buy: a deck's missing cards to my wants, and the shopping list of chosen decks."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from catalog.models import Card
from collection.models import MAX_COPIES
from collection.services import set_wanted
from decks.close import DEFAULT_MISSING, MAX_MISSING, Suggestion, close_enough, why_nothing
from decks.forms import (
    CloseEnoughForm,
)
from decks.models import Deck
from decks.shopping import as_csv, as_text, shopping_list
from decks.stats import deck_view
from decks.views.decks import visible_deck
from webutil.requests import AuthedRequest

MAX_SHOPPING_DECKS = 50


@login_required
@require_POST
def want_missing(request: AuthedRequest, deck_id: int) -> HttpResponse:
    deck = visible_deck(request, deck_id)
    view = deck_view(deck, request.user)
    for line in view.missing:
        set_wanted(request.user, line.card, line.missing)
    messages.success(request, _("%(n)d cards added to your wishlist.") % {"n": len(view.missing)})
    return redirect("collection:trade")


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
    close = _purchases(close_enough(request.user, missing_at_most))
    context = {
        "close_form": close_form,
        "close": close,
        # An empty answer says why and what to do, never a dead end.
        "nothing": None if close else why_nothing(request.user),
        "max_missing": MAX_MISSING,
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
