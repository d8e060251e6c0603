"""Decks of the week: staff pick public decks; the home page shows this week's picks beside the
week's most liked and the newest public decks, each a single query."""

from __future__ import annotations

from datetime import date, timedelta
from typing import Any

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from decks.models import Deck, FeaturedDeck

# How many decks each part of the home page shows.
SHOWN = 6


class FeatureError(ValueError):
    pass


def this_week(today: date | None = None) -> date:
    today = today or timezone.localdate()
    return today - timedelta(days=today.weekday())


def feature(deck: Deck, staff: Any, on: bool) -> bool:
    """Staff pick the public deck for this week (or take the pick back)."""
    if on and not deck.public:
        raise FeatureError(_("Only public decks can be featured."))
    week = this_week()
    if not on:
        FeaturedDeck.objects.filter(deck=deck, week=week).delete()
        return False
    try:
        with transaction.atomic():
            FeaturedDeck.objects.get_or_create(deck=deck, week=week, defaults={"picked_by": staff})
    except IntegrityError:  # picked twice at once
        pass
    return True


def is_featured(deck: Deck) -> bool:
    return FeaturedDeck.objects.filter(deck=deck, week=this_week()).exists()


def home_decks() -> dict[str, list[Deck]]:
    listed = Deck.objects.listed().select_related("owner", "general")
    picked = FeaturedDeck.objects.filter(week=this_week()).values("deck_id")
    return {
        "featured": list(listed.filter(pk__in=picked).order_by("-updated", "-id")[:SHOWN]),
        "liked_week": list(listed.filter(likes_week__gt=0).order_by("-likes_week", "-like_count", "-id")[:SHOWN]),
        "newest": list(listed.order_by("-created", "-id")[:SHOWN]),
    }
