"""The reviews section of a card's page. The card page is drawn by the collection (a layer that
may not import this one); its template asks for the reviews here, by tag."""

from __future__ import annotations

from typing import Any

from django import template

from contributions import reviews
from contributions.models import MAX_REVIEW

register = template.Library()


@register.inclusion_tag("contributions/_reviews.html", takes_context=True)
def card_reviews(context: Any, card: Any) -> dict[str, Any]:
    """The card's reviews, the most helpful first (one query), with the reader's own first."""
    request = context["request"]
    shown = reviews.shown(card, request.user)
    mine = next((r for r in shown if r.author_id == request.user.pk), None)
    return {
        "card": card,
        "reviews": shown,
        "mine": mine,
        "user": request.user,
        "request": request,
        "csrf_token": context.get("csrf_token"),
        "max_review": MAX_REVIEW,
    }
