"""A group's league: games its members played, each counted once the other player confirms it
(as match reports at an event are)."""

from __future__ import annotations

import datetime
from typing import Any

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from catalog.models import Card
from decks.models import Deck
from groups.models import Group

# The game's first recorded play; anything earlier is a typo of the year.
FIRST_DAY = datetime.date(2000, 1, 1)


def not_in_the_future(day: datetime.date) -> None:
    # A day's slack: the logger's evening may be the server's tomorrow.
    if day > timezone.localdate() + datetime.timedelta(days=1):
        raise ValidationError(_("A game cannot be played in the future."))
    if day < FIRST_DAY:
        raise ValidationError(_("A game is played in %(year)d or later.") % {"year": FIRST_DAY.year})


def not_in_the_past_of_the_game(day: datetime.date) -> None:
    # A season may be planned ahead (unlike a game), but not before the game existed, nor past
    # what a date picker means to offer.
    if not FIRST_DAY <= day <= datetime.date(2100, 12, 31):
        raise ValidationError(_("Choose a date between %(first)d and 2100.") % {"first": FIRST_DAY.year})


class Result(models.TextChoices):
    A = "a", gettext_lazy("first player won")
    B = "b", gettext_lazy("second player won")
    DRAW = "draw", gettext_lazy("draw")


class GameQuerySet(models.QuerySet["Game"]):
    def confirmed(self) -> GameQuerySet:
        return self.filter(confirmed__isnull=False)

    def waiting_for(self, user: Any) -> GameQuerySet:
        """Games the user played and has yet to confirm."""
        return self.filter(confirmed__isnull=True, player_b=user)


class Game(models.Model):
    group = models.ForeignKey(Group, on_delete=models.CASCADE, related_name="games")
    # Player A logged the game; player B confirms it.
    player_a = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    player_b = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    # The decks played, if they are saved here; their generals are kept as they were that day,
    # so editing a deck later does not rewrite the league's table of generals.
    deck_a = models.ForeignKey(Deck, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    deck_b = models.ForeignKey(Deck, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    general_a = models.ForeignKey(Card, null=True, blank=True, on_delete=models.PROTECT, related_name="+")
    general_b = models.ForeignKey(Card, null=True, blank=True, on_delete=models.PROTECT, related_name="+")
    result = models.CharField(max_length=4, choices=Result.choices)
    played_on = models.DateField(default=timezone.localdate, validators=[not_in_the_future])
    logged = models.DateTimeField(auto_now_add=True)
    confirmed = models.DateTimeField(null=True, blank=True)

    objects = GameQuerySet.as_manager()

    class Meta:
        ordering = ["-played_on", "-pk"]
        indexes = [
            models.Index(fields=["group", "-played_on", "-id"]),
            models.Index(fields=["player_b", "confirmed"]),
        ]
        constraints = [
            models.CheckConstraint(condition=~Q(player_a=models.F("player_b")), name="game_two_players"),
        ]

    def __str__(self) -> str:
        return f"{self.player_a_id} v {self.player_b_id} ({self.result})"

    @property
    def a_won(self) -> bool:
        return self.result == Result.A

    @property
    def b_won(self) -> bool:
        return self.result == Result.B


MAX_SEASON_NAME = 60


class SeasonQuerySet(models.QuerySet["Season"]):
    def on(self, day: datetime.date) -> SeasonQuerySet:
        """The season a day belongs to (none, or one: seasons of a group never overlap)."""
        return self.filter(starts_on__lte=day, ends_on__gte=day)


class Season(models.Model):
    """A season of a group's league: its games and its events' matches belong to the season of
    their date. Seasons of one group never overlap (league.services.add_season, under the
    group's row lock)."""

    group = models.ForeignKey(Group, on_delete=models.CASCADE, related_name="seasons")
    name = models.CharField(max_length=MAX_SEASON_NAME)
    starts_on = models.DateField(validators=[not_in_the_past_of_the_game])
    ends_on = models.DateField(validators=[not_in_the_past_of_the_game])

    objects = SeasonQuerySet.as_manager()

    class Meta:
        ordering = ["-starts_on", "-pk"]
        constraints = [
            models.CheckConstraint(condition=Q(ends_on__gte=models.F("starts_on")), name="season_ends_after_start"),
        ]

    def __str__(self) -> str:
        return f"{self.name} ({self.starts_on}–{self.ends_on})"
