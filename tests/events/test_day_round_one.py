"""Before round 1 the organiser's page says who will be paired and who not yet, offers to check
everyone in, and its pairing button says what it will do; pairing fewer than two players is
refused with a reason, never an error about rematches."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone

from events import day
from events.models import Event, Player, Submission
from tests.conftest import logged_in
from tests.support.decklists import ILLEGAL, LEGAL_40

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("english")]


@pytest.fixture
def event(alice) -> Event:
    made = Event.objects.create(organiser=alice, name="台北站", deadline=timezone.now() + timedelta(days=2))
    lists = [("王小明", LEGAL_40), ("Lin", LEGAL_40), ("陳", LEGAL_40), ("Chen", ILLEGAL)]
    Submission.objects.bulk_create([Submission(event=made, player_name=n, text=t) for n, t in lists])
    day.players_from_lists(made)
    return made


def _page(client: Client, event: Event) -> str:
    return re.sub(r"\s+", " ", client.get(f"/events/{event.pk}/day/").content.decode())


def test_with_nobody_checked_in_the_page_says_what_to_do_and_offers_no_pairing(event: Event, alice) -> None:
    page = _page(logged_in(alice), event)
    assert "0 of 4 players will be paired in round 1." in page
    for name in ("王小明", "Lin", "陳", "Chen"):
        assert name in page.split("Not checked in:")[1].split("</p>")[0]
    assert "To pair round 1, check players in" in page
    assert "Check in the 4 players not checked in" in page
    assert "Pair round 1" not in page  # no button that could only fail


def test_pairing_fewer_than_two_players_is_refused_with_the_reason(event: Event, alice) -> None:
    response = logged_in(alice).post(f"/events/{event.pk}/day/pair/")
    assert response.status_code == 400
    text = response.content.decode()
    assert "Fewer than two players can be paired" in text and "rematch" not in text.lower()
    assert not event.tournament_rounds.exists()


def test_the_button_says_how_many_it_pairs_and_who_waits(event: Event, alice) -> None:
    Player.objects.filter(event=event, name__in=["王小明", "Lin", "Chen"]).update(checked_in=True)
    page = _page(logged_in(alice), event)
    assert "2 of 4 players will be paired in round 1." in page
    assert "Pair round 1 with 2 players" in page
    assert "Check everyone in, or pair only the players checked in so far." in page
    waiting = page.split("Not checked in:")[1].split("</p>")[0]
    assert "陳" in waiting and "Lin" not in waiting
    illegal = page.split("their list is not legal")[1].split("</p>")[0]
    assert "Chen" in illegal


def test_check_everyone_in_checks_in_all_but_the_dropped(event: Event, alice) -> None:
    Player.objects.filter(event=event, name="陳").update(dropped=True)
    client = logged_in(alice)
    assert client.post(f"/events/{event.pk}/day/check-in/").status_code == 302
    assert set(Player.objects.filter(event=event, checked_in=True).values_list("name", flat=True)) == {
        "王小明",
        "Lin",
        "Chen",
    }
    page = _page(client, event)
    assert "Pair round 1 with 2 players" in page  # Chen's list is not legal: not paired
    assert client.post(f"/events/{event.pk}/day/pair/").status_code == 302
    assert event.tournament_rounds.count() == 1
    # After round 1 the action is refused: check-in is over.
    refused = client.post(f"/events/{event.pk}/day/check-in/")
    assert refused.status_code == 400 and "check-in is over" in refused.content.decode()


def test_only_the_organisers_check_everyone_in(event: Event, bob) -> None:
    assert logged_in(bob).post(f"/events/{event.pk}/day/check-in/").status_code == 404
    assert not Player.objects.filter(event=event, checked_in=True).exists()
