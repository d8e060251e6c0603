"""Reviews on a card's page: write or change one's own, delete it, mark others' helpful, report.
Without JavaScript each action loads the card page again at the review; a refused review comes
back in its form with what was typed (the card page itself is drawn a layer above, by the
collection, which shows the reviews through contributions' template tag)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from catalog.models import Card
from contributions import reviews
from contributions.models import MAX_REVIEW, Review
from webutil.requests import AuthedRequest


def _card(code: str) -> Card:
    card = Card.objects.by_code(code)
    if card is None:
        raise Http404
    return card


def _review(review_id: int) -> Review:
    found = Review.objects.select_related("card").filter(pk=review_id).first()
    if found is None:
        raise Http404
    return found


def _back(review: Review | None, card: Card) -> HttpResponse:
    anchor = f"review-{review.pk}" if review is not None else "reviews"
    return redirect(f"{card.get_absolute_url()}#{anchor}")


@login_required
def write(request: AuthedRequest, code: str) -> HttpResponse:
    """The form of the reader's review of the card (GET), and its sending (POST)."""
    card = _card(code)
    mine = Review.objects.filter(card=card, author=request.user).first()
    if request.method != "POST":
        context = {"card": card, "body": mine.body if mine else "", "max_review": MAX_REVIEW}
        return render(request, "contributions/review_form.html", context)
    body = request.POST.get("body", "")
    try:
        review, _new = reviews.write(card, request.user, body)
    except reviews.ReviewError as exc:
        context = {"card": card, "body": body, "error": str(exc), "max_review": MAX_REVIEW}
        return render(request, "contributions/review_form.html", context, status=exc.status)
    if review.state == Review.State.PENDING:
        messages.info(request, _("Your review waits for a moderator: it has many links."))
    return _back(review, card)


@login_required
@require_POST
def delete(request: AuthedRequest, review_id: int) -> HttpResponse:
    review = _review(review_id)
    try:
        reviews.delete(review, request.user)
    except reviews.ReviewError as exc:
        raise Http404 from exc
    return _back(None, review.card)


@login_required
@require_POST
def helpful(request: AuthedRequest, review_id: int) -> HttpResponse:
    review = _review(review_id)
    try:
        reviews.mark_helpful(review, request.user, request.POST.get("helpful", "1") != "0")
    except reviews.ReviewError as exc:
        if exc.status == 404:
            raise Http404 from exc
        messages.error(request, str(exc))
    return _back(review, review.card)


@login_required
@require_POST
def report(request: AuthedRequest, review_id: int) -> HttpResponse:
    review = _review(review_id)
    try:
        reviews.report(review, request.user, request.POST.get("reason", ""))
    except reviews.ReviewError as exc:
        raise Http404 from exc
    messages.success(request, _("Thank you: a moderator will read it."))
    return _back(review, review.card)
