"""The tournament day through the events app: players, check-in, rounds, results, standings,
the top cut, and the API. The pairing rules themselves are tested in test_tournament.py."""

from __future__ import annotations

import json
from datetime import timedelta
from typing import Any

import pytest
from django.test import Client
from django.utils import timezone

from events import day, presenters, services
from events.models import Event, Match, Player, Submission
from tests.conftest import logged_in
from tests.support.decklists import LEGAL_40

pytestmark = pytest.mark.django_db


def make_event(organiser: Any, players: int = 8, **settings: Any) -> Event:
    event = Event.objects.create(
        organiser=organiser, name="週末賽", deadline=timezone.now() + timedelta(days=1), **settings
    )
    for n in range(players):
        Submission.objects.create(event=event, player_name=f"選手{n + 1}", text=LEGAL_40)
    day.players_from_lists(event)
    event.players.update(checked_in=True)
    return event


def play_round(event: Event, winner_is_a: bool = True) -> None:
    round_ = day.pair_next_round(event)
    for match in round_.matches.filter(player_b__isnull=False):
        day.enter_result(match, 2 if winner_is_a else 0, 0 if winner_is_a else 2, 0)


def test_players_come_from_the_lists_with_their_verdict(alice) -> None:
    event = make_event(alice, players=3)
    Submission.objects.create(event=event, player_name="壞牌", text="1 YXJQ-003\n")
    assert day.players_from_lists(event) == 1
    assert day.players_from_lists(event) == 0  # once each
    assert list(event.players.order_by("pk").values_list("legal", flat=True)) == [True, True, True, False]


def test_only_checked_in_legal_active_players_are_paired(alice) -> None:
    event = make_event(alice, players=6)
    p1, p2 = list(event.players.order_by("pk"))[:2]
    day.set_checked_in(p1, False)
    day.set_dropped(p2, True)
    late = day.add_player(event, "遲到的", LEGAL_40)
    round_ = day.pair_next_round(event)
    paired = {p for m in round_.matches.all() for p in (m.player_a_id, m.player_b_id) if p}
    assert p1.pk not in paired and p2.pk not in paired and late.pk in paired
    assert len(paired) == 5 and round_.matches.filter(player_b__isnull=True).count() == 1
    bye = round_.matches.get(player_b__isnull=True)
    assert (bye.a_wins, bye.b_wins, bye.decided_by) == (2, 0, "bye")


def test_rounds_follow_one_another_and_stop_at_the_swiss_count(alice) -> None:
    event = make_event(alice, players=8)  # ⌈log2 8⌉ = 3 rounds
    assert event.swiss_rounds(8) == 3
    day.pair_next_round(event)
    with pytest.raises(day.TournamentError):
        day.pair_next_round(event)  # results missing
    for match in Match.objects.filter(round__event=event):
        day.enter_result(match, 2, 1, 0)
    play_round(event)
    play_round(event)
    with pytest.raises(day.TournamentError):
        day.pair_next_round(event)
    met = [frozenset((m.player_a_id, m.player_b_id)) for m in Match.objects.filter(round__event=event)]
    assert len(met) == len(set(met)) == 12  # no rematch


def test_players_report_agreement_stands_and_disagreement_is_flagged(alice) -> None:
    event = make_event(alice, players=4)
    round_ = day.pair_next_round(event)
    first, second = list(round_.matches.order_by("table"))
    a, b = Player.objects.get(pk=first.player_a_id), Player.objects.get(pk=first.player_b_id)
    day.report(first, a, 2, 1, 0)
    assert not Match.objects.get(pk=first.pk).done
    agreed = day.report(first, b, 1, 2, 0)
    assert (agreed.a_wins, agreed.b_wins, agreed.decided_by) == (2, 1, "agreed")
    c, d = Player.objects.get(pk=second.player_a_id), Player.objects.get(pk=second.player_b_id)
    day.report(second, c, 2, 0, 0)
    flagged = day.report(second, d, 2, 0, 0)  # both say they won
    assert flagged.disputed and not flagged.done
    settled = day.enter_result(second, 0, 2, 0, side=c)  # the organiser, from c's side
    assert (settled.a_wins, settled.b_wins, settled.decided_by, settled.disputed) == (0, 2, "organiser", False)
    with pytest.raises(day.TournamentError):
        day.report(second, c, 2, 0, 0)  # the organiser's result stands
    with pytest.raises(day.TournamentError):
        day.report(first, c, 2, 0, 0)  # not c's table


