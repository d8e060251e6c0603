"""A member who leaves a group, or is removed, leaves the league: their games not yet confirmed
are void (confirmed ones stay), and a confirmation racing the removal is refused."""

from __future__ import annotations

import pytest

from groups.models import Group
from league import services as league
from league.models import Game
from tests.conftest import logged_in
from tests.support.group_helpers import make_group

pytestmark = pytest.mark.django_db


def test_a_removed_member_s_unconfirmed_games_are_void_and_confirmed_ones_stay(alice, bob, carol_) -> None:
    group = make_group(alice, bob, carol_)
    sides = (league.Side("bob"), league.Side("carol"))
    confirmed = league.log_game(group, bob, sides, "bob")
    league.confirm(confirmed, carol_)
    pending = league.log_game(group, bob, sides, "carol")
    owner = logged_in(alice)
    asked = owner.post(f"/groups/{group.pk}/members/bob/remove/")
    assert 'name="new_invite"' in asked.content.decode()  # removal offers a new invite link
    invite = group.invite
    owner.post(f"/groups/{group.pk}/members/bob/remove/", {"confirm": "yes", "new_invite": "1"})
    assert not Game.objects.filter(pk=pending.pk).exists() and Game.objects.filter(pk=confirmed.pk).exists()
    assert Group.objects.get(pk=group.pk).invite != invite
    assert logged_in(carol_).post(f"/groups/{group.pk}/games/{pending.pk}/confirm/").status_code == 404


def test_a_game_whose_player_left_cannot_be_confirmed(alice, bob, carol_, english) -> None:
    group = make_group(alice, bob, carol_)
    game = league.log_game(group, bob, (league.Side("bob"), league.Side("carol")), "bob")
    group.memberships.filter(user=bob).delete()  # as a removal racing the confirmation leaves it
    with pytest.raises(league.NotAllowed, match="left the group"):
        league.confirm(Game(pk=game.pk, group=group, player_a=bob, player_b=carol_), carol_)


@pytest.fixture
def carol_(db):
    from django.contrib.auth import get_user_model

    return get_user_model().objects.create_user("carol", "carol@example.org", "a-long-carol-password-1")
