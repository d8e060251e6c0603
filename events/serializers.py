"""The answers and inputs of the events API (events.api), one serializer each: what produces an
answer also documents it in the schema."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.core.exceptions import ValidationError as DjangoValidationError
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers
from rest_framework.exceptions import ValidationError

from events import day
from events.models import (
    CLOCK_MINUTES,
    DECK_CHECK_TABLES,
    FINDING_FIELDS,
    TABLE_NUMBERS,
    Event,
    Penalty,
    Round,
    Visibility,
    check_event_format,
)
from groups.models import Group
from rules_check import FORMATS
from rules_check.decklist import MAX_BYTES
from tournament import tiebreakers
from webutil.fields import StrictBooleanField, StrictCharField

MAX_ID = 2**63 - 1


class EventInputSerializer(serializers.ModelSerializer):
    """An event's settings, with the model fields' own bounds (events.models); a new event's
    deadline lies ahead (as on the events page)."""

    # Text and booleans only where the model keeps them: 12 is not a name, 1 not a boolean.
    serializer_field_mapping = {
        **serializers.ModelSerializer.serializer_field_mapping,
        models.CharField: StrictCharField,
        models.BooleanField: StrictBooleanField,
    }
    # Formats are data, not model choices: an official one, or a house format of the event's group.
    format = StrictCharField(max_length=20, help_text=f"{', '.join(FORMATS)}, or a house format's key of the group")
    group = serializers.IntegerField(
        min_value=1,
        max_value=2**63 - 1,
        allow_null=True,
        required=False,
        help_text="A play group of mine (id): the event's matches count for its league; null for none",
    )

    class Meta:
        model = Event
        fields = [
            "name",
            "format",
            "deadline",
            "rounds",
            "best_of",
            "top_cut",
            "round_minutes",
            "win_points",
            "draw_points",
            "loss_points",
            "lists_public",
            "checkin_open",
            "late_entry_losses",
            "hold_pairings",
            "top_cut_reseed",
            "group",
            "starts_at",
            *FINDING_FIELDS,
        ]

    def validate_group(self, value: int | None) -> Group | None:
        if value is None:
            return None
        group = Group.objects.of(self.context["request"].user).filter(pk=value).first()
        if group is None:
            raise ValidationError(_("No such group of yours."))
        return group

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        if not self.partial and attrs.get("visibility") == "listed" and attrs.get("starts_at") is None:
            raise ValidationError({"starts_at": [_("A listed event says when it starts: it is on the calendar.")]})
        if not self.partial:  # a change is checked against the event as it stands, by the service
            group = attrs.get("group")
            try:
                check_event_format(attrs["format"], group.pk if group else None)
            except DjangoValidationError as exc:
                raise ValidationError(exc.message_dict) from None
        return attrs

    def validate_deadline(self, value: datetime) -> datetime:
        if self.instance is None and not self.partial and value <= timezone.now():
            raise ValidationError(_("The deadline must be in the future."))
        return value


class EventOutputSerializer(serializers.Serializer):
    """An event's settings: this serializer both produces the answer and documents it."""

    id = serializers.IntegerField(source="pk")
    name = serializers.CharField()
    format = serializers.CharField()
    deadline = serializers.DateTimeField()
    rounds = serializers.SerializerMethodField(help_text="Swiss rounds: as set, or ⌈log2 n⌉ of the active players")
    best_of = serializers.IntegerField()
    top_cut = serializers.IntegerField()
    round_minutes = serializers.IntegerField()
    win_points = serializers.IntegerField()
    draw_points = serializers.IntegerField()
    loss_points = serializers.IntegerField()
    lists_public = serializers.CharField()
    checkin_open = serializers.BooleanField()
    late_entry_losses = serializers.BooleanField(
        help_text="A late entry has a match loss for each round already paired"
    )
    hold_pairings = serializers.BooleanField(help_text="Rounds are paired as drafts and published by the organiser")
    top_cut_reseed = serializers.BooleanField(
        help_text="Later top-cut rounds re-seeded (best remaining seed against the lowest), not a fixed bracket"
    )
    locked = serializers.BooleanField()
    group = serializers.IntegerField(source="group_id", allow_null=True, help_text="Its play group's id, or null")
    starts_at = serializers.DateTimeField(allow_null=True)
    visibility = serializers.ChoiceField(choices=Visibility.choices, help_text="private, unlisted or listed")
    venue = serializers.CharField()
    address = serializers.CharField()
    city = serializers.CharField()
    region = serializers.CharField(help_text="A region's slug (GET /api/regions/ lists them), or empty")
    fee = serializers.CharField()
    cap = serializers.IntegerField(allow_null=True, help_text="Players it takes; the rest wait. null: no cap")
    contact = serializers.CharField()
    rated = serializers.BooleanField()

    @extend_schema_field(OpenApiTypes.INT)
    def get_rounds(self, event: Event) -> int:
        return day.planned_rounds(event)


