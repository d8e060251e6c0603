"""A result both players agreed stays as it is, a round that is over takes no more reports, and
the phone's report form reads an empty "drawn" as none."""

from __future__ import annotations

import json

import pytest
from django.db.models import Q
from django.test import Client

from events import day
from events.models import Event, Match, Report
from tests.conftest import logged_in
from tests.events.test_tournament_day import make_event

pytestmark = pytest.mark.django_db


@pytest.fixture
def two(alice, bob, charlie) -> Event:
    event = make_event(alice, players=2)
    first, second = event.players.order_by("pk")
    first.user, second.user = bob, charlie
    first.save()
    second.save()
    return event


def _post(client: Client, event: Event, number: int, **data: object):
    return client.post(
        f"/api/events/{event.pk}/rounds/{number}/results/", json.dumps(data), content_type="application/json"
    )


def _agree_round(event: Event, bob: Client, charlie: Client) -> Match:
    round_ = day.pair_next_round(event)
    match = round_.matches.get()
    winner, loser = (bob, charlie) if match.player_a.user.username == "bob" else (charlie, bob)
    assert _post(winner, event, round_.number, table=match.table, wins=2, losses=0).status_code == 200
    assert _post(loser, event, round_.number, table=match.table, wins=0, losses=2).status_code == 200
    match.refresh_from_db()
    assert match.decided_by == "agreed" and match.a_wins == 2
    return match


def test_an_agreed_result_is_the_organisers_to_change(two: Event, alice, bob, charlie, english) -> None:
    players = {"bob": logged_in(bob), "charlie": logged_in(charlie)}
    match = _agree_round(two, players["bob"], players["charlie"])
    loser = players["charlie"] if match.player_a.user.username == "bob" else players["bob"]
    winner = players["bob"] if loser is players["charlie"] else players["charlie"]
    again = _post(loser, two, 1, table=match.table, wins=2, losses=0)  # the loser tries another score
    assert again.status_code == 400 and "organiser" in json.dumps(again.json())
    assert _post(winner, two, 1, table=match.table, wins=2, losses=0).status_code == 200  # a second tap
    match.refresh_from_db()
    assert (match.decided_by, match.a_wins, match.b_wins, match.disputed) == ("agreed", 2, 0, False)
    corrected = _post(logged_in(alice), two, 1, table=match.table, wins=1, losses=2)
    assert corrected.status_code == 200
    match.refresh_from_db()
    assert (match.decided_by, match.a_wins, match.b_wins) == ("organiser", 1, 2)


def test_a_round_that_is_over_takes_no_more_reports(alice, bob, english) -> None:
    event = make_event(alice, players=4)
    mine = event.players.order_by("pk").first()
    mine.user = bob
    mine.save()
    reporter = logged_in(bob)

    def mine_in(round_number: int) -> Match:
        return Match.objects.get(Q(player_a=mine) | Q(player_b=mine), round__event=event, round__number=round_number)

    day.pair_next_round(event)
    first = mine_in(1)
    for match in Match.objects.filter(round__event=event):
        day.enter_result(match, 2, 1, 0)
    day.pair_next_round(event)
    second = mine_in(2)
    refused = _post(reporter, event, 1, table=first.table, wins=0, losses=2)
    assert refused.status_code == 400 and "Round 1 is over" in json.dumps(refused.json())
    first.refresh_from_db()
    assert (first.a_wins, first.b_wins, first.decided_by) == (2, 1, "organiser")
    assert _post(reporter, event, 2, table=second.table, wins=2, losses=0).status_code == 200


def test_the_phone_form_reads_an_empty_draw_as_none(two: Event, bob, english) -> None:
    day.pair_next_round(two)
    client = logged_in(bob)
    sent = client.post(f"/e/{two.token}/report/", {"wins": "2", "losses": "0", "draws": ""}, follow=True)
    assert sent.status_code == 200 and "Reported" in sent.content.decode()
    assert Report.objects.get(player__user=bob).draws == 0
    bad = client.post(f"/e/{two.token}/report/", {"wins": "two", "losses": "0"})
    assert bad.status_code == 400
    text = bad.content.decode()
    assert "Won" in text and "no match of yours" not in text
