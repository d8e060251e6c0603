"""Pairing at the event: computed outside the lock and written only if nothing changed, the number
of Swiss rounds fixed at round 1, lists frozen once paired, and players made as lists are sent,
never by a page that is read."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from events import day, presenters, services
from events.models import Event, Player, Round
from tests.conftest import logged_in
from tests.events.test_tournament_day import make_event, play_round
from tests.support.decklists import LEGAL_40

pytestmark = pytest.mark.django_db


def test_the_number_of_swiss_rounds_is_fixed_when_round_one_is_paired(alice) -> None:
    # 9 players: ⌈log2 9⌉ = 4. Two drop after round 1; the event still has 4 rounds (it ended
    # after 3 when the count followed the players still active).
    event = make_event(alice, players=9)
    assert day.planned_rounds(event) == 4
    play_round(event)
    event.refresh_from_db()
    assert event.rounds == 4
    for player in list(event.players.all())[:2]:
        day.set_dropped(player, True)
    for _ in range(3):
        play_round(event)
    assert presenters.stage(event) == presenters.FINISHED
    assert Round.objects.filter(event=event).count() == 4


def test_the_round_count_is_shown_from_the_lists_before_check_in(alice) -> None:
    # 16 lists in and nobody checked in yet: 4 rounds, not "1 Swiss round".
    event = make_event(alice, players=16)
    event.players.update(checked_in=False)
    assert day.planned_rounds(event) == 4
    page = logged_in(alice).get(f"/events/{event.pk}/day/").content.decode()
    assert "4 輪瑞士輪" in page or "4 Swiss rounds" in page
    # once check-in begins, the players checked in count
    event.players.filter(pk__in=list(event.players.values_list("pk", flat=True))[:5]).update(checked_in=True)
    assert day.planned_rounds(event) == 3


def test_a_pairing_that_met_a_change_is_computed_again(alice, monkeypatch) -> None:
    # The pairing is computed from a snapshot, outside the lock; a player dropped meanwhile is
    # seen under the lock, and the round is paired again without them.
    event = make_event(alice, players=8)
    leaving = event.players.order_by("pk").first()
    real = day._pairs
    calls = []

    def pairs_while_someone_drops(players, history, seed):
        calls.append(len(players))
        if len(calls) == 1:
            Player.objects.filter(pk=leaving.pk).update(dropped=True)
        return real(players, history, seed)

    monkeypatch.setattr(day, "_pairs", pairs_while_someone_drops)
    round_ = day.pair_next_round(event)
    assert calls == [8, 7]
    seated = {p for m in round_.matches.all() for p in (m.player_a_id, m.player_b_id)}
    assert leaving.pk not in seated


def test_a_pairing_that_keeps_meeting_changes_is_refused_with_a_message(alice, monkeypatch) -> None:
    event = make_event(alice, players=8)
    real = day._pairs
    players = list(event.players.order_by("pk"))

    def pairs_while_the_event_changes(active, history, seed):
        victim = players.pop()
        Player.objects.filter(pk=victim.pk).update(checked_in=False)
        return real(active, history, seed)

    monkeypatch.setattr(day, "_pairs", pairs_while_the_event_changes)
    with pytest.raises(day.TournamentError, match="變動"):
        day.pair_next_round(event)
    assert not Round.objects.filter(event=event).exists()


def test_lists_are_frozen_once_their_players_are_paired(alice, bob, charlie) -> None:
    event = Event.objects.create(organiser=alice, name="決賽日", deadline=timezone.now() + timedelta(days=1))
    services.submit(event, bob, "Bob", LEGAL_40)
    services.submit(event, charlie, "Charlie", LEGAL_40)
    event.players.update(checked_in=True)
    day.pair_next_round(event)
    with pytest.raises(services.EventClosed, match="配對"):
        services.submit(event, bob, "Bob", LEGAL_40.replace("3 ", "2 ", 1))
    with pytest.raises(services.EventClosed, match="配對"):
        services.withdraw(event, bob)
    # through the event's link too: refused with the reason, the list as it was
    answer = logged_in(bob).post(f"/e/{event.token}/withdraw/")
    assert answer.status_code == 403 and "配對" in answer.content.decode()
    assert event.submissions.filter(player=bob).exists()
    # the event page says so, and offers neither a replacement nor a withdrawal
    page = logged_in(bob).get(f"/e/{event.token}/").content.decode()
    assert "配對" in page and "/withdraw/" not in page


def test_a_list_becomes_a_player_when_it_is_sent_and_reading_a_page_writes_nothing(alice, bob) -> None:
    event = Event.objects.create(organiser=alice, name="城市賽", deadline=timezone.now() + timedelta(days=1))
    assert logged_in(bob).post(f"/e/{event.token}/", {"player_name": "Bob 王", "list": LEGAL_40}).status_code in (
        200,
        302,
    )
    assert Player.objects.filter(event=event, user=bob).count() == 1
    # a list that reached the table without the service (an old row) stays as it is on a GET
    event.submissions.create(player_name="舊名單", text=LEGAL_40)
    organiser = logged_in(alice)
    assert organiser.get(f"/events/{event.pk}/day/").status_code == 200
    assert organiser.get(f"/api/events/{event.pk}/players/").status_code == 200
    assert event.players.count() == 1
