"""The match-win rate of the lists that play each card, from public events, checked against a
brute-force count over hand-built events; hidden under the minimum sample; counted in the
background after results."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone

from catalog.models import Card
from decks.models import CardStats
from events import card_wins, day
from events.models import Event, Match, Player, Submission

pytestmark = pytest.mark.django_db

BASE = [3, 4, 5, 6, 7, 8, 9, 12, 13, 14, 15, 16, 17]


def _list(with_18: bool, with_10: bool) -> str:
    """A 40-card list of 劉備's; some play YXJQ-018, some YXJQ-010, some both or neither."""
    codes = BASE[:-2] + ([18] if with_18 else [16]) + ([10] if with_10 else [17])
    return "武將: 劉備\n" + "\n".join(f"3 YXJQ-{n:03d}" for n in codes) + "\n1 南蠻入侵\n"


def _event(owner, name: str, lists_public: str, players: int, rounds: int) -> Event:
    """An event of `players` lists, `rounds` Swiss rounds played, every result in: the lower
    table's player A wins 2–0, the others 2–1 for B, one match a draw."""
    event = Event.objects.create(
        organiser=owner, name=name, deadline=timezone.now() + timedelta(days=1), lists_public=lists_public
    )
    Submission.objects.bulk_create(
        [Submission(event=event, player_name=f"{name}{i}", text=_list(i % 2 == 0, i % 3 == 0)) for i in range(players)]
    )
    day.players_from_lists(event)
    event.players.update(checked_in=True, legal=True)
    for _round in range(rounds):
        for match in day.pair_next_round(event).matches.filter(player_b__isnull=False).order_by("table"):
            if match.table == 1:
                day.enter_result(match, 1, 1, 1)
            elif match.table % 2:
                day.enter_result(match, 2, 0, 0)
            else:
                day.enter_result(match, 1, 2, 0)
    return event


def _brute_force(events: list[Event]) -> dict[str, tuple[int, int]]:
    """Per card: (matches, wins) of the lists that play it, counted match by match."""
    out: dict[str, list[int]] = {}
    for match in Match.objects.filter(
        round__event__in=events, round__kind="swiss", player_b__isnull=False, a_wins__isnull=False
    ):
        for player, mine, theirs in (
            (match.player_a, match.a_wins, match.b_wins),
            (match.player_b, match.b_wins, match.a_wins),
        ):
            assert player is not None and player.submission is not None
            text = player.submission.text
            codes = {line.split()[1] for line in text.splitlines() if line[:1].isdigit() and "YXJQ" in line}
            codes |= {"YXJQ-001"} if "南蠻入侵" in text else set()
            for code in codes:
                row = out.setdefault(code, [0, 0])
                row[0] += 1
                row[1] += int(mine > theirs)
    return {code: (m, w) for code, (m, w) in out.items()}


def test_win_rates_agree_with_a_brute_force_count(alice, bob) -> None:
    counted = [_event(alice, "春季賽", "after", 9, 3), _event(bob, "夏季賽", "top_cut", 6, 2)]
    _event(alice, "閉門賽", "never", 6, 2)  # lists never public: not counted
    card_wins.compute()
    expected = _brute_force(counted)
    assert Card.objects.get(code="YXJQ-001").name == "南蠻入侵"  # the brute force names it by code
    stored = {
        s.card.code: (s.matches, s.match_wins) for s in CardStats.objects.select_related("card").filter(matches__gt=0)
    }
    assert stored == expected
    # Cards in some lists only: fewer matches than cards in all, and their own wins.
    assert expected["YXJQ-018"][0] < expected["YXJQ-003"][0]
    assert expected["YXJQ-003"][0] == sum(
        2 for m in Match.objects.filter(round__event__in=counted, player_b__isnull=False, a_wins__isnull=False)
    )


def test_a_rate_under_the_minimum_sample_is_hidden(alice, monkeypatch) -> None:
    _event(alice, "小比賽", "after", 4, 2)
    card_wins.compute()
    stats = CardStats.objects.get(card__code="YXJQ-003")
    assert 0 < stats.matches < CardStats.MIN_MATCHES
    answer = Client().get("/api/cards/YXJQ-003/stats/").json()
    assert "win_rate" not in answer and "matches" not in answer
    page = Client().get("/cards/YXJQ-003/").content.decode()
    assert 'class="win-rate"' not in page
    monkeypatch.setattr(CardStats, "MIN_MATCHES", 2)
    answer = Client().get("/api/cards/YXJQ-003/stats/").json()
    assert answer["matches"] == stats.matches
    assert answer["win_rate"] == round(stats.match_wins / stats.matches, 4)
    assert 'class="win-rate"' in Client().get("/cards/YXJQ-003/").content.decode()


def test_the_deck_figures_leave_the_win_rates_alone(alice) -> None:
    from decks.card_stats import compute as deck_figures

    _event(alice, "春季賽", "after", 6, 2)
    card_wins.compute()
    before = CardStats.objects.get(card__code="YXJQ-003").matches
    deck_figures()
    assert CardStats.objects.get(card__code="YXJQ-003").matches == before > 0


def test_a_result_queues_one_count_a_minute_on(alice, settings, django_capture_on_commit_callbacks) -> None:
    from django_tasks_db.models import DBTaskResult

    from events.tasks import recompute_card_wins

    settings.TASKS = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend"}}
    event = Event.objects.create(
        organiser=alice, name="x", deadline=timezone.now() + timedelta(days=1), lists_public="after"
    )
    Submission.objects.bulk_create(
        [Submission(event=event, player_name=f"p{i}", text=_list(True, False)) for i in range(4)]
    )
    day.players_from_lists(event)
    event.players.update(checked_in=True, legal=True)
    matches = list(day.pair_next_round(event).matches.filter(player_b__isnull=False))
    with django_capture_on_commit_callbacks(execute=True):
        for match in matches:
            day.enter_result(match, 2, 0, 0)
    queued = DBTaskResult.objects.filter(task_path=recompute_card_wins.module_path, status="READY")
    assert queued.count() == 1
    assert queued.get().run_after > timezone.now()
    assert Player.objects.filter(event=event).count() == 4
