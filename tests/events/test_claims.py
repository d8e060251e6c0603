"""A typed-in player linked to an account: the organiser asks, the account's holder confirms in
their notifications (or declines), once; the event joins their page and their rating."""

from __future__ import annotations

from datetime import date, timedelta

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.utils import timezone

from events import claims, day
from events.models import Event, Player, PlayerClaim
from people.models import Notification
from tests.support.event_helpers import starting

pytestmark = pytest.mark.django_db


@pytest.fixture
def event(alice):
    made = Event.objects.create(
        organiser=alice,
        name="週末小賽",
        deadline=timezone.now() + timedelta(days=1),
        starts_at=starting(date(2026, 5, 1)),
    )
    Player.objects.create(event=made, name="阿明")
    Player.objects.create(event=made, name="小華")
    return made


def _day(client: Client, event: Event, data: dict) -> object:
    return client.post(f"/events/{event.pk}/day/players/link/", data)


def test_the_organiser_asks_and_the_player_confirms(event, alice_client: Client, bob, bob_client: Client) -> None:
    player = Player.objects.get(event=event, name="阿明")
    answer = _day(alice_client, event, {"player": player.pk, "username": "bob"})
    assert answer.status_code == 302
    claim = PlayerClaim.objects.get(player=player)
    told = Notification.objects.get(recipient=bob, kind="player_link")
    assert told.url == f"/events/claims/{claim.pk}/" and told.subject == "週末小賽"
    page = bob_client.get(told.url)
    assert page.status_code == 200 and "阿明" in page.content.decode()
    assert bob_client.post(told.url, {"action": "accept"}).status_code == 302
    assert Player.objects.get(pk=player.pk).user == bob
    assert PlayerClaim.objects.get(pk=claim.pk).status == "confirmed"
    # once only
    assert bob_client.post(told.url, {"action": "decline"}).status_code == 409
    assert Player.objects.get(pk=player.pk).user == bob


def test_a_declined_request_links_nothing(event, alice, bob, bob_client: Client) -> None:
    player = Player.objects.get(event=event, name="阿明")
    claim = claims.ask(event, player.pk, "bob", alice)
    assert bob_client.post(f"/events/claims/{claim.pk}/", {"action": "decline"}).status_code == 302
    assert Player.objects.get(pk=player.pk).user is None


def test_only_the_asked_account_sees_the_request(event, alice, alice_client: Client, bob) -> None:
    claim = claims.ask(event, Player.objects.get(event=event, name="阿明").pk, "bob", alice)
    assert alice_client.get(f"/events/claims/{claim.pk}/").status_code == 404
    assert alice_client.post(f"/events/claims/{claim.pk}/", {"action": "accept"}).status_code == 404
    assert Client().get(f"/events/claims/{claim.pk}/").status_code == 302
    assert Player.objects.get(pk=claim.player_id).user is None


@pytest.mark.parametrize(
    "username, expected",
    [
        ("nobody", "No account with that username."),
        ("", "This field is required."),
        ("a\x00b", "Null characters are not allowed."),
    ],
)
def test_a_bad_username_is_refused_in_place(event, alice_client: Client, username: str, expected: str, english) -> None:
    player = Player.objects.get(event=event, name="阿明")
    answer = _day(alice_client, event, {"player": player.pk, "username": username})
    assert answer.status_code == 400
    assert expected in answer.content.decode()
    assert PlayerClaim.objects.count() == 0


def test_an_account_already_playing_the_event_or_a_linked_player_is_refused(event, alice, bob) -> None:
    first, second = Player.objects.filter(event=event).order_by("pk")
    Player.objects.filter(pk=first.pk).update(user=bob)
    with pytest.raises(claims.ClaimError):
        claims.ask(event, second.pk, "bob", alice)  # bob is a player of it already
    with pytest.raises(claims.ClaimError):
        claims.ask(event, first.pk, "alice", alice)  # the player is linked already


def test_another_users_event_is_a_404(event, bob_client: Client) -> None:
    player = Player.objects.get(event=event, name="阿明")
    assert _day(bob_client, event, {"player": player.pk, "username": "bob"}).status_code == 404
    assert PlayerClaim.objects.count() == 0


def test_asking_another_account_withdraws_the_first_request(event, alice, bob) -> None:
    dora = get_user_model().objects.create_user("dora", password="dora-password-1")
    player = Player.objects.get(event=event, name="阿明")
    first = claims.ask(event, player.pk, "bob", alice)
    claims.ask(event, player.pk, "dora", alice)
    assert PlayerClaim.objects.get(pk=first.pk).status == "withdrawn"
    with pytest.raises(claims.ClaimError):
        claims.answer(first.pk, bob, True)
    assert Player.objects.get(pk=player.pk).user is None and dora.pk


def test_a_confirmed_player_of_a_rated_event_is_rated(event, alice, bob, charlie) -> None:
    from events import ratings
    from events.models import Match, PlayerRating, Round

    Event.objects.filter(pk=event.pk).update(rated=True)
    event.refresh_from_db()
    first, second = Player.objects.filter(event=event).order_by("pk")
    Player.objects.filter(pk=second.pk).update(user=charlie)
    round_ = Round.objects.create(event=event, number=1, seed=1, ends=timezone.now())
    day.enter_result(Match.objects.create(round=round_, table=1, player_a=first, player_b=second), 2, 0, 0)
    ratings.recompute()
    assert not PlayerRating.objects.filter(user=bob).exists()  # a name only: not rated
    claims.answer(claims.ask(event, first.pk, "bob", alice).pk, bob, True)
    ratings.recompute()
    assert PlayerRating.objects.get(user=bob).ordinal > PlayerRating.objects.get(user=charlie).ordinal
