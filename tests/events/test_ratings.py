"""Players' ratings: openskill's Plackett–Luce over the confirmed matches of rated events, in the
order played; the same figures from scratch as from runs one after the other; an event entered
late put in its place; the season's leaderboard; the page and the API."""

from __future__ import annotations

from datetime import date, timedelta

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.utils import timezone
from openskill.models import PlackettLuce

from events import day, ratings
from events.models import Event, Match, Player, PlayerRating, RatingEntry, Round
from people import profiles
from tests.support.event_helpers import starting

pytestmark = pytest.mark.django_db

NAMES = ("ann", "ben", "cai", "dan")


@pytest.fixture
def people(db):
    users = get_user_model().objects
    return {name: users.create_user(name, password="rating-password-1") for name in NAMES}


def _event(owner, on: date, results: list[tuple[str, str, int, int]], *, rated: bool = True) -> Event:
    """An event on `on` whose round n holds the n-th result, one table: (a, b, a's wins, b's)."""
    event = Event.objects.create(
        organiser=owner,
        name=f"賽事 {on}",
        deadline=timezone.now() + timedelta(days=1),
        starts_at=starting(on),
        rated=rated,
    )
    players: dict[str, Player] = {}
    for a, b, aw, bw in results:
        for name in (a, b):
            if name not in players:
                user = get_user_model().objects.get(username=name)
                players[name] = Player.objects.create(event=event, name=name, user=user, checked_in=True, legal=True)
    for number, (a, b, aw, bw) in enumerate(results, start=1):
        round_ = Round.objects.create(event=event, number=number, seed=1, ends=timezone.now())
        match = Match.objects.create(round=round_, table=1, player_a=players[a], player_b=players[b])
        day.enter_result(match, aw, bw, 3 - aw - bw if aw == bw else 0)
    return event


def _by_hand(history: list[tuple[str, str, int, int]]) -> dict[str, float]:
    model = PlackettLuce()
    now = {name: model.rating() for name in NAMES}
    for a, b, aw, bw in history:
        ranks = [1, 1] if aw == bw else ([1, 2] if aw > bw else [2, 1])
        [[now[a]], [now[b]]] = model.rate([[now[a]], [now[b]]], ranks=ranks)
    return {name: r.ordinal() for name, r in now.items()}


FIRST = [("ann", "ben", 2, 0), ("cai", "dan", 1, 2), ("ann", "dan", 1, 1)]
SECOND = [("ben", "cai", 2, 1), ("dan", "ann", 2, 0)]


def _current() -> dict[str, float]:
    return {r.user.username: r.ordinal for r in PlayerRating.objects.select_related("user")}


def test_ratings_match_openskill_run_by_hand(people) -> None:
    _event(people["ann"], date(2026, 3, 1), FIRST)
    _event(people["ben"], date(2026, 4, 1), SECOND)
    ratings.recompute()
    expected = _by_hand(FIRST + SECOND)
    assert _current() == pytest.approx(expected)
    assert PlayerRating.objects.get(user=people["ann"]).matches == 3
    # a draw moved nobody's rank order away from openskill's
    assert RatingEntry.objects.filter(outcome=0).count() == 2


def test_from_scratch_equals_runs_one_after_the_other(people) -> None:
    _event(people["ann"], date(2026, 3, 1), FIRST)
    ratings.recompute(date(2026, 3, 1))
    _event(people["ben"], date(2026, 4, 1), SECOND)
    ratings.recompute(date(2026, 4, 1))
    incremental = {(e.user_id, e.match_id): e.ordinal for e in RatingEntry.objects.all()}
    now = _current()
    ratings.recompute()
    assert {(e.user_id, e.match_id): e.ordinal for e in RatingEntry.objects.all()} == pytest.approx(incremental)
    assert _current() == pytest.approx(now)


