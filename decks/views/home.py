"""The home page: the catalogue's search and sets, then this week's featured decks, the week's
most liked and the newest public decks; and staff's pick of a deck of the week."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_POST

from catalog.views import home_context
from decks import featured
from decks.views.decks import visible_deck
from webutil.requests import AuthedRequest, HtmxHttpRequest


def home(request: HtmxHttpRequest) -> HttpResponse:
    return render(request, "catalog/home.html", home_context() | featured.home_decks())


@login_required
@require_POST
def feature(request: AuthedRequest, deck_id: int) -> HttpResponse:
    """Staff pick a public deck as a deck of this week, or take it back (action=unfeature)."""
    if not request.user.is_staff:
        raise Http404
    deck = visible_deck(request, deck_id)
    try:
        featured.feature(deck, request.user, request.POST.get("action") != "unfeature")
    except featured.FeatureError as exc:
        context = {"message": str(exc), "back": deck.get_absolute_url()}
        return render(request, "error.html", context, status=400)
    return redirect(deck.get_absolute_url())
