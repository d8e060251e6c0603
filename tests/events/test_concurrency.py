"""The tournament day's writes that two people can make at once (two organiser tabs, two players'
reports, a report racing the organiser), made at once: real threads, real transactions, on
SQLite here and PostgreSQL in CI. Each fails without its row lock."""

from __future__ import annotations

import pytest

from tests.conftest import logged_in
from tests.support.concurrency import at_once

pytestmark = pytest.mark.django_db(transaction=True)


def _tournament(racer, players: int = 4):
    from datetime import timedelta

    from django.utils import timezone

    from events import day
    from events.models import Event, Submission
    from tests.support.decklists import LEGAL_40

    event = Event.objects.create(organiser=racer, name="race", deadline=timezone.now() + timedelta(days=1))
    for n in range(players):
        Submission.objects.create(event=event, player_name=f"p{n}", text=LEGAL_40)
    day.players_from_lists(event)
    event.players.update(checked_in=True)
    return event


def test_two_organiser_tabs_pairing_at_once_pair_one_round(racer) -> None:
    from events.models import Match, Round

    event = _tournament(racer)

    def pair() -> int:
        return (
            logged_in(racer).post(f"/api/events/{event.pk}/rounds/", "{}", content_type="application/json").status_code
        )

    assert sorted(at_once(pair, pair)) == [201, 400]
    assert Round.objects.filter(event=event).count() == 1 and Match.objects.filter(round__event=event).count() == 2


def test_both_reports_at_once_agree_once_and_a_report_racing_the_organiser_loses_nothing(racer) -> None:
    from events import day
    from events.models import Match, Player

    event = _tournament(racer, players=2)
    match = day.pair_next_round(event).matches.get()
    a, b = Player.objects.get(pk=match.player_a_id), Player.objects.get(pk=match.player_b_id)
    for _ in range(3):
        Match.objects.filter(pk=match.pk).update(a_wins=None, b_wins=None, draws=None, decided_by="", disputed=False)
        match.reports.all().delete()
        at_once(lambda: day.report(match, a, 2, 1, 0), lambda: day.report(match, b, 1, 2, 0))
        settled = Match.objects.get(pk=match.pk)
        assert (settled.a_wins, settled.b_wins, settled.decided_by, settled.disputed) == (2, 1, "agreed", False)
    # A player's report racing the organiser's entry: the organiser's result stands either way.
    Match.objects.filter(pk=match.pk).update(a_wins=None, b_wins=None, draws=None, decided_by="", disputed=False)
    match.reports.all().delete()

    def player() -> str:
        try:
            day.report(match, b, 2, 0, 0)
        except day.TournamentError:
            return "refused"
        return "reported"

    results = at_once(lambda: day.enter_result(match, 2, 0, 0) and "entered", player)
    final = Match.objects.get(pk=match.pk)
    assert (final.a_wins, final.b_wins, final.decided_by) == (2, 0, "organiser")
    assert results[1] in ("refused", "reported")


def test_a_report_racing_a_round_paired_again_is_refused_or_lands_never_an_error(racer) -> None:
    from events import day
    from events.models import Match, Player, Round

    event = _tournament(racer, players=4)
    for _ in range(10):
        round_ = day.pair_next_round(event) if not Round.objects.filter(event=event).exists() else Round.objects.get()
        match = round_.matches.first()
        assert match is not None
        player = Player.objects.get(pk=match.player_a_id)

        def again() -> str:
            try:
                day.repair_round(event, 1)
            except day.TournamentError:
                return "kept"  # the report came first: a result is in
            return "paired again"

        def report() -> str:
            try:
                day.report(match, player, 2, 0, 0)
            except day.TournamentError:
                return "refused"  # the round was paired again first
            return "reported"

        outcome = at_once(again, report)
        assert outcome in (["paired again", "refused"], ["kept", "reported"], ["paired again", "reported"])
        assert Round.objects.filter(event=event).count() == 1 and Match.objects.filter(round__event=event).count() == 2
        Match.objects.filter(round__event=event).update(a_wins=None, b_wins=None, draws=None, decided_by="")
        for left in Match.objects.filter(round__event=event):
            left.reports.all().delete()


def test_a_report_a_round_paired_again_and_changes_by_hand_at_once_never_error(racer) -> None:
    """Four at once on one table: the player's report, the round paired again, the table removed
    by one organiser and a match loss given by another. Each lands or is refused with a message
    (no deadlock, no 500), and nobody ends up at two tables or with a report on no match."""
    from events import day, tools
    from events.models import Match, Player, Report, Round

    event = _tournament(racer, players=6)
    for _ in range(8):
        Round.objects.filter(event=event).delete()
        round_ = day.pair_next_round(event)
        match = round_.matches.filter(player_b__isnull=False).first()
        assert match is not None
        player = Player.objects.get(pk=match.player_a_id)

        def attempt(call) -> str:
            try:
                call()
            except day.TournamentError:
                return "refused"
            return "done"

        outcome = at_once(
            lambda: attempt(lambda: day.report(match, player, 2, 0, 0)),
            lambda: attempt(lambda: day.repair_round(event, 1)),
            lambda: attempt(lambda: tools.remove_table(event, 1, match.table, racer)),
            lambda: attempt(lambda: tools.match_loss(event, 1, match.player_b_id, racer)),
        )
        assert "done" in outcome
        newest = Round.objects.get(event=event)
        seats = [p for m in newest.matches.all() for p in (m.player_a_id, m.player_b_id) if p]
        assert len(seats) == len(set(seats))
        assert not Report.objects.filter(match__round__event=event).exclude(match__round=newest).exists()
        assert Match.objects.filter(round__event=event).count() <= 3
