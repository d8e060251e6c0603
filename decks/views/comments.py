"""Comments on a public deck's page: write, reply, edit, delete, hide (the deck's owner) and
report. With htmx the comments come back in place; without JavaScript the deck page loads
again (at the comment), or, when a comment is refused, comes back with what was typed."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_POST

from decks import comments
from decks.models import Deck, DeckComment
from decks.views.decks import detail_context, visible_deck
from decks.views.thread import comments_context
from webutil.requests import AuthedRequest


def _answer(
    request: AuthedRequest, deck: Deck, status: int = 200, anchor: str = "comments", **extra: Any
) -> HttpResponse:
    if request.htmx:
        context = {"deck": deck, **comments_context(request, deck, **extra)}
        return render(request, "decks/_comments.html", context, status=status)
    if status == 200:
        return redirect(f"{deck.get_absolute_url()}#{anchor}")
    context = detail_context(request, deck.pk)
    context.update(comments_context(request, deck, **extra))
    return render(request, "decks/detail.html", context, status=status)


def _comment(request: AuthedRequest, comment_id: int) -> DeckComment:
    found = comments.readable(request.user).select_related("deck", "deck__owner").filter(pk=comment_id).first()
    if found is None:
        raise Http404
    return found


@login_required
@require_POST
def write(request: AuthedRequest, deck_id: int) -> HttpResponse:
    deck = visible_deck(request, deck_id)
    if not deck.public:
        raise Http404
    text, parent = request.POST.get("body", ""), request.POST.get("parent") or None
    try:
        made = comments.write(deck, request.user, text, parent)
    except comments.CommentError as exc:
        return _answer(request, deck, exc.status, refusal=str(exc), typed=text, typed_parent=parent)
    return _answer(request, deck, anchor=f"comment-{made.pk}")


@login_required
@require_POST
def edit(request: AuthedRequest, comment_id: int) -> HttpResponse:
    comment = _comment(request, comment_id)
    text = request.POST.get("body", "")
    try:
        comments.edit(comment, request.user, text)
    except comments.CommentError as exc:
        return _answer(request, comment.deck, exc.status, refusal=str(exc), editing=comment.pk, typed_edit=text)
    return _answer(request, comment.deck, anchor=f"comment-{comment.pk}")


@login_required
@require_POST
def delete(request: AuthedRequest, comment_id: int) -> HttpResponse:
    comment = _comment(request, comment_id)
    try:
        comments.delete(comment, request.user)
    except comments.CommentError as exc:
        return _answer(request, comment.deck, exc.status, refusal=str(exc))
    return _answer(request, comment.deck)


@login_required
@require_POST
def hide(request: AuthedRequest, comment_id: int) -> HttpResponse:
    comment = _comment(request, comment_id)
    try:
        comments.owner_hide(comment, request.user, request.POST.get("action") != "show")
    except comments.CommentError as exc:
        return _answer(request, comment.deck, exc.status, refusal=str(exc))
    return _answer(request, comment.deck, anchor=f"comment-{comment.pk}")


@login_required
@require_POST
def report(request: AuthedRequest, comment_id: int) -> HttpResponse:
    comment = _comment(request, comment_id)
    try:
        comments.report(comment, request.user, request.POST.get("reason", ""))
    except comments.CommentError as exc:
        return _answer(request, comment.deck, exc.status, refusal=str(exc))
    return _answer(request, comment.deck, anchor=f"comment-{comment.pk}", reported=comment.pk)
