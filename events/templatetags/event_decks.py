"""The deck search's link to the event decks that play the same cards. The public deck list is
drawn by the decks (a layer below the events); its template asks for the link here, by tag."""

from __future__ import annotations

from typing import Any
from urllib.parse import urlencode

from django import template
from django.urls import reverse

from events import event_decks
from events.models import EventDeck

register = template.Library()


@register.inclusion_tag("events/_event_decks_link.html", takes_context=True)
def event_decks_playing(context: Any) -> dict[str, Any]:
    """How many event decks play the cards the reader searched for (one query), and the link to
    them; nothing when the search names no card or a card the catalogue does not know."""
    cards = [c for c in context["request"].GET.getlist("card") if c.strip()]
    wanted, errors = event_decks.read_cards(cards)
    if not wanted or errors:
        return {"count": 0}
    count = EventDeck.objects.with_lists().filter(event_decks.playing(wanted)).count()
    return {"count": count, "url": reverse("events:event-decks") + "?" + urlencode([("card", c) for c in cards])}