class PlayerInputSerializer(serializers.Serializer):
    name = StrictCharField(max_length=100, required=False)
    list = StrictCharField(max_length=MAX_BYTES, required=False, trim_whitespace=False)
    user = StrictCharField(max_length=150, required=False, help_text="A user who sent a list to the event")

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        if "user" in attrs and ("list" in attrs or "name" in attrs):
            raise ValidationError({"user": [_("Give a user, or a name and a list.")]})
        if "user" not in attrs and not ("list" in attrs and "name" in attrs):
            raise ValidationError({"list": [_("Give a user, or a name and a list.")]})
        return attrs


class PlayerPatchSerializer(serializers.Serializer):
    checked_in = StrictBooleanField(required=False)
    dropped = StrictBooleanField(required=False)
    first_round_bye = StrictBooleanField(required=False, help_text="A bye in round 1 (until it is paired)")
    fixed_table = serializers.IntegerField(
        required=False, allow_null=True, validators=TABLE_NUMBERS, help_text="A table the player needs, or null"
    )
    list = StrictCharField(
        max_length=MAX_BYTES,
        required=False,
        trim_whitespace=False,
        help_text="The organiser replaces the player's list (recorded in the day's log)",
    )


class PlayerOutputSerializer(serializers.Serializer):
    id = serializers.IntegerField(source="pk")
    name = serializers.CharField()
    legal = serializers.BooleanField()
    checked_in = serializers.BooleanField()
    dropped = serializers.BooleanField()
    first_round_bye = serializers.BooleanField()
    fixed_table = serializers.IntegerField(allow_null=True)


class PairingSerializer(serializers.Serializer):
    table = serializers.IntegerField()
    player_a = serializers.IntegerField(source="player_a_id")
    player_b = serializers.IntegerField(source="player_b_id", allow_null=True, help_text="None for the bye")
    a_wins = serializers.IntegerField(allow_null=True)
    b_wins = serializers.IntegerField(allow_null=True)
    draws = serializers.IntegerField(allow_null=True)
    disputed = serializers.BooleanField()


class RoundOutputSerializer(serializers.Serializer):
    number = serializers.IntegerField()
    kind = serializers.CharField()
    seed = serializers.IntegerField()
    ends = serializers.DateTimeField(help_text="When the round's time is up (moves on when a paused clock resumes)")
    published = serializers.SerializerMethodField(help_text="False for a draft only the organisers see")
    paused = serializers.SerializerMethodField(help_text="Whether the organiser has paused the clock")
    seconds_left = serializers.SerializerMethodField(help_text="Seconds until the end, negative once over")
    pairings = PairingSerializer(many=True, source="matches")

    @extend_schema_field(OpenApiTypes.BOOL)
    def get_published(self, round_: Round) -> bool:
        return round_.published_at is not None

    @extend_schema_field(OpenApiTypes.BOOL)
    def get_paused(self, round_: Round) -> bool:
        return round_.paused_at is not None

    @extend_schema_field(OpenApiTypes.INT)
    def get_seconds_left(self, round_: Round) -> int:
        return round_.seconds_left()


class TableInputSerializer(serializers.Serializer):
    """Either `player_a` and `player_b` (null: a bye to player_a), or `loss` alone."""

    player_a = serializers.IntegerField(min_value=1, max_value=MAX_ID, required=False)
    player_b = serializers.IntegerField(min_value=1, max_value=MAX_ID, required=False, allow_null=True)
    loss = serializers.IntegerField(
        min_value=1, max_value=MAX_ID, required=False, help_text="A player given a match loss (0–2) this round"
    )
    rematch = StrictBooleanField(required=False, default=False, help_text="Pair the two even if they have met")

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        pairing = "player_a" in attrs or "player_b" in attrs
        if ("loss" in attrs) == pairing or (pairing and not ("player_a" in attrs and "player_b" in attrs)):
            raise ValidationError({"detail": [_("Give player_a and player_b (null for a bye), or loss.")]})
        return attrs


class CheckedPlayerSerializer(serializers.Serializer):
    id = serializers.IntegerField(source="pk")
    name = serializers.CharField()
    list = serializers.CharField(source="submission.text", allow_null=True, help_text="The list as sent")


class DeckCheckInputSerializer(serializers.Serializer):
    tables = serializers.IntegerField(validators=DECK_CHECK_TABLES, help_text="How many tables to pick")


