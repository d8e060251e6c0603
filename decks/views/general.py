"""A general's page (/cards/<code>/decks/): the cards its public decks play most, grouped by kind
with their synergy, its "average deck" (openable in the builder as a new deck), and its newest
public decks. The figures are the stored ones of decks.card_stats: the page aggregates nothing."""

from __future__ import annotations

from django.http import Http404, HttpResponse
from django.shortcuts import render

from catalog.lookup import catalog_index
from catalog.models import Card
from decks.models import CardStats, Deck
from webutil.requests import HtmxHttpRequest

NEWEST = 20


def general_decks(request: HtmxHttpRequest, code: str) -> HttpResponse:
    card = Card.objects.by_code(code)
    if card is None or not card.can_lead:
        raise Http404
    stats = CardStats.objects.filter(card_id=card.pk).first()
    by_code = catalog_index().by_code
    groups: dict[str, list[dict[str, object]]] = {}
    for row in stats.top_cards if stats else []:
        facts = by_code.get(row["card"])
        if facts is not None:
            groups.setdefault(facts.kind, []).append(
                {**row, "facts": facts, "percent": round(row["share"] * 100), "points": round(row["synergy"] * 100)}
            )
    average = [{**row, "facts": by_code.get(row["card"])} for row in stats.average_deck] if stats else []
    decks = Deck.objects.listed().filter(general=card).select_related("owner").order_by("-updated", "-pk")[:NEWEST]
    context = {
        "card": card,
        "stats": stats,
        "groups": sorted(groups.items()),
        "average": average,
        "average_total": sum(int(row["count"]) for row in average),
        "average_text": "\n".join([f"武將: {card.code}", *(f"{row['count']} {row['card']}" for row in average)]),
        "decks": list(decks),
    }
    return render(request, "decks/general.html", context)
