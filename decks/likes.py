"""Likes and bookmarks of decks. A like is one reader's, once, on another's public deck; the
deck keeps its count (`like_count`) so that no list counts rows per deck. A bookmark keeps any
deck the reader may read "for later", seen by the reader alone (/decks/saved/)."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from django.db import transaction
from django.db.models import F
from django.db.models.functions import Greatest
from django.utils import timezone
from django.utils.translation import gettext as _

from decks.models import Deck, DeckBookmark, DeckLike
from moderation import rules
from people.notices import notify


class LikeError(ValueError):
    """A like the rules refuse: one's own deck, or a deck that is not public."""


def like(deck: Deck, user: Any) -> int:
    """The reader likes the deck (again: no change); the deck's likes after it. Two taps at once
    count once: the row is unique, and the count moves only for the row that was made."""
    if deck.owner_id == user.pk:
        raise LikeError(_("You cannot like your own deck."))
    if not deck.public:
        raise LikeError(_("Only public decks can be liked."))
    if rules.is_banned(user):
        raise LikeError(_("Your account may no longer write here."))
    with transaction.atomic():
        _like, made = DeckLike.objects.get_or_create(deck=deck, user=user)
        if made:  # a like of now weighs 1 in this week's score
            Deck.objects.filter(pk=deck.pk).update(like_count=F("like_count") + 1, likes_week=F("likes_week") + 1)
    if made:
        transaction.on_commit(_schedule_recount)
        notify(deck.owner_id, "like", user, deck.name, deck.get_absolute_url())
    return likes_of(deck)


def unlike(deck: Deck, user: Any) -> int:
    """The reader's like taken back (none: no change); the deck's likes after it."""
    with transaction.atomic():
        for mine in DeckLike.objects.filter(deck=deck, user=user):
            mine.delete()  # its count goes down with it (forget_like), as with an account's cascade
    return likes_of(deck)


def forget_like(deck_id: int, at: datetime) -> None:
    """A like gone (taken back, or with its account): one fewer on the deck, never below 0, and
    its weight of now taken from the week's score. One UPDATE a like, whatever the deck's likes:
    an account with thousands of likes goes in as many small writes, not a recount each."""
    weight = week_score(at, timezone.now())
    Deck.objects.filter(pk=deck_id).update(
        like_count=Greatest(F("like_count") - 1, 0), likes_week=Greatest(F("likes_week") - weight, 0.0)
    )


# "Most liked this week": the likes of the last 7 days, each weighing 2^(-days/3) by its age.
WEEK = timedelta(days=7)
HALF_LIFE_DAYS = 3


def week_score(at: datetime, now: datetime) -> float:
    """What one like given `at` weighs `now` in the week's score: 1 when new, half at 3 days."""
    days = max(0.0, (now - at).total_seconds() / 86_400)
    return float(2 ** (-days / HALF_LIFE_DAYS)) if days <= WEEK.days else 0.0


def recount_week(now: datetime | None = None) -> int:
    """Every deck's score of the week written again (the background task, hourly): decks with
    likes this week get their sum, the others that had a score get 0. Returns the decks scored."""
    now = now or timezone.now()
    scores: dict[int, float] = {}
    for deck_id, at in DeckLike.objects.filter(at__gte=now - WEEK).values_list("deck_id", "at").iterator():
        scores[deck_id] = scores.get(deck_id, 0.0) + week_score(at, now)
    with transaction.atomic():
        Deck.objects.filter(likes_week__gt=0).exclude(pk__in=list(scores)).update(likes_week=0)
        decks = [Deck(pk=pk, likes_week=score) for pk, score in scores.items()]
        Deck.objects.bulk_update(decks, ["likes_week"], batch_size=1000)
    return len(scores)


def _schedule_recount() -> None:
    from decks.tasks import schedule_week_recount

    schedule_week_recount()


def likes_of(deck: Deck) -> int:
    return int(Deck.objects.filter(pk=deck.pk).values_list("like_count", flat=True).first() or 0)


def keep(deck: Deck, user: Any, kept: bool) -> bool:
    """Keep the deck for later, or stop keeping it; whether it is kept now."""
    if kept:
        DeckBookmark.objects.get_or_create(deck=deck, user=user)
    else:
        DeckBookmark.objects.filter(deck=deck, user=user).delete()
    return kept
