"""A group's league: games logged by one player, counted once the other confirms them."""

from __future__ import annotations

import datetime

import pytest
from django.utils import timezone

from decks import services as deck_services
from league import services
from league.models import Game
from league.queries import league
from tests.conftest import logged_in
from tests.support.deck_helpers import make_deck
from tests.support.group_helpers import make_group

pytestmark = pytest.mark.django_db


def _names(group) -> dict[int, str]:
    return dict(group.memberships.values_list("user_id", "user__username"))


def _log(group, actor, other, winner, **decks) -> Game:
    sides = (services.Side(actor.username, decks.get("mine")), services.Side(other.username, decks.get("theirs")))
    return services.log_game(group, actor, sides, winner)


def test_only_confirmed_games_count_per_player_general_and_deck(alice, bob) -> None:
    group = make_group(alice, bob)
    red = make_deck(alice, name="紅", general="WJ-001")
    blue = make_deck(bob, name="藍", general="WJ-002")
    deck_services.set_groups(blue, [group])
    for winner in ("alice", "alice", "bob", None):
        game = _log(group, alice, bob, winner, mine=red.pk, theirs=blue.pk)
        assert services.confirm(game, bob)
    _log(group, alice, bob, "alice")  # never confirmed: does not count
    table = league(group, _names(group), alice)
    players = {r.label: (r.games, r.wins, r.draws, r.losses) for r in table.players}
    assert players == {"alice": (4, 2, 1, 1), "bob": (4, 1, 1, 2)}
    assert table.players[0].label == "alice" and table.players[0].win_percent == 50
    generals = {r.key: (r.games, r.wins) for r in table.generals}
    assert generals == {red.general_id: (4, 2), blue.general_id: (4, 1)}
    assert {r.label for r in table.decks} == {"紅", "藍"}


def test_a_private_deck_stays_out_of_another_readers_deck_table(alice, bob) -> None:
    group = make_group(alice, bob)
    secret = make_deck(bob, name="秘密")
    game = _log(group, bob, alice, "bob", mine=secret.pk)
    services.confirm(game, alice)
    assert [r.label for r in league(group, _names(group), alice).decks] == []
    assert [r.label for r in league(group, _names(group), bob).decks] == ["秘密"]


def test_a_game_is_between_two_members_on_a_day_not_ahead(alice, bob, charlie) -> None:
    group = make_group(alice, bob)
    with pytest.raises(services.GameError):
        _log(group, alice, charlie, "alice")  # not a member
    with pytest.raises(services.GameError):
        services.log_game(group, alice, (services.Side("bob"), services.Side("charlie")), "bob")  # not mine
    with pytest.raises(services.GameError):
        _log(group, alice, alice, None)
    with pytest.raises(services.GameError):
        _log(group, alice, bob, "charlie")
    ahead = timezone.localdate() + datetime.timedelta(days=5)
    with pytest.raises(services.GameError):
        services.log_game(group, alice, (services.Side("alice"), services.Side("bob")), None, ahead)
    with pytest.raises(services.GameError):
        _log(group, alice, bob, None, theirs=make_deck(charlie).pk)  # a deck bob could not play
    assert not Game.objects.exists()


def test_the_logger_is_player_a_whatever_order_they_give(alice, bob) -> None:
    group = make_group(alice, bob)
    game = services.log_game(group, bob, (services.Side("alice"), services.Side("bob")), "alice")
    assert (game.player_a, game.player_b, game.result) == (bob, alice, "b")


def test_only_the_other_player_confirms_and_a_second_confirmation_changes_nothing(alice, bob) -> None:
    group = make_group(alice, bob)
    game = _log(group, alice, bob, "bob")
    with pytest.raises(services.NotAllowed):
        services.confirm(game, alice)
    assert services.confirm(game, bob) is True
    first = Game.objects.get(pk=game.pk).confirmed
    assert services.confirm(game, bob) is False
    assert Game.objects.get(pk=game.pk).confirmed == first


def test_a_player_takes_back_an_unconfirmed_game_and_the_owner_any(alice, bob, charlie) -> None:
    group = make_group(alice, bob, charlie)
    game = _log(group, bob, charlie, "bob")
    services.confirm(game, charlie)
    with pytest.raises(services.NotAllowed):
        services.delete_game(game, bob)
    services.delete_game(game, alice)
    other = _log(group, bob, charlie, None)
    services.delete_game(other, bob)
    assert not Game.objects.exists()


