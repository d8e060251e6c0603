"""The organiser's tools of the tournament day: the one next step the page offers, what each
player reported when reports disagree, the round clock and its screen, match losses and a round
taken back, penalties, and the event's JSON export."""

from __future__ import annotations

import random
import re
from datetime import timedelta
from fractions import Fraction

import pytest
from django.db.models import Q
from django.test import Client
from django.utils import timezone

from events import day, tools
from events.models import DayChange, DeckCheck, Event, Match, Penalty, Player, Round
from events.presenters import my_match
from tests.conftest import logged_in
from tests.events.test_tournament_day import make_event, play_round
from tests.support.decklists import LEGAL_40

pytestmark = pytest.mark.django_db


def _text(page: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", page))


def _buttons(page: str) -> list[str]:
    """The labels of the pairing form's buttons on the day page."""
    form = page.split('/day/pair/"', 1)[1].split("</form>", 1)[0] if '/day/pair/"' in page else ""
    return [part.split(">", 1)[1].split("<", 1)[0].strip() for part in form.split("<button")[1:]]


def test_the_day_page_offers_exactly_the_next_step(alice, english) -> None:
    event = make_event(alice, players=4, top_cut=4)  # two Swiss rounds, then a top 4
    organiser = logged_in(alice)
    url = f"/events/{event.pk}/day/"
    assert _buttons(organiser.get(url).content.decode()) == ["Pair round 1 with 4 players"]
    play_round(event)
    assert _buttons(organiser.get(url).content.decode()) == ["Pair round 2 with 4 players"]
    play_round(event)
    # The last Swiss round is over: only the top cut goes on (no "next round" leading to an error).
    assert _buttons(organiser.get(url).content.decode()) == ["Pair the top cut"]
    semis = day.pair_top_cut(event)
    assert _buttons(organiser.get(url).content.decode()) == []  # results are wanted, nothing to pair
    for match in semis.matches.all():
        day.enter_result(match, 2, 0, 0)
    assert _buttons(organiser.get(url).content.decode()) == ["Pair the next top-cut round: Final"]
    final = day.pair_top_cut(event)
    day.enter_result(final.matches.get(), 2, 1, 0)
    page = organiser.get(url).content.decode()
    assert _buttons(page) == [] and "The event is over" in page
    assert organiser.post(f"/events/{event.pk}/day/pair/", {"top_cut": "1"}).status_code == 400


def test_pair_again_is_offered_only_while_no_result_is_in(alice, english) -> None:
    event = make_event(alice, players=4)
    organiser = logged_in(alice)
    round_ = day.pair_next_round(event)
    url = f"/events/{event.pk}/day/"
    assert _buttons(organiser.get(url).content.decode()) == ["Pair this round again"]
    day.enter_result(round_.matches.first(), 2, 0, 0)
    assert _buttons(organiser.get(url).content.decode()) == []


def test_a_disagreement_shows_what_each_player_reported(alice, bob, charlie, english) -> None:
    event = make_event(alice, players=2)
    one, two = event.players.order_by("pk")
    one.user, two.user = bob, charlie
    one.save(), two.save()
    match = day.pair_next_round(event).matches.get()
    day.report(match, one, 2, 1, 0)
    day.report(match, two, 2, 0, 0)
    assert Match.objects.get(pk=match.pk).disputed
    page = _text(logged_in(alice).get(f"/events/{event.pk}/day/").content.decode())
    assert "reports disagree" in page
    assert f"{one.name} reported 2–1–0" in page and f"{two.name} reported 2–0–0" in page
    # The venue's public page says only that the result is open.
    public = Client().get(f"/t/{event.public_token}/").content.decode()
    assert "reported 2–1–0" not in public


# --- the round's clock -------------------------------------------------------------------------


def test_the_clock_pauses_resumes_gains_time_and_ends(alice, english) -> None:
    event = make_event(alice, players=4, round_minutes=50)
    round_ = day.pair_next_round(event)
    start = timezone.now()
    assert 49 * 60 < round_.seconds_left(start) <= 50 * 60
    paused = day.clock(round_, day.PAUSE)
    frozen = paused.seconds_left()
    # While paused, the time left stands still however late one looks.
    assert paused.seconds_left(start + timedelta(minutes=30)) == frozen
    with pytest.raises(day.TournamentError, match="paused already"):
        day.clock(round_, day.PAUSE)
    # Paused ten minutes ago: resuming moves the end on by those ten minutes.
    Round.objects.filter(pk=round_.pk).update(paused_at=paused.paused_at - timedelta(minutes=10))
    resumed = day.clock(round_, day.RESUME)
    assert resumed.paused_at is None
    assert abs(resumed.ends - paused.ends - timedelta(minutes=10)) < timedelta(seconds=2)
    with pytest.raises(day.TournamentError, match="running"):
        day.clock(round_, day.RESUME)
    longer = day.clock(round_, day.ADD, 7)
    assert longer.ends - resumed.ends == timedelta(minutes=7)
    for minutes in (0, 121, -3):
        with pytest.raises(day.TournamentError):
            day.clock(round_, day.ADD, minutes)
    ended = day.clock(round_, day.END)
    assert ended.seconds_left() <= 0
    with pytest.raises(day.TournamentError, match="Unknown"):
        day.clock(round_, "stop")


def test_only_the_newest_rounds_clock_changes(alice, english) -> None:
    event = make_event(alice, players=4)
    play_round(event)
    first = event.tournament_rounds.get(number=1)
    day.pair_next_round(event)
    with pytest.raises(day.TournamentError, match="newest"):
        day.clock(first, day.ADD, 5)


def test_the_clock_through_the_page_and_the_api(alice, bob, charlie, english) -> None:
    event = make_event(alice, players=4)
    event.judges.add(charlie)
    round_ = day.pair_next_round(event)
    judge = logged_in(charlie)
    assert judge.post(f"/events/{event.pk}/day/rounds/1/clock/", {"action": "pause"}).status_code == 302
    assert event.tournament_rounds.get().paused_at is not None
    refused = judge.post(f"/events/{event.pk}/day/rounds/1/clock/", {"action": "pause"})
    assert refused.status_code == 400 and "paused" in refused.content.decode()
    assert logged_in(bob).post(f"/events/{event.pk}/day/rounds/1/clock/", {"action": "end"}).status_code == 404
    api = logged_in(alice)
    url = f"/api/events/{event.pk}/rounds/1/clock/"
    answer = api.post(url, {"action": "resume"}, content_type="application/json")
    assert answer.status_code == 200 and answer.json()["paused"] is False
    before = round_.ends
    answer = api.post(url, {"action": "add", "minutes": 10}, content_type="application/json")
    assert answer.status_code == 200
    assert event.tournament_rounds.get().ends - before >= timedelta(minutes=10)
    assert api.post(url, {"action": "add", "minutes": 500}, content_type="application/json").status_code == 400
    assert api.post(url, {"action": "nap"}, content_type="application/json").status_code == 400
    assert (
        api.post(
            f"/api/events/{event.pk}/rounds/9/clock/", {"action": "end"}, content_type="application/json"
        ).status_code
        == 404
    )
    assert logged_in(bob).post(url, {"action": "end"}, content_type="application/json").status_code == 404


def test_the_clock_screen_shows_the_round_the_time_left_and_the_tables_still_playing(alice, english) -> None:
    event = make_event(alice, players=6)
    visitor = Client()
    url = f"/t/{event.public_token}/clock/"
    assert "not paired yet" in visitor.get(url).content.decode()
    round_ = day.pair_next_round(event)
    tables = list(round_.matches.order_by("table"))
    day.enter_result(tables[0], 2, 0, 0)
    day.clock(round_, day.PAUSE)
    page = visitor.get(url).content.decode()
    text = _text(page)
    assert "Round 1" in text and "The clock is paused." in text and "data-paused" in page
    assert re.search(r">\s*(49|50):\d\d\s*<", page)  # the time left, from the server's end time
    playing = re.findall(r"<li>(\d+)</li>", page.split("projector-tables", 1)[1])
    assert playing == [str(m.table) for m in tables[1:]]
    for match in tables[1:]:
        day.enter_result(match, 2, 1, 0)
    assert "Round over" in visitor.get(url).content.decode()
    assert visitor.get("/t/not-a-token/clock/").status_code == 404


def test_the_clock_screen_is_the_clock_alone(alice, english) -> None:
    # On a projector: the round and the time left, no header, menus or footer of the site; a
    # button for the full screen and a wake lock asked for by site.js.
    event = make_event(alice, players=4)
    day.pair_next_round(event)
    page = Client().get(f"/t/{event.public_token}/clock/").content.decode()
    assert "site-header" not in page and "main-nav" not in page and "site-footer" not in page
    assert "data-fullscreen" in page and "data-wake-lock" in page
    assert 'class="projector-time"' in page


def test_a_finished_round_shows_no_running_countdown(alice, english) -> None:
    event = make_event(alice, players=4)
    play_round(event)
    for url in (f"/events/{event.pk}/pairings/", f"/events/{event.pk}/day/"):
        page = logged_in(alice).get(url).content.decode()
        assert 'class="round-end"' not in page and "every result is in" in page


# --- after the event -----------------------------------------------------------------------------


def test_the_json_export_holds_the_whole_event(alice, bob, charlie) -> None:
    event = make_event(alice, players=4)
    event.judges.add(charlie)
    play_round(event)
    round_ = day.pair_next_round(event)
    match = round_.matches.filter(player_b__isnull=False).first()
    day.report(match, Player.objects.get(pk=match.player_a_id), 2, 1, 0)
    url = f"/api/events/{event.pk}/export/"
    answer = logged_in(charlie).get(url)
    assert answer.status_code == 200
    whole = answer.json()
    assert whole["event"]["name"] == event.name and whole["event"]["rounds"] == 2
    assert [p["id"] for p in whole["players"]] == list(event.players.order_by("pk").values_list("pk", flat=True))
    assert all(p["list"] == LEGAL_40 for p in whole["players"])
    assert [r["number"] for r in whole["rounds"]] == [1, 2]
    assert all(p["decided_by"] == "organiser" for p in whole["rounds"][0]["pairings"])
    reported = next(p for p in whole["rounds"][1]["pairings"] if p["table"] == match.table)
    assert reported["reports"] == [{"player": match.player_a_id, "wins": 2, "losses": 1, "draws": 0}]
    assert whole["standings"] == logged_in(alice).get(f"/api/events/{event.pk}/standings/").json()
    assert logged_in(bob).get(url).status_code == 404
    assert Client().get(url).status_code == 401


# --- tables by hand, match losses and a round taken back ----------------------------------------


def _seated(round_: Round) -> dict[int, Match]:
    return {p: m for m in round_.matches.all() for p in (m.player_a_id, m.player_b_id) if p}


def test_a_match_loss_is_a_loss_never_a_win_and_no_bye(alice, english) -> None:
    event = make_event(alice, players=4)
    round_ = day.pair_next_round(event)
    late = event.players.order_by("pk").first()
    match = tools.match_loss(event, 1, late.pk, alice)
    opponent = match.player_b_id if match.player_a_id == late.pk else match.player_a_id
    # Against an opponent: the opponent wins 2–0, an organiser's result.
    assert match.decided_by == "organiser" and match.done
    rows = {row.player: row for row in day.standings_of(event)}
    assert (rows[late.pk].points, rows[late.pk].losses, rows[opponent].wins) == (0, 1, 1)
    with pytest.raises(day.TournamentError, match="has a result"):
        tools.match_loss(event, 1, late.pk, alice)
    # Alone (a table removed, say): a match loss with no opponent, 0–2, no bye.
    other = round_.matches.exclude(pk=match.pk).get()
    tools.remove_table(event, 1, other.table, alice)
    lone = tools.match_loss(event, 1, other.player_a_id, alice)
    assert (lone.player_b_id, lone.a_wins, lone.b_wins, lone.decided_by, lone.is_loss) == (None, 0, 2, "loss", True)
    rows = {row.player: row for row in day.standings_of(event)}
    assert rows[other.player_a_id].points == 0 and rows[other.player_a_id].mwp == Fraction(1, 3)
    assert rows[other.player_a_id].gwp == Fraction(1, 3) and rows[other.player_a_id].opponents == []
    assert other.player_a_id not in day._history(event).had_bye  # a bye may still come their way
    page = logged_in(alice).get(f"/events/{event.pk}/day/").content.decode()
    assert "<em>match loss</em>" in page  # the table says what it is: no bye
    assert "Not seated in this round" in _text(page)  # other.player_b has no table
    printed = logged_in(alice).get(f"/events/{event.pk}/pairings/").content.decode()
    assert "<em>match loss</em>" in printed


def test_tables_by_hand_seat_each_player_once_and_keep_the_bye_rule(alice, english) -> None:
    event = make_event(alice, players=5)
    play_round(event)
    had_bye = day._history(event).had_bye
    round_ = day.pair_next_round(event)
    seated = _seated(round_)
    (someone,) = had_bye  # five players: one bye in round 1, so a table in round 2
    table_x = seated[someone]
    one = table_x.player_b_id if table_x.player_a_id == someone else table_x.player_a_id
    table_y = next(m for m in round_.matches.all() if m.player_b_id and m.pk != table_x.pk)
    two = table_y.player_a_id
    with pytest.raises(day.TournamentError, match="sits at table"):
        tools.set_table(event, 2, 99, one, two, alice)
    for player in (one, two):
        tools.remove_table(event, 2, _seated(Round.objects.get(pk=round_.pk))[player].table, alice)
    met = day._history(event).met
    try:
        match = tools.set_table(event, 2, 7, one, two, alice)
    except tools.RematchError:
        assert frozenset((one, two)) in met
        match = tools.set_table(event, 2, 7, one, two, alice, rematch=True)
    assert (match.table, match.player_a_id, match.player_b_id, match.done) == (7, one, two, False)
    seats = [p for m in Round.objects.get(pk=round_.pk).matches.all() for p in (m.player_a_id, m.player_b_id) if p]
    assert len(seats) == len(set(seats))  # nobody at two tables
    with pytest.raises(day.TournamentError):
        tools.set_table(event, 2, 7, one, one, alice)
    with pytest.raises(day.TournamentError, match=r"10000|10,000|10 000"):
        tools.set_table(event, 2, 99_999, one, None, alice)
    assert someone not in _seated(Round.objects.get(pk=round_.pk))  # unseated with one's table
    with pytest.raises(day.TournamentError, match="bye already"):
        tools.set_table(event, 2, 50, someone, None, alice)
    with pytest.raises(day.TournamentError, match="newest"):
        tools.set_table(event, 1, 1, one, two, alice)
    day.enter_result(match, 2, 0, 0)
    with pytest.raises(day.TournamentError, match="result"):
        tools.set_table(event, 2, 7, two, one, alice)
    with pytest.raises(day.TournamentError, match="result"):
        tools.remove_table(event, 2, 7, alice)


def test_the_newest_round_is_deleted_only_before_any_result(alice, english) -> None:
    event = make_event(alice, players=4)
    play_round(event)
    day.pair_next_round(event)
    with pytest.raises(day.TournamentError, match="newest"):
        tools.delete_round(event, 1, alice)
    tools.delete_round(event, 2, alice)
    assert list(event.tournament_rounds.values_list("number", flat=True)) == [1]
    again = day.pair_next_round(event)
    assert again.number == 2
    day.enter_result(again.matches.first(), 2, 0, 0)
    with pytest.raises(day.TournamentError, match="result"):
        tools.delete_round(event, 2, alice)


def test_changes_by_hand_are_logged_with_who_made_them(alice, charlie, english) -> None:
    event = make_event(alice, players=4)
    event.judges.add(charlie)
    round_ = day.pair_next_round(event)
    judge = logged_in(charlie)
    table = round_.matches.first()
    answer = judge.post(f"/events/{event.pk}/day/rounds/1/tables/", {"action": "remove", "table": table.table})
    assert answer.status_code == 302
    answer = judge.post(
        f"/events/{event.pk}/day/rounds/1/tables/",
        {"action": "pair", "table": 9, "player_a": table.player_b_id, "player_b": table.player_a_id},
    )
    assert answer.status_code == 302 and round_.matches.filter(table=9).exists()
    asked = judge.post(f"/events/{event.pk}/day/rounds/1/delete/")
    assert asked.status_code == 200 and "Delete round 1?" in asked.content.decode()
    assert judge.post(f"/events/{event.pk}/day/rounds/1/delete/", {"confirm": "yes"}).status_code == 302
    assert not event.tournament_rounds.exists()
    kinds = list(DayChange.objects.filter(event=event).values_list("kind", "by__username"))
    assert kinds == [("delete_round", "charlie"), ("pair", "charlie"), ("remove", "charlie")]
    names = dict(event.players.values_list("pk", "name"))
    page = _text(logged_in(alice).get(f"/events/{event.pk}/day/").content.decode())
    assert "Round 1 deleted · charlie" in page
    assert f"Round 1, table 9: {names[table.player_b_id]}, {names[table.player_a_id]} paired by hand" in page
    bad = judge.post(f"/events/{event.pk}/day/rounds/1/tables/", {"action": "pair", "table": "x"})
    assert bad.status_code == 400


def test_a_rematch_by_hand_is_asked_about_first(alice, english) -> None:
    event = make_event(alice, players=4)
    first = day.pair_next_round(event)
    met = first.matches.first()
    for match in first.matches.all():
        day.enter_result(match, 2, 0, 0)
    round_ = day.pair_next_round(event)
    for match in round_.matches.all():
        tools.remove_table(event, 2, match.table, alice)
    organiser = logged_in(alice)
    data = {"action": "pair", "table": 1, "player_a": met.player_a_id, "player_b": met.player_b_id}
    asked = organiser.post(f"/events/{event.pk}/day/rounds/2/tables/", data)
    assert asked.status_code == 200 and "rematch" in asked.content.decode()
    assert not round_.matches.exists()
    assert organiser.post(f"/events/{event.pk}/day/rounds/2/tables/", data | {"confirm": "yes"}).status_code == 302
    assert round_.matches.get().player_b_id == met.player_b_id


# --- penalties -------------------------------------------------------------------------------------


def test_penalties_apply_to_the_result(alice, english) -> None:
    event = make_event(alice, players=6)
    round_ = day.pair_next_round(event)
    a, b, c = [m for m in round_.matches.all() if m.player_b_id][:3]
    warned = tools.give_penalty(event, a.player_a_id, "warning", "slow play", alice)
    assert warned.match is None and not Match.objects.get(pk=a.pk).done
    # A match loss: the match is lost 0–2 at once.
    tools.give_penalty(event, a.player_a_id, "match_loss", "", alice)
    assert (Match.objects.get(pk=a.pk).a_wins, Match.objects.get(pk=a.pk).b_wins) == (0, 2)
    # A game loss: a result must count it as a game the opponent won.
    penalised = Player.objects.get(pk=b.player_b_id)
    opponent = Player.objects.get(pk=b.player_a_id)
    day.report(b, opponent, 2, 0, 0)  # sent before the penalty: cleared by it
    given = tools.give_penalty(event, penalised.pk, "game_loss", "marked cards", alice)
    assert given.match_id == b.pk and not b.reports.exists()
    with pytest.raises(day.TournamentError, match="game loss"):
        day.report(b, penalised, 2, 0, 0)
    with pytest.raises(day.TournamentError, match="game loss"):
        day.enter_result(b, 0, 2, 0)  # games from player A (the opponent): they won none
    day.report(b, penalised, 2, 1, 0)
    assert day.report(b, opponent, 1, 2, 0).done
    # A disqualification drops the player and loses the match.
    tools.give_penalty(event, c.player_b_id, "disqualification", "", alice)
    assert Player.objects.get(pk=c.player_b_id).dropped
    assert (Match.objects.get(pk=c.pk).a_wins, Match.objects.get(pk=c.pk).b_wins) == (2, 0)
    assert list(Penalty.objects.filter(event=event).values_list("kind", flat=True)) == [
        "disqualification",
        "game_loss",
        "match_loss",
        "warning",
    ]


def test_a_game_loss_moves_with_its_player_when_the_round_is_paired_again(alice, english) -> None:
    event = make_event(alice, players=6)
    round_ = day.pair_next_round(event)
    penalised = Player.objects.get(pk=round_.matches.exclude(player_b=None).first().player_a_id)
    tools.give_penalty(event, penalised.pk, "game_loss", "late", alice)
    again = day.repair_round(event, 1)
    new = again.matches.get(Q(player_a=penalised) | Q(player_b=penalised))
    assert Penalty.objects.get().match_id == new.pk  # not left pointing nowhere
    with pytest.raises(day.TournamentError, match="game loss"):
        day.report(new, penalised, 2, 0, 0)  # the new match's result must still count it
    opponent = new.player_b if new.player_a_id == penalised.pk else new.player_a
    log = logged_in(alice).get(f"/events/{event.pk}/day/").content.decode()
    row = _text(log.split('id="penalties"', 1)[1].split("</table>", 1)[0])
    assert f"Game loss table {new.table}, against {opponent.name}" in row
    # Given between rounds, a game loss says it applied to no match rather than leave it unclear.
    for match in again.matches.all():
        if match.player_b_id and not match.done:
            day.enter_result(match, 2, 1, 0) if match.player_a_id != penalised.pk else day.enter_result(match, 1, 2, 0)
    tools.give_penalty(event, opponent.pk, "game_loss", "", alice)
    log = _text(logged_in(alice).get(f"/events/{event.pk}/day/").content.decode())
    assert "applied to no match (given between rounds or at a bye)" in log


def test_a_game_loss_in_best_of_one_loses_the_match(alice) -> None:
    event = make_event(alice, players=2, best_of=1)
    match = day.pair_next_round(event).matches.get()
    tools.give_penalty(event, match.player_a_id, "game_loss", "", alice)
    assert (Match.objects.get(pk=match.pk).a_wins, Match.objects.get(pk=match.pk).b_wins) == (0, 2)


def test_organisers_see_every_penalty_and_a_player_only_their_own(alice, bob, charlie, english) -> None:
    event = make_event(alice, players=4)
    mine, theirs = event.players.order_by("pk")[:2]
    mine.user = bob
    mine.save()
    day.pair_next_round(event)
    api = logged_in(alice)
    url = f"/api/events/{event.pk}/penalties/"
    given = api.post(url, {"player": mine.pk, "kind": "warning", "note": "遲到"}, content_type="application/json")
    assert given.status_code == 201 and given.json()["by"] == "alice"
    api.post(url, {"player": theirs.pk, "kind": "warning", "note": "秘密"}, content_type="application/json")
    assert len(api.get(url).json()) == 2
    player = logged_in(bob)
    own = player.get(url).json()
    assert [p["player"] for p in own] == [mine.pk]
    assert (
        player.post(url, {"player": theirs.pk, "kind": "warning"}, content_type="application/json").status_code == 404
    )
    page = player.get(f"/e/{event.token}/").content.decode()
    assert "遲到" in page and "秘密" not in page
    assert logged_in(charlie).get(url).status_code == 404
    assert Client().get(url).status_code == 401
    for bad in (
        {"player": mine.pk, "kind": "yellow_card"},
        {"player": mine.pk, "kind": "warning", "note": "x" * 501},
        {"player": 10**30, "kind": "warning"},
        {"player": "1", "kind": "warning", "note": 5},
    ):
        assert api.post(url, bad, content_type="application/json").status_code == 400, bad
    unknown = api.post(url, {"player": 999_999, "kind": "warning"}, content_type="application/json")
    assert unknown.status_code == 400 and "No such player" in unknown.content.decode()
    page = _text(api.get(f"/events/{event.pk}/day/").content.decode())
    assert "Warning" in page and "遲到" in page


def test_tables_and_rounds_through_the_api(alice, bob, english) -> None:
    event = make_event(alice, players=4)
    round_ = day.pair_next_round(event)
    api = logged_in(alice)
    base = f"/api/events/{event.pk}/rounds/1/"
    first = round_.matches.order_by("table").first()
    table_url = f"{base}tables/{first.table}/"
    assert logged_in(bob).delete(table_url).status_code == 404
    assert Client().delete(table_url).status_code == 401
    assert api.delete(table_url).status_code == 204
    for bad in ({}, {"player_a": first.player_a_id}, {"loss": 1, "player_a": 2, "player_b": 3}, {"player_a": "x"}):
        assert api.patch(table_url, bad, content_type="application/json").status_code == 400, bad
    answer = api.patch(table_url, {"player_a": first.player_a_id, "player_b": None}, content_type="application/json")
    assert answer.status_code == 200 and answer.json()["player_b"] is None and answer.json()["a_wins"] == 2
    answer = api.patch(f"{base}tables/5/", {"loss": first.player_b_id}, content_type="application/json")
    assert answer.status_code == 200 and (answer.json()["a_wins"], answer.json()["b_wins"]) == (0, 2)
    assert api.get(base).json()["number"] == 1
    assert api.delete(base).status_code == 400  # a match loss is a result
    whole = api.get(f"/api/events/{event.pk}/export/").json()
    assert [c["kind"] for c in whole["changes"]] == ["loss", "bye", "remove"]
    assert api.get(f"/api/events/{event.pk}/rounds/7/").status_code == 404


# --- who may ------------------------------------------------------------------------------------

# (method, url, data): each tool of the day, by the organiser's hand.
TOOLS = [
    ("post", "/events/{e}/day/rounds/1/clock/", {"action": "add", "minutes": 1}),
    ("post", "/events/{e}/day/rounds/1/tables/", {"action": "loss", "player_a": "{other}"}),
    ("post", "/events/{e}/day/penalties/", {"player": "{other}", "kind": "warning"}),
    ("post", "/events/{e}/day/seating/", {"player": "{other}", "fixed_table": "3"}),
    ("post", "/events/{e}/day/lists/", {"player": "{other}", "text": LEGAL_40}),
    ("post", "/events/{e}/day/rounds/1/delete/", {}),
    ("json", "/api/events/{e}/rounds/1/clock/", {"action": "add", "minutes": 1}),
    ("json", "/api/events/{e}/penalties/", {"player": "{other}", "kind": "warning"}),
    ("get", "/api/events/{e}/export/", None),
    ("get", "/api/events/{e}/rounds/1/", None),
    ("json", "/api/events/{e}/rounds/1/deck-checks/", {"tables": 1}),
    ("post", "/events/{e}/day/rounds/1/deck-checks/", {"tables": "1"}),
]


def test_who_may_use_the_tools_of_the_day(alice, bob, charlie, django_user_model) -> None:
    """Anonymous, a player, another player, a co-organiser, the organiser."""
    event = make_event(alice, players=4)
    judge = django_user_model.objects.create_user("judge", password="judge-password-1")
    event.judges.add(judge)
    mine, other = event.players.order_by("pk")[:2]
    mine.user, other.user = bob, charlie
    mine.save(), other.save()
    round_ = day.pair_next_round(event)
    elsewhere = next(m for m in round_.matches.all() if other.pk not in (m.player_a_id, m.player_b_id))
    # Each organiser gives their match loss at another table (a second one there is refused).
    target = {judge.pk: other.pk, alice.pk: elsewhere.player_a_id}
    places = {"e": event.pk, "other": other.pk}

    def call(client: Client, method: str, url: str, data: dict | None) -> int:
        user = client.session.get("_auth_user_id")
        places["other"] = target.get(int(user), other.pk) if user else other.pk
        url = url.format(**places)
        filled = {k: v.format(**places) if isinstance(v, str) else v for k, v in (data or {}).items()}
        if method == "json":
            filled = {k: int(v) if k == "player" else v for k, v in filled.items()}
            return client.post(url, filled, content_type="application/json").status_code
        return client.get(url).status_code if method == "get" else client.post(url, filled).status_code

    for method, url, data in TOOLS:
        assert call(Client(), method, url, data) in (302, 401), url
        for player in (bob, charlie):  # players of the event are no organisers
            assert call(logged_in(player), method, url, data) == 404, (url, player)
        for organiser in (judge, alice):
            assert call(logged_in(organiser), method, url, data) in (200, 201, 302), (url, organiser)
    # Only the organiser changes the settings, even for a co-organiser.
    patch = logged_in(judge).patch(f"/api/events/{event.pk}/", {"round_minutes": 30}, content_type="application/json")
    assert patch.status_code == 403


# --- late entries ----------------------------------------------------------------------------------


def test_a_late_entry_has_a_match_loss_for_each_round_already_paired(alice, english) -> None:
    event = make_event(alice, players=4)
    early = day.add_player(event, "準時", LEGAL_40)  # before round 1: nothing missed
    assert not Match.objects.filter(player_a=early).exists()
    early.checked_in = False
    early.save()
    play_round(event)
    day.pair_next_round(event)
    organiser = logged_in(alice)
    answer = organiser.post(f"/events/{event.pk}/day/players/add/", {"name": "遲到的", "text": LEGAL_40})
    assert answer.status_code == 302
    late = event.players.get(name="遲到的")
    losses = list(Match.objects.filter(player_a=late).order_by("round__number"))
    assert [(m.round.number, m.player_b_id, m.a_wins, m.b_wins, m.is_loss) for m in losses] == [
        (1, None, 0, 2, True),
        (2, None, 0, 2, True),
    ]
    tables = [list(r.matches.values_list("table", flat=True)) for r in event.tournament_rounds.all()]
    assert all(len(t) == len(set(t)) for t in tables)  # a table of their own each round
    row = next(r for r in day.standings_of(event) if r.player == late.pk)
    assert (row.points, row.losses, row.wins) == (0, 2, 0)
    assert "entered late" in _text(organiser.get(f"/events/{event.pk}/day/").content.decode())
    # Off: a late entry simply starts from 0 points.
    event.late_entry_losses = False
    event.save()
    other = day.add_player(event, "更晚的", LEGAL_40)
    assert not Match.objects.filter(player_a=other).exists()
    answer = organiser.patch(f"/api/events/{event.pk}/", {"late_entry_losses": True}, content_type="application/json")
    assert answer.status_code == 200 and answer.json()["late_entry_losses"] is True


# --- first-round byes and fixed tables --------------------------------------------------------------


def test_first_round_byes_and_fixed_tables(alice, english) -> None:
    event = make_event(alice, players=9)
    invited, needs_table, other = event.players.order_by("pk")[:3]
    organiser = logged_in(alice)
    seat = f"/events/{event.pk}/day/seating/"
    assert organiser.post(seat, {"player": invited.pk, "first_round_bye": "on"}).status_code == 302
    answer = organiser.patch(
        f"/api/events/{event.pk}/players/{needs_table.pk}/", {"fixed_table": 7}, content_type="application/json"
    )
    assert answer.status_code == 200 and answer.json()["fixed_table"] == 7
    for bad in ({"fixed_table": 0}, {"fixed_table": 99_999}, {"first_round_bye": "yes"}):
        url = f"/api/events/{event.pk}/players/{other.pk}/"
        assert organiser.patch(url, bad, content_type="application/json").status_code == 400, bad
    page = _text(organiser.get(f"/events/{event.pk}/day/").content.decode())
    assert "bye in round 1" in page and "always at table 7" in page
    # The invited player has a bye in round 1 and counts among the players (9: four rounds).
    first = day.pair_next_round(event)
    bye = first.matches.get(player_a=invited)
    assert (bye.player_b_id, bye.a_wins, bye.decided_by) == (None, 2, "bye")
    assert Event.objects.get(pk=event.pk).rounds == 4
    # Eight others left: no second bye; the player who needs table 7 sits there.
    assert first.matches.filter(player_b__isnull=True).count() == 1
    assert needs_table.pk in (first.matches.get(table=7).player_a_id, first.matches.get(table=7).player_b_id)
    tables = list(first.matches.values_list("table", flat=True))
    assert sorted(tables) == [1, 2, 3, 4, 7]  # the others fill the tables from 1
    refused = organiser.patch(
        f"/api/events/{event.pk}/players/{other.pk}/", {"first_round_bye": True}, content_type="application/json"
    )
    assert refused.status_code == 400 and "Round 1 is paired" in refused.content.decode()
    for match in first.matches.filter(player_b__isnull=False):
        day.enter_result(match, 2, 1, 0)
    second = day.pair_next_round(event)
    assert needs_table.pk in (second.matches.get(table=7).player_a_id, second.matches.get(table=7).player_b_id)
    assert invited.pk not in set(second.matches.filter(player_b__isnull=True).values_list("player_a", flat=True))


# --- deck checks --------------------------------------------------------------------------------------


def test_a_deck_check_picks_tables_at_random_shows_their_lists_and_flags_the_players(alice, english) -> None:
    event = make_event(alice, players=9)
    round_ = day.pair_next_round(event)
    organiser = logged_in(alice)
    answer = organiser.post(f"/events/{event.pk}/day/rounds/1/deck-checks/", {"tables": "2"})
    assert answer.status_code == 302
    check = DeckCheck.objects.get()
    assert len(check.tables) == 2 and len(check.players) == 4  # tables with two players first
    # Recorded with its seed: the same draw again picks the same tables.
    again = random.Random(check.seed).sample([m for m in round_.matches.order_by("table") if m.player_b_id], 2)
    assert sorted(m.table for m in again) == check.tables
    page = organiser.get(answer["Location"]).content.decode()
    names = dict(event.players.values_list("pk", "name"))
    assert all(names[p] in page for p in check.players) and page.count('<pre class="listing"') == 4
    day_page = _text(organiser.get(f"/events/{event.pk}/day/").content.decode())
    assert day_page.count("deck checked in round 1") == 4
    api = organiser.post(
        f"/api/events/{event.pk}/rounds/1/deck-checks/", {"tables": 50}, content_type="application/json"
    )
    assert api.status_code == 201 and len(api.json()["tables"]) == 5  # every table there is
    assert api.json()["players"][0]["list"] == LEGAL_40
    listed = organiser.get(f"/api/events/{event.pk}/rounds/1/deck-checks/").json()
    assert [c["id"] for c in listed] == [api.json()["id"], check.pk]
    for bad in (0, 51, "x"):
        url = f"/api/events/{event.pk}/rounds/1/deck-checks/"
        assert organiser.post(url, {"tables": bad}, content_type="application/json").status_code == 400
    assert organiser.post(f"/events/{event.pk}/day/rounds/1/deck-checks/", {"tables": "0"}).status_code == 400
    assert organiser.post(f"/events/{event.pk}/day/rounds/3/deck-checks/", {"tables": "1"}).status_code == 400
    assert logged_in(alice).get(f"/events/{event.pk}/day/deck-checks/999/").status_code == 404


def test_a_refusal_leads_back_to_the_day_or_to_the_event(alice, bob, english) -> None:
    event = make_event(alice, players=4)
    mine = event.players.order_by("pk").first()
    mine.user = bob
    mine.save()
    day.clock(day.pair_next_round(event), day.PAUSE)
    # The organiser's refusal is the day's page again, the reason beside the form it came from.
    refused = logged_in(alice).post(f"/events/{event.pk}/day/rounds/1/clock/", {"action": "pause"})
    page = refused.content.decode()
    assert refused.status_code == 400 and "Not done:" in page
    clock_form = page.split(f'action="/events/{event.pk}/day/rounds/1/clock/"', 1)[1].split("</form>", 1)[0]
    assert 'id="refused"' in clock_form
    # The player's refused report is their page again, the reason in the form, the score kept.
    refused = logged_in(bob).post(f"/e/{event.token}/report/", {"wins": "2", "losses": "2", "draws": ""})
    page = refused.content.decode()
    assert refused.status_code == 400
    form = page.split(f'action="/e/{event.token}/report/"', 1)[1].split("</form>", 1)[0]
    assert 'id="refused"' in form and "Not done:" in form
    assert re.search(r'name="wins"[^>]*value="2"', form) and re.search(r'name="losses"[^>]*value="2"', form)
    unreadable = logged_in(bob).post(f"/e/{event.token}/report/", {"wins": "9", "losses": "x"})
    form = unreadable.content.decode().split(f'action="/e/{event.token}/report/"', 1)[1].split("</form>", 1)[0]
    assert (
        unreadable.status_code == 400
        and "could not be read" in form
        and re.search(r'name="losses"[^>]*value="x"', form)
    )
    assert not Match.objects.get(pk=my_match(event, mine).pk).reports.exists()  # nothing stored


def test_the_bracket_says_it_goes_on_sideways(alice, english) -> None:
    event = make_event(alice, players=8, top_cut=8)
    for _ in range(3):
        play_round(event)
    for _ in range(2):
        for match in day.pair_top_cut(event).matches.all():
            day.enter_result(match, 2, 0, 0)
    page = Client().get(f"/t/{event.public_token}/").content.decode()
    assert "swipe sideways" in page
    assert [h for h in re.findall(r"<h3>([^<]+)</h3>", page) if h in ("Quarter-finals", "Semi-finals")] == [
        "Quarter-finals",
        "Semi-finals",
    ]


def test_the_bracket_shows_each_players_seed_and_a_drop_does_not_change_them(alice, english) -> None:
    event = make_event(alice, players=6, top_cut=4)
    for _ in range(3):
        play_round(event)
    ranked = [row.player for row in day.standings_of(event)]
    Player.objects.filter(pk=ranked[1]).update(dropped=True)  # the second leaves before the cut
    quarters = day.pair_top_cut(event)
    names = dict(event.players.values_list("pk", "name"))
    seeded = [ranked[0], *ranked[2:5]]  # seeds 1-4: the cut's own order
    page = Client().get(f"/t/{event.public_token}/").content.decode()
    bracket = page.split('class="bracket"', 1)[1]
    shown = re.findall(r'title="Seed (\d)">(\d)</span>\s*(?:<span lang="zh">)?([^<\s]+)', bracket)
    assert sorted((int(n), name) for n, _same, name in shown) == [(i, names[p]) for i, p in enumerate(seeded, 1)]
    pairs = {frozenset((m.player_a_id, m.player_b_id)) for m in quarters.matches.all()}
    assert pairs == {frozenset((seeded[0], seeded[3])), frozenset((seeded[1], seeded[2]))}  # 1 v 4, 2 v 3
    # A seed dropping during the cut (after losing) leaves every seed as it was.
    Player.objects.filter(pk=seeded[3]).update(dropped=True)
    again = Client().get(f"/t/{event.public_token}/").content.decode().split('class="bracket"', 1)[1]
    assert re.findall(r'title="Seed (\d)"', again) == re.findall(r'title="Seed (\d)"', bracket)


def test_the_printout_lists_names_in_pinyin_order_for_any_round(alice, english) -> None:
    event = make_event(alice, players=0)
    for name in ("王小明", "Alice", "陳大文", "Chou", "阿明", "林美玲"):
        day.add_player(event, name, LEGAL_40)
    play_round(event)
    day.pair_next_round(event)
    organiser = logged_in(alice)
    page = organiser.get(f"/events/{event.pk}/pairings/").content.decode()
    by_name = page.split("By name", 1)[1].split("</table>", 1)[0]
    order = [n for n in re.findall(r"<td>(?:<span lang=\"zh\">)?([^<]+?)(?:</span>)?</td>", by_name)]
    names = [n for n in order if n in ("王小明", "Alice", "陳大文", "Chou", "阿明", "林美玲")]
    assert names[:6] == ["阿明", "Alice", "陳大文", "Chou", "林美玲", "王小明"]
    first = organiser.get(f"/events/{event.pk}/pairings/?round=1").content.decode()
    assert "Round 1" in first and "Round 2" not in _text(first.split("<main", 1)[1]).split("By name")[0]


def test_the_organiser_fixes_a_paired_players_list_and_it_is_recorded(alice, bob, english) -> None:
    from events import services

    event = make_event(alice, players=3)
    services.submit(event, bob, "阿明", LEGAL_40)
    mine = event.players.get(user=bob)
    mine.checked_in = True
    mine.save()
    day.pair_next_round(event)
    # The player can no longer change it …
    with pytest.raises(services.EventClosed):
        services.submit(event, bob, "阿明", "1 YXJQ-003\n")
    # … the organiser can: the list, its verdict and general follow, and the log says who.
    organiser = logged_in(alice)
    answer = organiser.post(f"/events/{event.pk}/day/lists/", {"player": mine.pk, "text": "1 YXJQ-003\n"})
    assert answer.status_code == 302
    mine.refresh_from_db()
    assert mine.submission.text == "1 YXJQ-003\n" and not mine.legal
    assert DayChange.objects.get(kind="list_fixed").by == alice
    assert "The list of 阿明 fixed by the organiser" in _text(
        organiser.get(f"/events/{event.pk}/day/").content.decode()
    )
    answer = organiser.patch(
        f"/api/events/{event.pk}/players/{mine.pk}/", {"list": LEGAL_40}, content_type="application/json"
    )
    assert answer.status_code == 200 and answer.json()["legal"] is True
    for bad in ({"list": ""}, {"list": 5}, {"list": "\x00"}):
        url = f"/api/events/{event.pk}/players/{mine.pk}/"
        assert organiser.patch(url, bad, content_type="application/json").status_code == 400, bad
    assert event.players.get(pk=mine.pk).submission.text == LEGAL_40  # nothing half-changed
    assert logged_in(bob).post(f"/events/{event.pk}/day/lists/", {"player": mine.pk, "text": "x"}).status_code == 404


# --- held pairings -------------------------------------------------------------------------------------


def test_held_pairings_are_a_draft_until_published(alice, bob, english) -> None:
    event = make_event(alice, players=5, hold_pairings=True)
    mine = event.players.order_by("pk").first()
    mine.user = bob
    mine.save()
    organiser = logged_in(alice)
    assert organiser.post(f"/events/{event.pk}/day/pair/").status_code == 302
    draft = event.tournament_rounds.get()
    assert draft.published_at is None
    assert my_match(event, mine) is None
    # Only the organisers see it: the day page and the printout say it is a draft …
    page = _text(organiser.get(f"/events/{event.pk}/day/").content.decode())
    assert "draft, not published" in page and "Publish round 1" in page
    assert "draft, not published" in _text(organiser.get(f"/events/{event.pk}/pairings/").content.decode())
    # … the player, the venue's page and its clock do not, and no report is taken.
    player_page = _text(logged_in(bob).get(f"/e/{event.token}/").content.decode())
    assert "Round 1 · table" not in player_page
    public = _text(Client().get(f"/t/{event.public_token}/").content.decode())
    assert "The first round is not paired yet." in public
    assert "not paired yet" in Client().get(f"/t/{event.public_token}/clock/").content.decode()
    seat = draft.matches.filter(player_b__isnull=False).first()
    with pytest.raises(day.TournamentError, match="not published"):
        day.report(seat, Player.objects.get(pk=seat.player_a_id), 2, 0, 0)
    # Changed by hand while a draft, then published: the clock starts then.
    day.clock(draft, day.PAUSE)
    answer = organiser.post(f"/api/events/{event.pk}/rounds/1/publish/", content_type="application/json")
    assert answer.status_code == 200 and answer.json()["published"] is True and answer.json()["paused"] is False
    published = event.tournament_rounds.get()
    assert published.published_at is not None and published.started == published.published_at
    assert 49 * 60 < published.seconds_left() <= 50 * 60
    again = organiser.post(f"/api/events/{event.pk}/rounds/1/publish/", content_type="application/json")
    assert again.status_code == 400 and "published already" in again.content.decode()
    assert "Round 1 · table" in _text(logged_in(bob).get(f"/e/{event.token}/").content.decode())
    assert "The first round is not paired yet." not in _text(Client().get(f"/t/{event.public_token}/").content.decode())
    assert DayChange.objects.filter(kind="publish", by=alice).exists()


def test_without_holding_a_round_is_published_as_it_is_paired(alice) -> None:
    event = make_event(alice, players=4)
    assert day.pair_next_round(event).published_at is not None
    event.hold_pairings = True
    event.save()
    for match in event.tournament_rounds.get().matches.all():
        day.enter_result(match, 2, 0, 0)
    held = day.pair_next_round(event)
    assert held.published_at is None
    # A draft's bye counts for nobody until the round is published.
    table = {row.player: row.points for row in day.standings_of(event)}
    assert sum(table.values()) == 2 * 3


# --- the top cut's options -------------------------------------------------------------------------------


def _cut(event) -> list[list[frozenset[int]]]:
    return [
        [frozenset((m.player_a_id, m.player_b_id)) for m in r.matches.order_by("table")]
        for r in event.tournament_rounds.filter(kind="top").order_by("number")
    ]


def test_the_top_cut_re_seeded_puts_the_best_seed_against_the_lowest(alice) -> None:
    for reseed in (False, True):
        event = make_event(alice, players=8, top_cut=8, top_cut_reseed=reseed)
        for _ in range(3):
            play_round(event)
        seeds = [row.player for row in day.standings_of(event)]
        quarters = day.pair_top_cut(event)
        # Upsets: seeds 8 and 7 beat 1 and 2; 4 and 3 win.
        winners = {seeds[7], seeds[6], seeds[3], seeds[2]}
        for m in quarters.matches.all():
            a_won = m.player_a_id in winners
            day.enter_result(m, 2 if a_won else 0, 0 if a_won else 2, 0)
        day.pair_top_cut(event)
        semis = set(_cut(event)[1])
        if reseed:  # 3 v 8, 4 v 7
            assert semis == {frozenset((seeds[2], seeds[7])), frozenset((seeds[3], seeds[6]))}
        else:  # the fixed bracket: (1 v 8 | 4 v 5) and (2 v 7 | 3 v 6)
            assert semis == {frozenset((seeds[7], seeds[3])), frozenset((seeds[6], seeds[2]))}


def test_a_player_dropped_by_the_organiser_leaves_the_cut_and_it_is_recorded(alice, english) -> None:
    event = make_event(alice, players=6, top_cut=4)
    for _ in range(3):
        play_round(event)
    seeds = [row.player for row in day.standings_of(event)]
    cannot_stay = Player.objects.get(pk=seeds[0])
    organiser = logged_in(alice)
    url = f"/events/{event.pk}/day/players/{cannot_stay.pk}/"
    assert organiser.post(url, {"action": "drop", "confirm": "yes"}).status_code == 302
    day.pair_top_cut(event)
    cut = {p for pair in _cut(event)[0] for p in pair}
    assert cut == set(seeds[1:5])  # the fifth takes the place
    assert DayChange.objects.get(kind="drop").by == alice
    assert f"{cannot_stay.name} dropped by the organiser" in _text(
        organiser.get(f"/events/{event.pk}/day/").content.decode()
    )


# --- a championship's pages, a part at a time ---------------------------------------------------------


def test_a_championship_day_shows_its_lists_a_page_at_a_time(alice, english) -> None:
    event = make_event(alice, players=0)
    Player.objects.bulk_create(
        [Player(event=event, name=f"選手{i:03d}", legal=True, checked_in=True) for i in range(301)]
    )
    round_ = day.pair_next_round(event)
    organiser = logged_in(alice)
    url = f"/events/{event.pk}/day/"
    page = organiser.get(url).content.decode()
    players_table = page.split("<tbody>", 1)[1].split("</tbody>", 1)[0]
    assert players_table.count("<tr") == 100 and "page 1 of 4" in page
    # Every list keeps its own page; the others stay where they were.
    later = organiser.get(f"{url}?players=4&tables=2&standings=3").content.decode()
    assert later.split("<tbody>", 1)[1].split("</tbody>", 1)[0].count("<tr") == 1
    assert "page 4 of 4" in later and "page 2 of 2" in later and "page 3 of 4" in later
    assert 'href="?players=4&amp;tables=2&amp;standings=2"' in later
    tables = re.findall(
        r'<td class="num">(\d+)</td>', later.split('class="cards pairings"', 1)[1].split("</table>", 1)[0]
    )
    assert tables[0] == "101" and len(tables) == round_.matches.count() - 100
    assert organiser.get(f"{url}?players=x&tables=-1&standings=99").status_code == 200  # read as a page there is
    # 301 players: one list of suggestions for every player box, not a select of 301 each time.
    assert page.count('list="event-players"') >= 4 and page.count('<datalist id="event-players">') == 1
    assert '<select name="player_a">' not in page
    printed = organiser.get(f"/events/{event.pk}/pairings/?names=2").content.decode()
    assert "page 2 of 2" in printed


def test_a_championship_page_reads_one_part_of_the_round_and_suggests_names_as_they_are(alice, english) -> None:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    event = make_event(alice, players=0)
    Player.objects.bulk_create(
        [Player(event=event, name=f"選手{i:03d}", legal=True, checked_in=True) for i in range(301)]
    )
    day.pair_next_round(event)
    organiser = logged_in(alice)
    url = f"/events/{event.pk}/day/"
    with CaptureQueriesContext(connection) as ctx:
        page = organiser.get(url).content.decode()
    # Whole matches are read a page at a time (the counts come from the database).
    rows = [q["sql"] for q in ctx.captured_queries if q["sql"].startswith('SELECT "events_match"."id"')]
    assert rows and all("LIMIT 100" in sql for sql in rows), rows
    assert "Round 1" in page and "選手000" in page.split('<datalist id="event-players">', 1)[1]
    # The suggestions are drawn once and kept, until a name changes.
    renamed = event.players.get(name="選手000")
    renamed.name = "改名的選手"
    renamed.save(update_fields=["name"])
    suggestions = organiser.get(url).content.decode().split('<datalist id="event-players">', 1)[1]
    assert "改名的選手" in suggestions and "選手000" not in suggestions
