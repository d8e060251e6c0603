"""Event decks: the lists of a finished event that its setting makes public (lists_public), kept
as records with their placing, player and general, and found by the cards they play. A player
who played without a list has a record too (their page reads placings from here), never found.

Written again whenever a result at such an event is entered (events.tasks.record_event_decks):
an event that is not finished, or whose lists are not public, has none."""

from __future__ import annotations

from django.db import transaction
from django.db.models import Exists, OuterRef, Q

from catalog.lookup import catalog_index
from decks import search
from decks.services import played_names
from events import presenters
from events.models import PUBLIC_LISTS, Event, EventDeck, EventDeckName
from rules_check.decklist import DeckListError, parse


def record(event_id: int) -> int:
    """The event's public lists written as event decks, replacing what was written before;
    returns how many. None when the event is not finished or keeps its lists."""
    event = Event.objects.filter(pk=event_id).first()
    if event is None:
        return 0
    public = event.lists_public in PUBLIC_LISTS  # its standings and lists are the public's
    finished = public and presenters.stage(event) == presenters.FINISHED
    placings = presenters.results(event)[1] if finished else []
    lookup = catalog_index().lookup
    decks: list[tuple[EventDeck, dict[str, int]]] = []
    for placing in placings:
        # A player without a list (or whose list no longer reads, stored before a parser change)
        # is kept for their page and record, never found by cards.
        main: dict[str, int] = {}
        if placing.text:
            try:
                parsed = parse(placing.text, lookup)
            except DeckListError:
                pass
            else:
                main = {e.card.code: e.count for e in parsed.deck.main if e.count > 0}
        deck = EventDeck(
            event=event,
            player_id=placing.player,
            user_id=placing.user,
            player_name=placing.name,
            placing=placing.place,
            players=len(placings),
            general=placing.general or "",
            format=event.format,
            day=event.day,
            text=placing.text or "",
        )
        decks.append((deck, played_names(main)))
    with transaction.atomic():
        EventDeck.objects.filter(event=event).delete()
        EventDeck.objects.bulk_create([deck for deck, _names in decks])
        EventDeckName.objects.bulk_create(
            [
                EventDeckName(event_deck=deck, name_key=key, copies=n)
                for deck, names in decks
                for key, n in names.items()
            ]
        )
    return len(decks)


def read_cards(texts: list[str]) -> tuple[list[tuple[str, int]], list[str]]:
    """The cards a search names (`新兵:2`, as the deck search reads them): each name's key and
    least copies, and what is wrong with the rest (too many, unknown)."""
    named = [text for text in texts if text.strip()]
    errors = [too_many] if (too_many := search.too_many_cards(len(named))) else []
    wanted = []
    for text in named[: int(search.SEARCH_CARDS)]:
        try:
            wanted.append(search.wanted(text))
        except search.SearchError as exc:
            errors.append(str(exc))
    return wanted, errors


def playing(wanted: list[tuple[str, int]]) -> Q:
    """Event decks that play each (name key, least copies): one indexed lookup a card."""
    condition = Q()
    for key, least in wanted:
        names = EventDeckName.objects.filter(event_deck=OuterRef("pk"), name_key=key, copies__gte=least)
        condition &= Q(Exists(names))
    return condition


def found(wanted: list[tuple[str, int]], general: str = "", format_name: str = "") -> object:
    """Event decks playing the wanted cards (and led by `general`, of `format_name`), newest
    event first, best placing first."""
    decks = EventDeck.objects.with_lists().filter(playing(wanted)).select_related("event")
    if general:
        decks = decks.filter(general=general)
    if format_name:
        decks = decks.filter(format=format_name)
    return decks.newest_first()
