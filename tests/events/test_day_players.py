"""What one player does to their list cannot break the day: a list withdrawn and sent again is
the same player, and every page of the day still answers."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone

from events import day
from events.models import Event, Player, Submission
from tests.conftest import logged_in
from tests.support.decklists import LEGAL_40

pytestmark = pytest.mark.django_db


@pytest.fixture
def event(alice) -> Event:
    return Event.objects.create(organiser=alice, name="台北站", deadline=timezone.now() + timedelta(days=2))


def _send(client: Client, event: Event) -> None:
    assert client.post(f"/e/{event.token}/", {"player_name": "Bob 王", "list": LEGAL_40}).status_code in (200, 302)


def _day_pages_answer(event: Event, organiser: Client, player: Client) -> None:
    assert organiser.get(f"/events/{event.pk}/day/").status_code == 200
    assert organiser.get(f"/api/events/{event.pk}/players/").status_code == 200
    assert player.get(f"/e/{event.token}/").status_code == 200


def test_a_list_withdrawn_and_sent_again_is_the_same_player(event: Event, alice, bob) -> None:
    organiser, player = logged_in(alice), logged_in(bob)
    _send(player, event)
    _day_pages_answer(event, organiser, player)  # the organiser opened the day: bob is a player
    first = Player.objects.get(event=event, user=bob)
    assert player.post(f"/e/{event.token}/withdraw/").status_code == 302
    _send(player, event)
    _day_pages_answer(event, organiser, player)
    again = Player.objects.get(event=event, user=bob)  # one, and the same
    assert again.pk == first.pk and again.submission == Submission.objects.get(event=event, player=bob)


def test_a_player_left_without_a_list_is_joined_to_the_list_sent_again(event: Event, alice, bob) -> None:
    # A day that broke before this was fixed: the player's list gone, a new one sent, no link.
    submission = Submission.objects.create(event=event, player=bob, player_name="Bob 王", text=LEGAL_40)
    day.players_from_lists(event)
    submission.delete()
    Submission.objects.create(event=event, player=bob, player_name="Bob 王", text=LEGAL_40)
    assert day.players_from_lists(event) == 0
    assert Player.objects.filter(event=event, user=bob).count() == 1
    _day_pages_answer(event, logged_in(alice), logged_in(bob))
