"""The organiser's tools of the tournament day: the one next step the page offers, what each
player reported when reports disagree, the round clock and its screen, match losses and a round
taken back, penalties, and the event's JSON export."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone

from events import day
from events.models import Match, Player, Round
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
    assert _buttons(organiser.get(url).content.decode()) == ["Pair round 1"]
    play_round(event)
    assert _buttons(organiser.get(url).content.decode()) == ["Pair round 2"]
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
