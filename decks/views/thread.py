"""The comments part of a deck's page, for the page itself and for the comments' own views."""

from __future__ import annotations

from typing import Any

from decks import comments
from decks.models import MAX_COMMENT, Deck
from moderation import rules
from webutil.requests import HtmxHttpRequest


def comments_context(request: HtmxHttpRequest, deck: Deck, **extra: Any) -> dict[str, Any]:
    """What the comments part of a deck page shows."""
    if not deck.public:
        return {"comments_open": False}
    threads, page = comments.threads(deck, request.user, request.GET.get("comments", 1))
    if extra.get("typed_parent") not in {str(t.comment.pk) for t in threads}:
        extra["typed_parent"] = None  # a reply to no thread shown: its text goes back in the main box
    return {
        "comments_open": True,
        "threads": threads,
        "comments_page": page,
        "may_comment": request.user.is_authenticated and not rules.is_banned(request.user),
        "edit_minutes": int(comments.EDIT_MINUTES),
        "comment_max": MAX_COMMENT,
        **extra,
    }
