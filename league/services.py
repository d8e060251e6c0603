"""Logging, confirming and deleting a league game: the rules and the locks, for the pages and
the API alike."""

from __future__ import annotations

import datetime
from dataclasses import dataclass
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _

from decks.models import PUBLIC, Deck
from groups.models import Group, Membership
from league.models import Game, Result, Season, not_in_the_future


class GameError(ValueError):
    """A game the rules refuse, with the sentence that says why."""


# Games one player may have logged in a group that wait for confirmation: a long evening's play,
# not a flood of reports the other members must wade through.
MAX_UNCONFIRMED = 100


class NotAllowed(GameError):
    """The caller is a member, but not the one who may do this (a 403 in the API)."""


@dataclass(frozen=True)
class Side:
    """One player of a game as it is logged: a member's username and the deck they played."""

    username: str
    deck: int | None = None


def _member(group: Group, username: str) -> Any:
    membership = (
        Membership.objects.filter(group=group, user__username=str(username)[:150]).select_related("user").first()
    )
    if membership is None:
        raise GameError(_("“%(name)s” is not a member of this group.") % {"name": str(username)[:40]})
    return membership.user


def _deck(group: Group, player: Any, deck_id: int | None) -> Deck | None:
    """A deck the player may have played here: theirs, a public one, or one shared with the group."""
    if deck_id is None:
        return None
    allowed = Q(owner=player) | PUBLIC | Q(pk__in=Deck.objects.shared_with(group).values("pk"))
    deck = Deck.objects.filter(allowed, pk=deck_id).select_related("general").first()
    if deck is None:
        raise GameError(
            _("Deck #%(id)d is not one %(name)s could play here.") % {"id": deck_id, "name": player.username}
        )
    return deck


def log_game(
    group: Group, actor: Any, sides: tuple[Side, Side], winner: str | None, played_on: datetime.date | None = None
) -> Game:
    """The actor logs a game they played against another member; it counts once that member
    confirms it. `winner` is one of the two usernames, or None for a draw."""
    first, second = sides
    if actor.username not in (first.username, second.username):
        raise GameError(_("Log the games you played: you are one of the two players."))
    if first.username == second.username:
        raise GameError(_("A game has two different players."))
    if actor.username == second.username:
        first, second = second, first
    if winner is not None and winner not in (first.username, second.username):
        raise GameError(_("The winner is one of the two players, or nobody for a draw."))
    _member(group, actor.username)
    opponent = _member(group, second.username)
    day = played_on or timezone.localdate()
    try:
        not_in_the_future(day)
    except ValidationError as exc:
        raise GameError(" ".join(exc.messages)) from None
    deck_a, deck_b = _deck(group, actor, first.deck), _deck(group, opponent, second.deck)
    result = Result.DRAW if winner is None else (Result.A if winner == first.username else Result.B)
    with transaction.atomic():
        # The group's row orders one player's reports sent at once, so the bound holds.
        Group.objects.select_for_update().filter(pk=group.pk).first()
        if Game.objects.filter(group=group, player_a=actor, confirmed__isnull=True).count() >= MAX_UNCONFIRMED:
            raise GameError(
                _("You have %(n)d games here waiting for confirmation: ask your opponents to confirm them first.")
                % {"n": MAX_UNCONFIRMED}
            )
        return Game.objects.create(
            group=group,
            player_a=actor,
            player_b=opponent,
            deck_a=deck_a,
            deck_b=deck_b,
            general_a=deck_a.general if deck_a else None,
            general_b=deck_b.general if deck_b else None,
            result=result,
            played_on=day,
        )


def void_unconfirmed(sender: Any, instance: Membership, **kwargs: Any) -> None:
    """post_delete of a membership: the member's games in that group not yet confirmed are void."""
    player = Q(player_a_id=instance.user_id) | Q(player_b_id=instance.user_id)
    Game.objects.filter(player, group_id=instance.group_id, confirmed__isnull=True).delete()


def confirm(game: Game, actor: Any) -> bool:
    """The other player confirms the game: True when this confirmation counted it, False when it
    was confirmed already (two taps, two tabs: one confirmation, in one conditional UPDATE).
    Under the group's row lock, as a removal is: a game whose player left is void, never counted."""
    if game.player_b_id != actor.pk:
        raise NotAllowed(_("Only the other player of a game confirms it."))
    with transaction.atomic():
        Group.objects.select_for_update().filter(pk=game.group_id).first()
        players = {game.player_a_id, game.player_b_id}
        if Membership.objects.filter(group_id=game.group_id, user_id__in=players).count() < len(players):
            raise NotAllowed(_("A player of this game left the group: the game is void."))
        done = Game.objects.filter(pk=game.pk, confirmed__isnull=True).update(confirmed=timezone.now())
    game.refresh_from_db(fields=["confirmed"])
    return done == 1


def delete_game(game: Game, actor: Any) -> None:
    """A player takes back a game not yet confirmed; the group's owner may delete any game."""
    owner = game.group.owner_id == actor.pk
    player = actor.pk in (game.player_a_id, game.player_b_id)
    if not owner and not (player and game.confirmed is None):
        raise NotAllowed(_("Only a player of a game not yet confirmed, or the group's owner, deletes it."))
    game.delete()


# Seasons a group may have: ten years of four a year.
MAX_SEASONS = 40


def add_season(group: Group, actor: Any, name: Any, starts_on: Any, ends_on: Any) -> Season:
    """The owner adds a season. Refused (ValidationError by field) when its dates are out of
    bounds or overlap another season of the group: a game belongs to one season. Under the
    group's row lock, so two seasons added at once never overlap."""
    if group.owner_id != actor.pk:
        raise NotAllowed(_("Only the group's owner may do this."))
    season = Season(group=group, name=name if isinstance(name, str) else "", starts_on=starts_on, ends_on=ends_on)
    if "\x00" in season.name:
        raise ValidationError({"name": [_("The name holds characters that cannot be stored.")]})
    season.full_clean(exclude=["group"])  # bounds and lengths: the model fields'
    if season.ends_on < season.starts_on:
        raise ValidationError({"ends_on": [_("A season ends on or after its first day.")]})
    with transaction.atomic():
        Group.objects.select_for_update().filter(pk=group.pk).first()
        seasons = Season.objects.filter(group=group)
        if seasons.count() >= MAX_SEASONS:
            raise GameError(_("The group has %(n)d seasons, the most a group may have.") % {"n": MAX_SEASONS})
        clash = seasons.filter(starts_on__lte=season.ends_on, ends_on__gte=season.starts_on).first()
        if clash is not None:
            raise ValidationError(
                {
                    "starts_on": [
                        _("It overlaps the season “%(name)s”: a game belongs to one season.") % {"name": clash.name}
                    ]
                }
            )
        season.save()
    return season


def chosen_season(group: Group, asked: Any) -> tuple[Season | None, list[Season]]:
    """The season a page shows (`?season=` an id of the group's, "all" for all time; none asked:
    the season of today, else the latest that began) and the group's seasons, newest first."""
    seasons = list(Season.objects.filter(group=group))
    if asked == "all":
        return None, seasons
    if asked:
        found = next((s for s in seasons if str(s.pk) == str(asked)), None)
        if found is None:
            raise GameError(_("No such season in this group."))
        return found, seasons
    today = timezone.localdate()
    current = next((s for s in seasons if s.starts_on <= today <= s.ends_on), None)
    begun = next((s for s in seasons if s.starts_on <= today), None)
    return current or begun, seasons
