"""Event decks: the lists played at finished events whose setting makes them public, found by
the cards they play (as the deck search finds decks), and one of them with its event."""

from __future__ import annotations

from django.http import HttpResponse
from django.shortcuts import get_object_or_404, render
from django.utils.translation import gettext as _

from decks.i18n import label_formats
from events import event_decks
from events.models import EventDeck
from rules_check import FORMATS
from webutil.pagination import SlicePage, page_number
from webutil.requests import HtmxHttpRequest

# A page of event decks; pages stop here (name another card to go further).
EVENT_DECKS_PAGE = 30
MAX_PAGE = 100


def search_page(request: HtmxHttpRequest) -> HttpResponse:
    """`?card=新兵:2&card=…` (the deck search's cards), `?general=<code>`, `?format=`."""
    cards = [c for c in request.GET.getlist("card") if c.strip()]
    wanted, errors = event_decks.read_cards(cards)
    general = request.GET.get("general", "").strip()[:20]
    format_name = request.GET.get("format", "")
    if format_name and format_name not in FORMATS:
        errors.append(_("No such format."))
    number = page_number(request, MAX_PAGE)
    page = None
    if not errors and number:
        page = SlicePage(event_decks.found(wanted, general, format_name), number, EVENT_DECKS_PAGE)
    rows = list(page.object_list) if page else []
    label_formats([row.event for row in rows])
    context = {
        "page": page,
        "rows": rows,
        "errors": errors,
        "card_slots": cards + [""] * max(0, 3 - len(cards)),
        "too_far": number is None,
    }
    return render(request, "events/event_decks.html", context, status=400 if errors or not number else 200)


def detail(request: HtmxHttpRequest, deck_id: int) -> HttpResponse:
    """One event deck: the list as played, its placing, its event."""
    deck = get_object_or_404(EventDeck.objects.with_lists().select_related("event", "user"), pk=deck_id)
    return render(request, "events/event_deck.html", {"deck": deck, "event": deck.event})
