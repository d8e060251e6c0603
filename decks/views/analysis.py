"""Reading decks: draw odds and sample hands, and two decks compared side by side."""

from __future__ import annotations

import secrets
from typing import Any

from django.http import Http404, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext as _

from catalog.lookup import catalog_index
from decks import compare as deck_compare
from decks import draw_odds, services
from decks.models import Deck
from decks.stats import deck_view
from decks.views.decks import deck_names, visible_deck
from drawing import TURNS, sample_hand
from webutil.numbers import whole_number
from webutil.requests import HtmxHttpRequest


def _odds_context(request: HtmxHttpRequest, deck: Deck) -> tuple[dict[str, Any], int]:
    """The odds form and, when a card or query is chosen, its table and chart."""
    card, q = request.GET.get("card", "").strip(), request.GET.get("q", "").strip()
    context: dict[str, Any] = {"deck": deck, "card": card, "q": q, "k": request.GET.get("k", "1")}
    context["names"] = deck_names(deck)
    if not (card or q):
        return context, 200
    try:
        k = int(context["k"])
        choice = draw_odds.choose(deck, card=card, q=q[:200])
        table = draw_odds.table_for(choice, k)
    except (ValueError, OverflowError) as exc:
        context["error"] = str(exc) if isinstance(exc, draw_odds.OddsError) else _("k must be a whole number.")
        return context, 400
    context.update(
        {"choice": choice, "table": table, "rows": draw_odds.rows(table), "chart": draw_odds.chart_svg(table)}
    )
    return context, 200


def deck_odds(request: HtmxHttpRequest, deck_id: int) -> HttpResponse:
    deck = visible_deck(request, deck_id)
    context, status = _odds_context(request, deck)
    template = "decks/_odds.html" if request.htmx else "decks/odds.html"
    return render(request, template, context, status=status)


def deck_sample(request: HtmxHttpRequest, deck_id: int) -> HttpResponse:
    """A sample hand, then the next turn's draw, or a 調度 of chosen cards: replayed from a seed."""
    deck = visible_deck(request, deck_id)
    seed = whole_number(request.GET["seed"]) if request.GET.get("seed") else secrets.randbelow(10**9)
    turn = whole_number(request.GET.get("turn", "0"))
    asides = [whole_number(i, high=4) for i in request.GET.getlist("aside")[:5]]
    aside = frozenset(i for i in asides if i is not None)
    if seed is None or turn is None or None in asides or not (seed < 10**9 and turn <= TURNS):
        return render(request, "error.html", {"message": _("Not a sample hand.")}, status=400)
    first = request.GET.get("second") != "1"
    data = services.snapshot_of(deck)
    cards = [code for code, n in data.main.items() for _copy in range(n)]
    hand = sample_hand(cards, seed, turn=turn, first=first, aside=aside)
    name = {code: catalog_index().by_code[code].name for code in data.main}
    context = {
        "deck": deck,
        "sample": hand,
        "hand": [name[code] for code in hand.hand],
        "drawn": [(t, [name[code] for code in cards]) for t, cards in enumerate(hand.drawn, start=1)],
        "aside": sorted(aside),
        "next_turn": turn + 1 if turn < TURNS and hand.left else None,
        "second": not first,
    }
    template = "decks/_sample.html" if request.htmx else "decks/sample.html"
    return render(request, template, context)


# Decks offered to choose from on each side (mine, and those shared with my groups): a phone's
# list stays short; any other deck is pasted by its address.
CHOICES = 300


def _deck_param(request: HtmxHttpRequest, name: str) -> Deck | None:
    """A deck named in the query: its address pasted (`<name>_link`), else chosen by id
    (`<name>`); None when neither is given."""
    raw = (request.GET.get(f"{name}_link", "").strip() or request.GET.get(name, "")).strip()
    if not raw:
        return None
    digits = raw.rstrip("/").rsplit("/", 1)[-1]
    number = whole_number(digits, low=1)
    if number is None:
        raise Http404(_("No such deck."))
    return visible_deck(request, number)


def compare(request: HtmxHttpRequest) -> HttpResponse:
    """Any two decks the reader may see, side by side: `?a=<id>&b=<id>`."""
    a, b = _deck_param(request, "a"), _deck_param(request, "b")
    mine = list(Deck.objects.owned_by(request.user).order_by("name", "pk")[:CHOICES])
    shared: dict[Any, list[Deck]] = {}
    for row in Deck.objects.shared_in_groups_of(request.user)[:CHOICES]:
        shared.setdefault(row.group, []).append(row.deck)
    listed = {d.pk for d in mine} | {d.pk for decks in shared.values() for d in decks}
    context: dict[str, Any] = {
        "a": a,
        "b": b,
        "mine": mine,
        "shared": list(shared.items()),
        # A deck chosen that is in neither list (a public deck, from its page): its address.
        "a_link": a.get_absolute_url() if a is not None and a.pk not in listed else "",
        "b_link": b.get_absolute_url() if b is not None and b.pk not in listed else "",
    }
    if a is not None and b is not None:
        view_a, view_b = deck_view(a), deck_view(b)
        context.update(
            {
                "comparison": deck_compare.compare(services.snapshot_of(a), services.snapshot_of(b)),
                "view_a": view_a,
                "view_b": view_b,
                "stats": _side_by_side(view_a, view_b),
                "curves": deck_compare.curves_svg(view_a.curve, view_b.curve),
            }
        )
    return render(request, "decks/compare.html", context)


def _side_by_side(a: Any, b: Any) -> list[tuple[str, list[tuple[str, int, int]]]]:
    """Kinds, classes, speeds and elements of both decks: (heading, [(slug, in A, in B)])."""
    rows = []
    for heading, name in (
        (_("Kind"), "by_kind"),
        (_("Troop class"), "by_class"),
        (_("Speed"), "by_speed"),
        (_("Element"), "by_element"),
    ):
        left, right = getattr(a, name), getattr(b, name)
        keys = list(dict.fromkeys([*left, *right]))
        if keys:
            rows.append((heading, [(key, left.get(key, 0), right.get(key, 0)) for key in keys]))
    return rows