class DeckCheckSerializer(serializers.Serializer):
    id = serializers.IntegerField(source="pk")
    round = serializers.IntegerField(source="round.number")
    seed = serializers.IntegerField(help_text="The pick's random seed, recorded to reproduce it")
    tables = serializers.ListField(child=serializers.IntegerField())
    players = CheckedPlayerSerializer(many=True, source="checked")
    by = serializers.CharField(source="by.username", allow_null=True)
    at = serializers.DateTimeField()


class ClockInputSerializer(serializers.Serializer):
    action = serializers.ChoiceField(choices=list(day.CLOCK_ACTIONS))
    minutes = serializers.IntegerField(
        required=False, default=5, validators=CLOCK_MINUTES, help_text="Minutes to add (action add)"
    )


class ResultInputSerializer(serializers.Serializer):
    table = serializers.IntegerField(validators=TABLE_NUMBERS)
    player = serializers.IntegerField(
        min_value=1, max_value=MAX_ID, required=False, help_text="Whose side the games are from (player A when omitted)"
    )
    wins = serializers.IntegerField(min_value=0, max_value=3)
    losses = serializers.IntegerField(min_value=0, max_value=3)
    draws = serializers.IntegerField(min_value=0, max_value=3, default=0)


class StandingSerializer(serializers.Serializer):
    rank = serializers.IntegerField()
    player = serializers.IntegerField()
    name = serializers.CharField()
    points = serializers.IntegerField()

    def get_fields(self) -> dict[str, serializers.Field]:
        fields: dict[str, serializers.Field] = super().get_fields()
        for tiebreaker in tiebreakers():  # one field each, in their order (tournament.TIEBREAKERS)
            fields[tiebreaker.key] = serializers.FloatField(help_text=f"{tiebreaker.label}, 0–1, 4 places")
        return fields


class PenaltyInputSerializer(serializers.ModelSerializer):
    """A penalty, with the model's own bounds (the note's length, the kinds)."""

    serializer_field_mapping = {
        **serializers.ModelSerializer.serializer_field_mapping,
        models.CharField: StrictCharField,
    }
    player = serializers.IntegerField(min_value=1, max_value=MAX_ID)

    class Meta:
        model = Penalty
        fields = ["player", "kind", "note"]


class PenaltyOutputSerializer(serializers.Serializer):
    id = serializers.IntegerField(source="pk")
    player = serializers.IntegerField(source="player_id")
    name = serializers.CharField(source="player.name")
    kind = serializers.CharField()
    note = serializers.CharField()
    round = serializers.IntegerField(source="round_number", allow_null=True)
    table = serializers.IntegerField(
        source="match.table", allow_null=True, help_text="The table whose match it applied to, if any"
    )
    by = serializers.CharField(source="by.username", allow_null=True)
    at = serializers.DateTimeField()


class ExportPlayerSerializer(serializers.Serializer):
    id = serializers.IntegerField(source="pk")
    name = serializers.CharField()
    legal = serializers.BooleanField()
    general = serializers.CharField(help_text="The card code of the list's general, empty when it has none")
    checked_in = serializers.BooleanField()
    dropped = serializers.BooleanField()
    list = serializers.CharField(
        source="submission.text", allow_null=True, help_text="The list as sent (null if it was removed)"
    )


class ReportSerializer(serializers.Serializer):
    player = serializers.IntegerField(source="player_id")
    wins = serializers.IntegerField()
    losses = serializers.IntegerField()
    draws = serializers.IntegerField()


class ExportPairingSerializer(PairingSerializer):
    decided_by = serializers.CharField(help_text="agreed, organiser, bye, or empty while open")
    reports = ReportSerializer(many=True, help_text="What each player reported, games from their own side")


class ExportRoundSerializer(RoundOutputSerializer):
    started = serializers.DateTimeField()
    pairings = ExportPairingSerializer(many=True, source="matches")


class DayChangeSerializer(serializers.Serializer):
    kind = serializers.CharField()
    round = serializers.IntegerField(source="round_number", allow_null=True)
    table = serializers.IntegerField(allow_null=True)
    players = serializers.ListField(child=serializers.IntegerField())
    by = serializers.CharField(source="by.username", allow_null=True)
    at = serializers.DateTimeField()


class EventExportSerializer(serializers.Serializer):
    """The whole event, for the organiser's records or another tool (README "After the event")."""

    exported_at = serializers.DateTimeField()
    event = EventOutputSerializer()
    players = ExportPlayerSerializer(many=True)
    rounds = ExportRoundSerializer(many=True)
    standings = StandingSerializer(many=True)
    penalties = PenaltyOutputSerializer(many=True)
    changes = DayChangeSerializer(many=True, help_text="What organisers changed by hand, newest first")