def test_an_event_entered_late_is_put_in_its_place(people) -> None:
    _event(people["ann"], date(2026, 4, 1), SECOND)
    ratings.recompute()
    _event(people["ben"], date(2026, 3, 1), FIRST)  # played first, entered after
    ratings.recompute(date(2026, 3, 1))
    assert _current() == pytest.approx(_by_hand(FIRST + SECOND))


def test_unrated_events_byes_and_open_matches_change_nothing(people) -> None:
    _event(people["ann"], date(2026, 3, 1), FIRST, rated=False)
    event = _event(people["ann"], date(2026, 3, 2), [("ann", "ben", 2, 0)])
    open_round = Round.objects.create(event=event, number=2, seed=1, ends=timezone.now())
    ann = Player.objects.get(event=event, user=people["ann"])
    Match.objects.create(round=open_round, table=1, player_a=ann, player_b=Player.objects.get(event=event, name="ben"))
    Match.objects.create(round=open_round, table=2, player_a=ann, a_wins=2, b_wins=0, draws=0, decided_by="bye")
    ratings.recompute()
    assert RatingEntry.objects.count() == 2  # the one rated, decided match
    assert set(_current()) == {"ann", "ben"}


def test_the_season_leaderboard_lists_players_with_five_matches_apart_from_the_others(people) -> None:
    games = [("ann", "ben", 2, 0)] * 5 + [("cai", "dan", 2, 1)]
    _event(people["ann"], date(2026, 5, 1), games)
    ratings.recompute()
    ranked, others = ratings.season_table(2026)
    assert [p["username"] for p in ranked] == ["ann", "ben"] and ranked[0]["place"] == 1
    assert sorted(p["username"] for p in others) == ["cai", "dan"]
    assert ratings.season_table(2025) == ([], [])
    profiles.update(people["ann"], {"on_leaderboard": False})
    ranked, _others = ratings.season_table(2026)
    assert [p["username"] for p in ranked] == ["ben"]
    page = Client().get("/ratings/?season=2026").content.decode()
    assert "/u/ben/" in page and "/u/ann/" not in page
    api = Client().get("/api/ratings/", {"season": 2026}).json()
    assert [p["username"] for p in api["players"]] == ["ben"] and api["season"] == 2026


def test_a_regional_leaderboard_lists_the_players_of_that_region(people) -> None:
    games = [("ann", "ben", 2, 0)] * 5 + [("cai", "dan", 2, 0)] * 5
    _event(people["ann"], date(2026, 5, 1), games)
    ratings.recompute()
    profiles.update(people["ann"], {"region": "shanghai"})
    profiles.update(people["cai"], {"region": "shanghai"})
    profiles.update(people["ben"], {"region": "taiwan"})
    ranked, _others = ratings.season_table(2026, "shanghai")
    assert sorted(p["username"] for p in ranked) == ["ann", "cai"]
    assert [p["place"] for p in ranked] == [1, 2]
    api = Client().get("/api/ratings/", {"season": 2026, "region": "taiwan"}).json()
    assert [p["username"] for p in api["players"]] == ["ben"] and api["region"] == "taiwan"
    page = Client().get("/ratings/?season=2026&region=taiwan").content.decode()
    assert "/u/ben/" in page and "/u/ann/" not in page
    assert Client().get("/api/ratings/", {"region": "atlantis"}).status_code == 400
    assert Client().get("/ratings/?region=atlantis").status_code == 400


def test_a_result_of_a_rated_event_queues_a_run_from_its_date(people, settings, django_capture_on_commit_callbacks):
    from events.models import RatingRun

    settings.TASKS = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend"}}
    with django_capture_on_commit_callbacks(execute=True):
        _event(people["ann"], date(2026, 4, 1), SECOND)
    with django_capture_on_commit_callbacks(execute=True):
        _event(people["ann"], date(2026, 3, 1), FIRST)
    queued = RatingRun.objects.filter(status="queued")
    assert queued.count() == 1 and queued.get().from_date == date(2026, 3, 1)


