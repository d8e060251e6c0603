"""Two taps on Confirm at once (two tabs, a double tap on a phone): the game is confirmed once,
by one conditional UPDATE. Real threads and transactions (SQLite here, PostgreSQL in CI)."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

from league import services
from league.models import Game
from tests.support.concurrency import at_once
from tests.support.group_helpers import make_group


@pytest.mark.django_db(transaction=True)
def test_two_confirmations_at_once_record_the_game_once() -> None:
    users = get_user_model().objects
    alice = users.create_user("alice", password="x-very-long-password-1")
    bob = users.create_user("bob", password="x-very-long-password-1")
    group = make_group(alice, bob)
    game = services.log_game(group, alice, (services.Side("alice"), services.Side("bob")), "alice")
    counted = at_once(*[lambda: services.confirm(Game.objects.get(pk=game.pk), bob) for _ in range(4)])
    assert sorted(counted) == [False, False, False, True]
    assert Game.objects.get(pk=game.pk).confirmed is not None