@pytest.mark.parametrize(
    "best_of, games, ok",
    [
        (1, (1, 0, 0), True),
        (1, (0, 0, 1), True),
        (1, (2, 0, 0), False),
        (3, (2, 1, 0), True),
        (3, (1, 1, 1), True),
        (3, (2, 2, 0), False),
        (3, (3, 0, 0), False),
        (3, (0, 0, 0), False),
        (3, (-1, 2, 0), False),
    ],
)
def test_games_as_the_format_allows(alice, best_of: int, games: tuple[int, int, int], ok: bool) -> None:
    event = make_event(alice, players=2, best_of=best_of)
    match = day.pair_next_round(event).matches.get()
    if ok:
        day.enter_result(match, *games)
    else:
        with pytest.raises(day.TournamentError):
            day.enter_result(match, *games)
        assert not Match.objects.get(pk=match.pk).done


def test_a_round_can_be_paired_again_until_a_result_is_in(alice) -> None:
    event = make_event(alice, players=4)
    first = day.pair_next_round(event)
    again = day.repair_round(event, first.number)
    assert (again.number == 1 and again.seed != first.seed) or again.pk != first.pk
    day.enter_result(again.matches.first(), 2, 0, 0)
    with pytest.raises(day.TournamentError):
        day.repair_round(event, 1)


def test_standings_and_a_top_4(alice) -> None:
    event = make_event(alice, players=8, top_cut=4)
    for _ in range(3):
        play_round(event)
    table = day.standings_of(event)
    assert table[0].points == 9 and [row.rank for row in table] == list(range(1, 9))
    semis = day.pair_top_cut(event)
    seeds = [row.player for row in table[:4]]
    assert [(m.player_a_id, m.player_b_id) for m in semis.matches.order_by("table")] == [
        (seeds[0], seeds[3]),
        (seeds[1], seeds[2]),
    ]
    for match in semis.matches.all():
        day.enter_result(match, 2, 0, 0)
    final = day.pair_top_cut(event)
    assert [(m.player_a_id, m.player_b_id) for m in final.matches.all()] == [(seeds[0], seeds[1])]
    day.enter_result(final.matches.get(), 1, 2, 0)
    with pytest.raises(day.TournamentError):
        day.pair_top_cut(event)
    # the top cut's rounds are named for what they are, not "round 5" and "round 6"
    assert (semis.title(), final.title(), event.tournament_rounds.first().title()) == ("準決賽", "決賽", "第 1 輪")
    page = logged_in(alice).get(f"/events/{event.pk}/day/?round={final.number}").content.decode()
    assert "<h3>決賽" in page and "淘汰賽第" not in page


# --- API ---------------------------------------------------------------------------------------


def post(client: Client, url: str, body: dict[str, Any]):
    return client.post(url, json.dumps(body), content_type="application/json")