def test_the_task_runs_a_queued_run(people) -> None:
    from events.models import RatingRun
    from events.tasks import update_ratings

    _event(people["ann"], date(2026, 3, 1), FIRST)
    run = RatingRun.objects.create(from_date=date(2026, 3, 1))
    assert update_ratings.call(run.pk) == "done"
    assert RatingRun.objects.get(pk=run.pk).status == "done"
    assert _current() == pytest.approx(_by_hand(FIRST))
    assert update_ratings.call(run.pk) == "skipped"


def test_the_profile_shows_the_rating_and_its_history(people, english) -> None:
    _event(people["ann"], date(2026, 3, 1), FIRST)
    ratings.recompute()
    page = Client().get("/u/ann/").content.decode()
    assert 'id="rating-heading"' in page and "<svg" in page[page.index('id="rating-heading"') :]
    profiles.update(people["ann"], {"show_events": False})
    assert 'id="rating-heading"' not in Client().get("/u/ann/").content.decode()


@pytest.mark.parametrize("season", ["abc", "１２", "99999", "-1", "2026\x00"])
def test_a_bad_season_is_refused(season: str) -> None:
    assert Client().get("/api/ratings/", {"season": season}).status_code == 400
    assert Client().get("/ratings/", {"season": season}).status_code == 400


def test_a_run_that_another_run_overtook_writes_nothing(people, monkeypatch) -> None:
    """Computed outside any lock: if another run wrote meanwhile, this one raises Busy and the
    task computes again, from the data as it is then."""
    from events.models import RatingState

    _event(people["ann"], date(2026, 3, 1), FIRST)
    real = ratings.replay

    def overtaken(*args, **kwargs):
        out = real(*args, **kwargs)
        RatingState.objects.filter(pk=1).update(generation=99)  # another run wrote meanwhile
        return out

    monkeypatch.setattr(ratings, "replay", overtaken)
    with pytest.raises(ratings.Busy):
        ratings.recompute()
    assert RatingEntry.objects.count() == 0 and PlayerRating.objects.count() == 0
    monkeypatch.setattr(ratings, "replay", real)
    ratings.recompute()
    assert _current() == pytest.approx(_by_hand(FIRST))


def test_marking_an_event_rated_on_its_page_queues_a_run_from_its_date(
    people, settings, django_capture_on_commit_callbacks
) -> None:
    from events.models import RatingRun

    settings.TASKS = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend"}}
    event = _event(people["ann"], date(2026, 2, 1), FIRST, rated=False)
    client = Client()
    client.force_login(people["ann"])
    form = {
        "name": event.name,
        "format": event.format,
        "deadline": timezone.localtime(event.deadline).strftime("%Y-%m-%dT%H:%M"),
        "starts_at": "2026-02-01T10:00",
        "rated": "on",
    }
    with django_capture_on_commit_callbacks(execute=True):
        answer = client.post(f"/events/{event.pk}/", form)
    assert answer.status_code == 302, answer.content[:300]
    assert Event.objects.get(pk=event.pk).rated
    assert RatingRun.objects.get(status="queued").from_date == date(2026, 2, 1)


def test_the_profile_lists_each_event_with_its_record_and_general(people, english) -> None:
    from events import event_decks, presenters

    event = _event(people["ann"], date(2026, 3, 1), FIRST)
    Event.objects.filter(pk=event.pk).update(lists_public="after", top_cut=0, rounds=3)
    Player.objects.filter(event=event).update(general="WJ-001")
    ann = Player.objects.get(event=event, user=people["ann"])
    assert presenters.records([ann.pk]) == {ann.pk: (1, 0, 1)}  # beat ben, drew dan
    event_decks.record(event.pk)  # the background task, when its last result came in
    page = Client().get("/u/ann/").content.decode()
    events_part = page[page.index('id="events-heading"') :]
    assert "1–0–1" in events_part and "/cards/WJ-001/" in events_part
