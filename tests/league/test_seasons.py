"""A group's league by season: games and the group's events' matches belong to the season of
their date; the group page shows the current season, earlier ones browsable, and all time."""

from __future__ import annotations

import json
from datetime import date, timedelta

import pytest
from django.core.exceptions import ValidationError
from django.test import Client
from django.utils import timezone

from events import day
from events import services as event_services
from events.models import Event
from league import services
from league.models import Game, Season
from league.queries import league
from tests.conftest import logged_in
from tests.support.decklists import LEGAL_40
from tests.support.event_helpers import starting
from tests.support.group_helpers import make_group

pytestmark = pytest.mark.django_db


def _game(group, a, b, winner, on: date) -> Game:
    game = services.log_game(group, a, (services.Side(a.username), services.Side(b.username)), winner, on)
    services.confirm(game, b)
    return game


def _table(group, reader, season=None) -> dict[str, tuple[int, int]]:
    names = dict(group.memberships.values_list("user_id", "user__username"))
    return {r.label: (r.games, r.wins) for r in league(group, names, reader, season).players}


def test_games_and_event_matches_count_in_the_season_of_their_date(alice, bob) -> None:
    group = make_group(alice, bob)
    today = timezone.localdate()
    spring = services.add_season(group, alice, "春季", today - timedelta(days=60), today - timedelta(days=31))
    now = services.add_season(group, alice, "夏季", today - timedelta(days=30), today + timedelta(days=30))
    _game(group, alice, bob, "alice", today - timedelta(days=40))
    _game(group, alice, bob, "bob", today - timedelta(days=2))
    _game(group, bob, alice, "bob", today - timedelta(days=100))  # in no season
    event = Event.objects.create(
        organiser=alice,
        name="月賽",
        group=group,
        deadline=timezone.now() + timedelta(days=1),
        starts_at=starting(today),
    )
    for user in (alice, bob):
        event_services.submit(event, user, user.username, LEGAL_40)
    day.players_from_lists(event)
    event.players.update(checked_in=True, legal=True)
    match = day.pair_next_round(event).matches.get()
    day.enter_result(match, 2, 0, 0)
    winner = match.player_a.user.username
    assert _table(group, alice, spring) == {"alice": (1, 1), "bob": (1, 0)}
    summer = _table(group, alice, now)
    assert summer["alice"][0] == summer["bob"][0] == 2
    assert summer[winner][1] == 1 + (winner == "bob")
    assert _table(group, alice)["alice"][0] == 4  # all time


def test_the_group_page_shows_the_current_season_and_the_others(alice, bob) -> None:
    group = make_group(alice, bob)
    today = timezone.localdate()
    old = services.add_season(group, alice, "去年", date(2025, 1, 1), date(2025, 12, 31))
    current = services.add_season(group, alice, "今季", today - timedelta(days=1), today + timedelta(days=1))
    _game(group, alice, bob, "alice", date(2025, 6, 1))
    page = logged_in(bob).get(f"/groups/{group.pk}/").content.decode()
    league_part = page[page.index('id="league"') :]
    assert "今季" in league_part and f"?season={old.pk}" in league_part
    assert 'aria-current="page">今季' in league_part.replace("\n", "")
    assert "Add a season" not in page and "新增賽季" not in page  # a member adds none
    old_page = logged_in(bob).get(f"/groups/{group.pk}/?season={old.pk}").content.decode()
    assert "去年" in old_page
    assert logged_in(bob).get(f"/groups/{group.pk}/?season=all").status_code == 200
    assert logged_in(bob).get(f"/groups/{group.pk}/?season=999999").status_code == 404
    assert logged_in(bob).get(f"/groups/{group.pk}/?season=abc").status_code == 404
    assert current.pk


def test_the_owner_adds_a_season_on_the_page_and_overlaps_are_refused(alice, bob, english) -> None:
    group = make_group(alice, bob)
    owner = logged_in(alice)
    url = f"/groups/{group.pk}/seasons/"
    made = owner.post(url, {"name": "2026 春", "starts_on": "2026-03-01", "ends_on": "2026-05-31"})
    assert made.status_code == 302
    clash = owner.post(url, {"name": "重疊", "starts_on": "2026-05-01", "ends_on": "2026-06-30"})
    assert clash.status_code == 400 and "overlaps" in clash.content.decode()
    backwards = owner.post(url, {"name": "倒過來", "starts_on": "2026-08-01", "ends_on": "2026-07-01"})
    assert backwards.status_code == 400
    assert (
        logged_in(bob).post(url, {"name": "x", "starts_on": "2027-01-01", "ends_on": "2027-02-01"}).status_code == 403
    )
    assert list(Season.objects.values_list("name", flat=True)) == ["2026 春"]


def test_seasons_over_the_api(alice, bob, charlie) -> None:
    group = make_group(alice, bob)
    url = f"/api/groups/{group.pk}/seasons/"
    body = {"name": "秋季", "starts_on": "2026-09-01", "ends_on": "2026-11-30"}
    made = logged_in(alice).post(url, json.dumps(body), content_type="application/json")
    assert made.status_code == 201 and made.json()["name"] == "秋季"
    assert logged_in(bob).post(url, json.dumps(body), content_type="application/json").status_code == 403
    assert logged_in(charlie).get(url).status_code == 404
    assert [s["name"] for s in logged_in(bob).get(url).json()] == ["秋季"]
    overlap = logged_in(alice).post(url, json.dumps(body | {"name": "又秋"}), content_type="application/json")
    assert overlap.status_code == 400 and "starts_on" in overlap.json()
    season = made.json()["id"]
    assert logged_in(bob).get(f"/api/groups/{group.pk}/league/?season={season}").status_code == 200
    assert logged_in(bob).get(f"/api/groups/{group.pk}/league/?season=12345").status_code == 404
    assert Client().get(url).status_code in (401, 403)


def test_bounds_of_a_season_are_the_models(alice, bob) -> None:
    group = make_group(alice, bob)
    with pytest.raises(ValidationError):
        services.add_season(group, alice, "遠古", date(1999, 1, 1), date(1999, 2, 1))
    with pytest.raises(ValidationError):
        services.add_season(group, alice, "名" * 61, date(2026, 1, 1), date(2026, 2, 1))
    with pytest.raises(ValidationError):
        services.add_season(group, alice, "壞\x00名", date(2026, 1, 1), date(2026, 2, 1))
    assert not Season.objects.exists()