def test_an_event_run_through_the_api(alice, bob) -> None:
    organiser = logged_in(alice)
    created = post(
        organiser,
        "/api/events/",
        {"name": "API 賽", "format": "standard", "deadline": "2099-01-01T10:00:00Z", "best_of": 1},
    )
    assert created.status_code == 201, created.content
    event_id = created.json()["id"]
    ids = []
    for n in range(4):
        got = post(organiser, f"/api/events/{event_id}/players/", {"name": f"p{n}", "list": LEGAL_40})
        assert got.status_code == 201, got.content
        assert got.json()["legal"] is True and got.json()["checked_in"] is False
        ids.append(got.json()["id"])
    for pid in ids:
        assert (
            organiser.patch(
                f"/api/events/{event_id}/players/{pid}/",
                json.dumps({"checked_in": True}),
                content_type="application/json",
            ).status_code
            == 200
        )
    paired = post(organiser, f"/api/events/{event_id}/rounds/", {})
    assert paired.status_code == 201, paired.content
    pairings = paired.json()["pairings"]
    assert paired.json()["number"] == 1 and len(pairings) == 2
    for pairing in pairings:
        got = post(
            organiser,
            f"/api/events/{event_id}/rounds/1/results/",
            {"table": pairing["table"], "wins": 1, "losses": 0, "draws": 0},
        )
        assert got.status_code == 200, got.content
    bad = post(organiser, f"/api/events/{event_id}/rounds/1/results/", {"table": 1, "wins": 2, "losses": 0, "draws": 0})
    assert bad.status_code == 400  # best of 1
    table = organiser.get(f"/api/events/{event_id}/standings/").json()
    assert [row["rank"] for row in table] == [1, 2, 3, 4] and table[0]["points"] == 3
    assert all(0 <= row["omw"] <= 1 and 0 <= row["gw"] <= 1 and 0 <= row["ogw"] <= 1 for row in table)
    # Another user sees none of it.
    other = logged_in(bob)
    assert other.get(f"/api/events/{event_id}/").status_code == 404
    assert post(other, f"/api/events/{event_id}/rounds/", {}).status_code == 404
    assert Client().get(f"/api/events/{event_id}/standings/").status_code == 401


def test_a_player_reports_only_their_own_match_through_the_api(alice, bob, charlie) -> None:
    event = make_event(alice, players=2)
    me = Player.objects.filter(event=event).order_by("pk").first()
    assert me is not None
    me.user = bob
    me.save()
    match = day.pair_next_round(event).matches.get()
    url = f"/api/events/{event.pk}/rounds/1/results/"
    assert (
        post(
            logged_in(bob), url, {"table": match.table, "player": me.pk, "wins": 2, "losses": 0, "draws": 0}
        ).status_code
        == 200
    )
    other = Player.objects.filter(event=event).exclude(pk=me.pk).get()
    assert (
        post(
            logged_in(bob), url, {"table": match.table, "player": other.pk, "wins": 2, "losses": 0, "draws": 0}
        ).status_code
        == 403
    )
    assert (
        post(
            logged_in(charlie), url, {"table": match.table, "player": other.pk, "wins": 2, "losses": 0, "draws": 0}
        ).status_code
        == 404
    )


# --- pages -------------------------------------------------------------------------------------


def test_an_event_day_run_through_the_pages(alice, bob, charlie) -> None:
    event = make_event(alice, players=3)
    # bob sends a list through the link, checks in himself while check-in is open.
    mine = services.submit(event, bob, "Bob", LEGAL_40)
    organiser, player = logged_in(alice), logged_in(bob)
    assert (
        organiser.post(
            f"/events/{event.pk}/day/settings/",
            {
                "best_of": 3,
                "win_points": 3,
                "draw_points": 1,
                "loss_points": 0,
                "round_minutes": 50,
                "top_cut": 0,
                "lists_public": "after",
                "checkin_open": "on",
            },
        ).status_code
        == 302
    )
    page = player.get(f"/e/{event.token}/").content.decode()
    assert f"/e/{event.token}/check-in/" in page
    assert player.post(f"/e/{event.token}/check-in/").status_code == 302
    assert Player.objects.get(submission=mine).checked_in
    # A co-organiser pairs and enters results; another user sees nothing.
    organiser.post(f"/events/{event.pk}/day/judges/", {"username": "charlie"})
    judge = logged_in(charlie)
    assert judge.post(f"/events/{event.pk}/day/pair/").status_code == 302
    assert judge.post(f"/events/{event.pk}/day/settings/", {"best_of": 1}).status_code == 404
    event.refresh_from_db()
    assert not event.checkin_open  # pairing round 1 ends check-in
    page = player.get(f"/e/{event.token}/").content.decode()
    assert f"/e/{event.token}/report/" in page
    assert player.post(f"/e/{event.token}/report/", {"wins": 2, "losses": 0, "draws": 0}).status_code == 302
    me = Player.objects.get(submission=mine)
    match = Match.objects.filter(round__event=event).filter(player_a=me).first() or Match.objects.get(
        round__event=event, player_b=me
    )
    other = match.player_b_id if match.player_a_id == me.pk else match.player_a_id
    for m in Match.objects.filter(round__event=event, a_wins__isnull=True):
        if m.pk != match.pk:
            judge.post(f"/events/{event.pk}/day/results/{m.pk}/", {"wins": 2, "losses": 1, "draws": 0})
    # The opponent (a list without a user) has its result entered by the organiser instead.
    assert (
        other
        and judge.post(f"/events/{event.pk}/day/results/{match.pk}/", {"wins": 5, "losses": 0, "draws": 0}).status_code
        == 400
    )
    day_page = judge.get(f"/events/{event.pk}/day/").content.decode()
    assert "Bob" in day_page and "OMW" in day_page
    public = Client().get(f"/t/{event.public_token}/")
    assert public.status_code == 200 and "Bob" in public.content.decode()
    printed = organiser.get(f"/events/{event.pk}/pairings/").content.decode()
    assert "<svg" in printed and 'class="qr"' in printed and "slip" in printed
    csv = organiser.get(f"/events/{event.pk}/standings.csv").content.decode("utf-8-sig")
    assert csv.splitlines()[0] == "rank,player,points,omw,gw,ogw" and len(csv.splitlines()) == 5
    outsider = logged_in(charlie)
    Event.objects.get(pk=event.pk).judges.clear()
    assert outsider.get(f"/events/{event.pk}/day/").status_code == 404
    assert Client().get("/t/not-a-token/").status_code == 404


