"""Event decks: a finished event's public lists kept as records, found by their cards, counted
on the cards' figures, linked from the deck search and shown on the event's page."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone

from catalog.models import Card
from decks.models import CardStats
from events import card_wins, day, presenters
from events.models import Event, EventDeck, Submission

pytestmark = pytest.mark.django_db

BASE = [3, 4, 5, 6, 7, 8, 9, 12, 13, 14, 15, 16]


def _list(with_18: bool) -> str:
    codes = BASE + ([18] if with_18 else [17])
    return "武將: 劉備\n" + "\n".join(f"3 YXJQ-{n:03d}" for n in codes) + "\n1 南蠻入侵\n"


def _played(owner, name: str, lists_public: str, *, listed: bool = False) -> Event:
    """Four lists, the two Swiss rounds played (the event is then finished); half play YXJQ-018."""
    event = Event.objects.create(
        organiser=owner,
        name=name,
        deadline=timezone.now() - timedelta(hours=1),
        starts_at=timezone.now(),
        lists_public=lists_public,
        visibility="listed" if listed else "private",
    )
    Submission.objects.bulk_create(
        [Submission(event=event, player_name=f"{name}{i}", text=_list(i % 2 == 0)) for i in range(4)]
    )
    day.players_from_lists(event)
    event.players.update(checked_in=True, legal=True)
    for _round in range(2):
        for match in day.pair_next_round(event).matches.filter(player_b__isnull=False):
            day.enter_result(match, 2, 0, 0)
    return event


def test_a_finished_event_keeps_its_public_lists_as_event_decks(alice, django_capture_on_commit_callbacks) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        shown = _played(alice, "公開賽", "after", listed=True)
        kept = _played(alice, "閉門賽", "never")
    assert presenters.stage(shown) == presenters.FINISHED
    decks = list(EventDeck.objects.filter(event=shown).order_by("placing"))
    assert [d.placing for d in decks] == [1, 2, 3, 4] and {d.players for d in decks} == {4}
    assert {d.general for d in decks} == {"WJ-001"} and decks[0].day == shown.day
    assert not EventDeck.objects.filter(event=kept).exists()
    visitor = Client()
    found = visitor.get("/events/decks/?card=YXJQ-018").context["rows"]
    assert len(found) == 2 and all("YXJQ-018" in d.text for d in found)
    assert visitor.get("/events/decks/?card=YXJQ-018&card=YXJQ-017").context["rows"] == []
    assert visitor.get("/events/decks/?card=YXJQ-018:3").context["rows"] != []
    assert visitor.get("/events/decks/?card=YXJQ-018:4").context["rows"] == []  # each plays three
    for bad in ("card=不存在的牌", "page=999", "format=nope", "&".join(["card=YXJQ-003"] * 9)):
        assert visitor.get(f"/events/decks/?{bad}").status_code == 400, bad
    one = visitor.get(found[0].get_absolute_url())
    assert one.status_code == 200 and "YXJQ-018" in one.content.decode()
    page = visitor.get(f"/events/{shown.pk}/").content.decode()
    assert f"/events/decks/{decks[0].pk}/" in page  # beside the placings
    link = visitor.get("/decks/?card=YXJQ-018").content.decode()
    assert "/events/decks/?card=YXJQ-018" in link  # the deck search points to them


def test_the_cards_figures_count_the_event_decks_that_play_them(alice, django_capture_on_commit_callbacks) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        _played(alice, "公開賽", "after")
    card_wins.compute()
    stats = CardStats.objects.get(card=Card.objects.get(code="YXJQ-018"))
    assert (stats.event_decks, stats.event_top8) == (2, 2)
    assert CardStats.objects.get(card=Card.objects.get(code="YXJQ-003")).event_decks == 4
    api = Client().get("/api/cards/YXJQ-018/stats/").json()
    assert api["event_decks"] == 2 and api["event_top8"] == 2


def test_lists_made_private_again_leave_the_event_decks(alice, django_capture_on_commit_callbacks) -> None:
    from events import services

    with django_capture_on_commit_callbacks(execute=True):
        event = _played(alice, "公開賽", "after")
    assert EventDeck.objects.filter(event=event).count() == 4
    with django_capture_on_commit_callbacks(execute=True):
        services.change_settings(event, {"lists_public": "never"})
    assert not EventDeck.objects.filter(event=event).exists()


def test_a_players_page_and_answer_list_the_events_they_played(alice, bob, django_capture_on_commit_callbacks) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        event = _played(alice, "公開賽", "after", listed=True)
    first = EventDeck.objects.get(event=event, placing=1)
    player = first.player
    player.user = bob
    player.save(update_fields=["user"])
    EventDeck.objects.filter(pk=first.pk).update(user=bob)
    answer = Client().get("/api/users/bob/events/").json()
    assert [row["name"] for row in answer] == ["公開賽"]
    row = answer[0]
    assert (row["place"], row["players"], row["won"], row["lost"], row["drawn"]) == (1, 4, 2, 0, 0)
    assert row["url"] == f"/events/{event.pk}/" and row["list_url"] == f"/events/decks/{first.pk}/"
    page = Client().get("/u/bob/").content.decode()
    assert f"/events/decks/{first.pk}/" in page and "2–0–0" in page
