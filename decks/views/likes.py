"""Likes and bookmarks on the deck page, and the decks a reader keeps for later."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from decks import likes
from decks.models import Deck
from decks.views.decks import deck_table, visible_deck
from webutil.requests import AuthedRequest


def _marks(request: AuthedRequest, deck: Deck, refusal: str = "", status: int = 200) -> HttpResponse:
    """The deck's likes and the reader's marks: the fragment for htmx, else the deck page."""
    if not request.htmx:
        return redirect(deck.get_absolute_url())
    return render(request, "decks/_deck_marks.html", {"deck": marked(request, deck), "refusal": refusal}, status=status)


def marked(request: AuthedRequest, deck: Deck) -> Deck:
    """The deck with its likes as stored now and the reader's marks."""
    return Deck.objects.with_reader_marks(request.user).select_related("owner").get(pk=deck.pk)


@login_required
@require_POST
def like(request: AuthedRequest, deck_id: int) -> HttpResponse:
    deck = visible_deck(request, deck_id)
    try:
        if request.POST.get("action") == "unlike":
            likes.unlike(deck, request.user)
        else:
            likes.like(deck, request.user)
    except likes.LikeError as exc:
        if not request.htmx:
            context = {"message": str(exc), "back": deck.get_absolute_url(), "back_label": _("Back")}
            return render(request, "error.html", context, status=400)
        return _marks(request, deck, str(exc), status=400)
    return _marks(request, deck)


@login_required
@require_POST
def bookmark(request: AuthedRequest, deck_id: int) -> HttpResponse:
    deck = visible_deck(request, deck_id)
    likes.keep(deck, request.user, request.POST.get("action") != "forget")
    return _marks(request, deck)


@login_required
def saved(request: AuthedRequest) -> HttpResponse:
    """The decks I keep for later, the latest kept first, with the deck lists' filters."""
    context, valid = deck_table(request, Deck.objects.saved_by(request.user))
    return render(request, "decks/saved.html", context, status=200 if valid else 400)