def test_a_player_cannot_check_in_once_closed_and_drops_keep_the_record(alice, bob) -> None:
    event = make_event(alice, players=1)
    services.submit(event, bob, "Bob", LEGAL_40)
    player = logged_in(bob)
    assert player.post(f"/e/{event.token}/check-in/").status_code == 400  # check-in not open
    # dropping asks first: one tap where "Report" sat must not end the event for someone
    asked = player.post(f"/e/{event.token}/drop/")
    assert asked.status_code == 200 and 'name="confirm"' in asked.content.decode()
    assert not Player.objects.get(user=bob).dropped
    assert player.post(f"/e/{event.token}/drop/", {"confirm": "yes"}).status_code == 302
    assert Player.objects.get(user=bob).dropped
    assert logged_in(alice).post(f"/e/{event.token}/drop/", {"confirm": "yes"}).status_code == 404  # no list


def test_swapping_two_players_warns_of_a_rematch_and_never_seats_one_twice(alice) -> None:
    event = make_event(alice, players=5)
    play_round(event)
    round2 = day.pair_next_round(event)
    tables = list(round2.matches.order_by("table"))
    a, b = tables[0].player_a_id, tables[0].player_b_id
    c = tables[1].player_a_id
    organiser = logged_in(alice)
    # Swapping a with c: fine or a rematch; when a rematch, the page asks first.
    rematches = presenters.swap_rematches(event, a, c)
    answer = organiser.post(f"/events/{event.pk}/day/swap/", {"first": a, "second": c})
    if rematches:
        assert answer.status_code == 200 and "confirm" in answer.content.decode()
        answer = organiser.post(f"/events/{event.pk}/day/swap/", {"first": a, "second": c, "confirm": "yes"})
    assert answer.status_code == 302
    seated = [p for m in round2.matches.all() for p in (m.player_a_id, m.player_b_id) if p]
    assert sorted(seated) == sorted(set(seated)) and len(seated) == 5
    assert Match.objects.get(pk=tables[0].pk).player_a_id == c
    # Two players of one table, or a player against themself: refused.
    assert organiser.post(f"/events/{event.pk}/day/swap/", {"first": c, "second": b}).status_code == 400
    assert organiser.post(f"/events/{event.pk}/day/swap/", {"first": c, "second": c}).status_code == 400
    # The bye moves with its seat and keeps its 2–0; never to a player who had one already.
    bye = round2.matches.get(player_b__isnull=True)
    first_bye = Match.objects.get(round__number=1, player_b__isnull=True).player_a_id
    with pytest.raises(day.TournamentError, match="輪空"):
        day.swap(event, bye.player_a_id, first_bye)
    seated = [m for m in round2.matches.exclude(pk=bye.pk) if first_bye not in (m.player_a_id, m.player_b_id)]
    day.swap(event, bye.player_a_id, seated[0].player_a_id)
    assert (Match.objects.get(pk=bye.pk).a_wins, Match.objects.get(pk=bye.pk).decided_by) == (2, "bye")
    assert Match.objects.get(pk=bye.pk).player_a_id == seated[0].player_a_id
    day.enter_result(Match.objects.get(pk=seated[0].pk), 2, 0, 0)
    with pytest.raises(day.TournamentError):
        day.swap(event, a, b)


