"""What the community plays with a card, on its page. The card page is drawn by the collection (a
layer below the decks); its template asks for the figures here, by tag."""

from __future__ import annotations

from typing import Any

from django import template

from catalog.lookup import catalog_index
from decks.models import CardStats
from webutil.charts import polyline

register = template.Library()

# The trend's picture: a line over the months, in a box of this many units.
WIDTH, HEIGHT = 120, 32


@register.inclusion_tag("decks/_card_play.html")
def card_play(card: Any) -> dict[str, Any]:
    """The card's stored figures (one query), the cards and generals they name as facts."""
    stats = CardStats.objects.filter(card_id=card.pk).first()
    if stats is None:
        return {"stats": None, "card": card}
    by_code = catalog_index().by_code
    months = stats.by_month
    points = polyline([m["share"] for m in months], WIDTH, HEIGHT)
    return {
        "card": card,
        "stats": stats,
        "percent": round(stats.share * 100),
        "played_with": [
            {**p, "facts": by_code.get(p["card"]), "percent": round(p["share"] * 100)} for p in stats.played_with[:8]
        ],
        "synergy": [
            {
                **s,
                "facts": by_code.get(s["general"]),
                "percent": round(s["share"] * 100),
                "points": round(s["synergy"] * 100),
            }
            for s in stats.synergy[:5]
        ],
        "months": months,
        "points": points,
        "width": WIDTH,
        "height": HEIGHT,
    }
