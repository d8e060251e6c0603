"""Players' reviews of cards: one per card and author, written, changed and deleted here under
the rules of writing for others (moderation.rules: bans, the hourly limit, approval of a new
account's links), marked helpful by other readers, reported and hidden through moderation, where
reviews are one registered kind of writing.

A review's count of helpful marks is kept with it, changed under its row lock: the card page
sorts by it and never counts rows per review."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime
from typing import Any

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from catalog.cardlinks import render_with_card_links
from catalog.models import Card
from contributions.models import MAX_REVIEW, Helpful, Review
from moderation import registry, rules
from webutil import bounds
from webutil.urls import reverse_memo

REVIEWS_SHOWN = bounds.declare("reviews on a card page", 50, "reviews", "the most helpful reviews a card page shows")
State = Review.State
KIND = "card-review"


class ReviewError(rules.Refused):
    """A review the rules refuse; `status` is the HTTP answer."""


def _body(text: Any) -> str:
    too_long = _("A review has at most %(max)d characters.") % {"max": MAX_REVIEW}
    try:
        return rules.cleaned(text, MAX_REVIEW, _("A review is text."), too_long)
    except rules.Refused as exc:
        raise ReviewError(str(exc), exc.status) from None


def write(card: Card, author: Any, text: Any, now: datetime | None = None) -> tuple[Review, bool]:
    """The author's review of the card, new or changed (one a card): the review and whether it
    is new."""
    now = now or timezone.now()
    body = _body(text)
    try:
        rules.check_may_write(author, now)
    except rules.Refused as exc:
        raise ReviewError(str(exc), exc.status) from None
    state = State.PENDING if rules.needs_approval(author, body, now) else State.SHOWN
    html = render_with_card_links(body)
    mine = Review.objects.filter(card=card, author=author).first()
    if mine is not None:
        if mine.state == State.HIDDEN:
            raise ReviewError(_("Staff hid this review: it can no longer be changed."), 403)
        Review.objects.filter(pk=mine.pk).update(body=body, body_html=html, state=state, edited=now)
        mine.refresh_from_db()
        return mine, False
    try:
        with transaction.atomic():
            made = Review.objects.create(card=card, author=author, body=body, body_html=html, state=state, created=now)
    except IntegrityError:  # the same author's two sends at once: the second changes the first
        return write(card, author, text, now)
    return made, True


def delete(review: Review, user: Any) -> None:
    if review.author_id != user.pk:
        raise ReviewError(_("No such review."), 404)
    Review.objects.filter(pk=review.pk).delete()


def mark_helpful(review: Review, user: Any, helpful: bool) -> int:
    """The reader finds the review helpful (True) or no longer (False); its count after."""
    if not getattr(user, "is_authenticated", False):
        raise ReviewError(_("Log in to mark a review helpful."), 401)
    if review.state != State.SHOWN:
        raise ReviewError(_("No such review."), 404)
    if review.author_id == user.pk:
        raise ReviewError(_("Your own review is not yours to mark."), 403)
    if rules.is_banned(user):
        raise ReviewError(_("Your account may no longer write here."), 403)
    with transaction.atomic():
        # The review's row lock first: two readers' marks at once each count the other's.
        locked = Review.objects.select_for_update().filter(pk=review.pk).values_list("pk", flat=True)
        if not list(locked):
            raise ReviewError(_("No such review."), 404)
        if helpful:
            Helpful.objects.get_or_create(review_id=review.pk, user=user)
        else:
            Helpful.objects.filter(review_id=review.pk, user=user).delete()
        count = Helpful.objects.filter(review_id=review.pk).count()
        Review.objects.filter(pk=review.pk).update(helpful_count=count)
    return count


def report(review: Review, user: Any, reason: Any = "") -> None:
    if not isinstance(reason, str):
        raise ReviewError(_("A reason is text."))
    if review.state != State.SHOWN:
        raise ReviewError(_("No such review."), 404)
    rules.report(KIND, review.pk, user, reason)


def shown(card: Card, reader: Any) -> list[Review]:
    """The reviews a card page shows: one query, however many there are."""
    return list(Review.objects.for_card_page(card, reader)[: int(REVIEWS_SHOWN)])


# Moderation: reviews are one kind of writing for others.


def _items(ids: Iterable[int]) -> dict[int, registry.Item]:
    found = Review.objects.filter(pk__in=list(ids)).select_related("author", "card")
    return {
        r.pk: registry.Item(
            id=r.pk,
            author_id=r.author_id,
            author=r.author.username,
            html=r.body_html,
            link=f"{reverse_memo('catalog:card-detail', r.card.code)}#review-{r.pk}",
            hidden=r.state == State.HIDDEN,
            pending=r.state == State.PENDING,
        )
        for r in found
    }


def _pending() -> list[int]:
    return list(Review.objects.filter(state=State.PENDING).order_by("created").values_list("pk", flat=True)[:100])


def _set_hidden(item: int, hidden: bool) -> None:
    Review.objects.filter(pk=item).update(state=State.HIDDEN if hidden else State.SHOWN)


def _written_since(user_id: int, since: datetime) -> int:
    return Review.objects.filter(author_id=user_id, created__gte=since).count()


def _hide_all_of(user_id: int) -> list[int]:
    mine = Review.objects.filter(author_id=user_id)
    ids = list(mine.values_list("pk", flat=True))
    mine.update(state=State.HIDDEN)
    return ids


registry.register(
    registry.Kind(
        slug=KIND,
        label=gettext_lazy("review of a card"),
        items=_items,
        pending=_pending,
        set_hidden=_set_hidden,
        written_since=_written_since,
        hide_all_of=_hide_all_of,
    )
)