@pytest.mark.parametrize("setting, shown_at_cut, shown_after", [("never", 0, 0), ("top_cut", 4, 4), ("after", 0, 8)])
def test_the_public_page_shows_lists_as_the_setting_says(
    alice, setting: str, shown_at_cut: int, shown_after: int
) -> None:
    event = make_event(alice, players=8, top_cut=4, lists_public=setting)
    for _ in range(3):
        play_round(event)
    public = Client()
    page = public.get(f"/t/{event.public_token}/").content.decode()
    assert page.count('<pre class="listing"') == 0
    semis = day.pair_top_cut(event)
    page = public.get(f"/t/{event.public_token}/").content.decode()
    assert page.count('<pre class="listing"') == shown_at_cut
    for m in semis.matches.all():
        day.enter_result(m, 2, 0, 0)
    final = day.pair_top_cut(event)
    day.enter_result(final.matches.get(), 0, 2, 0)
    assert presenters.stage(event) == presenters.FINISHED
    page = public.get(f"/t/{event.public_token}/").content.decode()
    assert page.count('<pre class="listing"') == shown_after
    # Final placings: the final's winner first, then the finalist, then the semi-finalists.
    order = presenters.placings(event)
    fm = final.matches.get()
    assert order[:2] == [fm.player_b_id, fm.player_a_id]
    assert set(order[2:4]) == {p for m in semis.matches.all() for p in (m.player_a_id, m.player_b_id)} - set(order[:2])
    assert page.count("劉備") >= 8 and page.count(">蜀<") >= 8  # each player's general and faction


def test_the_meta_across_public_events(alice, client: Client) -> None:
    from events.meta import meta, public_events

    shown = make_event(alice, players=8, top_cut=4, lists_public="after")
    hidden = make_event(alice, players=4, lists_public="never")
    for event in (shown, hidden):
        play_round(event)
    # Every list plays 劉備 (LEGAL_40): one general and one faction hold every list.
    result = meta(public_events())
    assert result["events"] == 1 and result["lists"] == 8
    [general] = result["generals"]
    assert (general.key, general.lists, general.share, general.matches, general.wins) == ("WJ-001", 8, 1.0, 8, 4)
    assert general.win_rate == 0.5 and general.conversion == 0.0  # no top cut played yet
    play_round(shown)
    play_round(shown)
    day.pair_top_cut(shown)
    [general] = meta(public_events())["generals"]
    assert general.conversion == 0.5 and general.matches == 24  # 4 of 8 reached the top 4
    page = client.get("/events/meta/?format=standard")
    html = page.content.decode()
    assert page.status_code == 200 and html.count('class="share-bars"') == 4 and "劉備" in html
    assert ">50%<" in html  # the faction's match-win rate, drawn
    assert client.get("/events/meta/?since=not-a-date").status_code == 400
    assert meta(public_events("classic"))["lists"] == 0


def test_a_list_sent_again_updates_its_player(alice, bob) -> None:
    from events import services

    event = make_event(alice, players=1)
    services.submit(event, bob, "Bob", "1 YXJQ-003\n")
    day.players_from_lists(event)
    player = Player.objects.get(user=bob)
    assert not player.legal and player.general == ""
    services.submit(event, bob, "Bobby", LEGAL_40)
    player.refresh_from_db()
    assert (player.name, player.legal, player.general) == ("Bobby", True, "WJ-001")
