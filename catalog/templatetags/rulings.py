"""The rulings section of a card's page. The card page is drawn by the collection (a layer
above); its template asks for the rulings here, by tag."""

from __future__ import annotations

from typing import Any

from django import template

from catalog.models import Card, Ruling

register = template.Library()


@register.inclusion_tag("catalog/_rulings.html")
def card_rulings(card: Card) -> dict[str, Any]:
    """The card's rulings, newest first, at three queries however many there are."""
    return {"card": card, "rulings": list(Ruling.objects.shown().of_card(card).for_lists())}