def test_a_player_who_left_stays_in_the_table(alice, bob) -> None:
    from groups import services as group_services

    group = make_group(alice, bob)
    services.confirm(_log(group, alice, bob, "bob"), bob)
    group_services.remove_member(group, bob, "bob")
    assert {r.label for r in league(group, _names(group), alice).players} == {"alice", "bob"}


# --- the page --------------------------------------------------------------------------------------


def test_log_and_confirm_from_the_group_page(alice, bob) -> None:
    group = make_group(alice, bob)
    deck = make_deck(alice, name="我的牌")
    logger, other = logged_in(alice), logged_in(bob)
    sent = logger.post(f"/groups/{group.pk}/games/", {"opponent": "bob", "result": "me", "my_deck": deck.pk})
    assert sent.status_code == 302
    game = Game.objects.get()
    assert (game.player_a, game.result, game.deck_a, game.confirmed) == (alice, "a", deck, None)
    page = other.get(f"/groups/{group.pk}/").content.decode()
    assert f"/groups/{group.pk}/games/{game.pk}/confirm/" in page
    assert logger.post(f"/groups/{group.pk}/games/{game.pk}/confirm/").status_code == 302
    assert Game.objects.get().confirmed is None  # the logger cannot confirm their own report
    other.post(f"/groups/{group.pk}/games/{game.pk}/confirm/")
    assert Game.objects.get().confirmed is not None
    page = other.get(f"/groups/{group.pk}/").content.decode()
    assert "100%" in page  # alice: one game, one win


def test_a_wrong_game_form_answers_400_and_stores_nothing(alice, bob) -> None:
    group = make_group(alice, bob)
    client = logged_in(alice)
    for data in (
        {"opponent": "nobody", "result": "me"},
        {"opponent": "bob", "result": "x"},
        {"opponent": "bob", "result": "me", "played_on": "2999-01-01"},
    ):
        assert client.post(f"/groups/{group.pk}/games/", data).status_code == 400
    assert not Game.objects.exists()


# --- the API ---------------------------------------------------------------------------------------


def test_the_api_logs_confirms_and_counts(alice, bob, charlie) -> None:
    group = make_group(alice, bob, charlie)
    url = f"/api/groups/{group.pk}"
    logger, other = logged_in(alice), logged_in(bob)
    body = {"players": ["alice", "bob"], "decks": [None, None], "winner": None, "played_on": "2026-11-30"}
    made = logger.post(f"{url}/games/", body, content_type="application/json")
    assert made.status_code == 201
    game = made.json()
    assert game["players"] == ["alice", "bob"] and game["winner"] is None and game["confirmed"] is None
    assert logged_in(charlie).post(f"{url}/games/{game['id']}/confirm/").status_code == 403
    confirmed = other.post(f"{url}/games/{game['id']}/confirm/")
    assert confirmed.status_code == 200 and confirmed.json()["confirmed"]
    again = other.post(f"{url}/games/{game['id']}/confirm/")
    assert again.json()["confirmed"] == confirmed.json()["confirmed"]
    table = {row["player"]: row for row in logger.get(f"{url}/league/").json()}
    assert table["alice"] == {"player": "alice", "games": 1, "wins": 0, "draws": 1, "losses": 0}
    assert logged_in(charlie).get(f"{url}/league/").status_code == 200
    bad = {"players": ["alice", "bob", "charlie"], "winner": "alice"}
    assert logger.post(f"{url}/games/", bad, content_type="application/json").status_code == 400
    assert logger.post(f"{url}/games/", {**body, "winner": "zed"}, content_type="application/json").status_code == 400
    assert Game.objects.count() == 1


def test_a_game_to_confirm_shows_however_many_games_came_after(alice, bob, charlie) -> None:
    group = make_group(alice, bob, charlie)
    old = _log(group, alice, bob, "alice")
    for _ in range(35):
        services.confirm(_log(group, alice, charlie, None), charlie)
    page = logged_in(bob).get(f"/groups/{group.pk}/").content.decode()
    assert f"/groups/{group.pk}/games/{old.pk}/confirm/" in page


def test_one_player_has_at_most_a_hundred_games_waiting_in_a_group(alice, bob) -> None:
    group = make_group(alice, bob)
    Game.objects.bulk_create(
        [Game(group=group, player_a=alice, player_b=bob, result="draw") for _ in range(services.MAX_UNCONFIRMED)]
    )
    with pytest.raises(services.GameError):
        _log(group, alice, bob, None)
    _log(group, bob, alice, None)  # the other player's own reports are theirs
    Game.objects.filter(player_a=alice).update(confirmed=timezone.now())
    _log(group, alice, bob, None)
