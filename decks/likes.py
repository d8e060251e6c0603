"""Likes and bookmarks of decks. A like is one reader's, once, on another's public deck; the
deck keeps its count (`like_count`) so that no list counts rows per deck. A bookmark keeps any
deck the reader may read "for later", seen by the reader alone (/decks/saved/)."""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.db.models import F
from django.db.models.functions import Greatest
from django.utils.translation import gettext as _

from decks.models import Deck, DeckBookmark, DeckLike


class LikeError(ValueError):
    """A like the rules refuse: one's own deck, or a deck that is not public."""


def like(deck: Deck, user: Any) -> int:
    """The reader likes the deck (again: no change); the deck's likes after it. Two taps at once
    count once: the row is unique, and the count moves only for the row that was made."""
    if deck.owner_id == user.pk:
        raise LikeError(_("You cannot like your own deck."))
    if not deck.public:
        raise LikeError(_("Only public decks can be liked."))
    with transaction.atomic():
        _like, made = DeckLike.objects.get_or_create(deck=deck, user=user)
        if made:
            Deck.objects.filter(pk=deck.pk).update(like_count=F("like_count") + 1)
    return likes_of(deck)


def unlike(deck: Deck, user: Any) -> int:
    """The reader's like taken back (none: no change); the deck's likes after it."""
    with transaction.atomic():
        for mine in DeckLike.objects.filter(deck=deck, user=user):
            mine.delete()  # its count goes down with it (forget_like), as with an account's cascade
    return likes_of(deck)


def forget_like(deck_id: int) -> None:
    """A like gone (taken back, or with its account): one fewer on the deck, never below 0."""
    Deck.objects.filter(pk=deck_id).update(like_count=Greatest(F("like_count") - 1, 0))


def likes_of(deck: Deck) -> int:
    return int(Deck.objects.filter(pk=deck.pk).values_list("like_count", flat=True).first() or 0)


def keep(deck: Deck, user: Any, kept: bool) -> bool:
    """Keep the deck for later, or stop keeping it; whether it is kept now."""
    if kept:
        DeckBookmark.objects.get_or_create(deck=deck, user=user)
    else:
        DeckBookmark.objects.filter(deck=deck, user=user).delete()
    return kept
