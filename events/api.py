"""The tournament day over the API: /api/events/ and everything under an event.

Token or session. Everything under an event is its organiser's and co-organisers' (a 404 to
anyone else), except that a player of the event reports their own match.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any, cast

from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from django.core.exceptions import ValidationError as DjangoValidationError
from django.db import models
from django.shortcuts import get_object_or_404
from django.utils import timezone
from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiResponse, extend_schema, extend_schema_field
from rest_framework import serializers, status
from rest_framework.exceptions import NotFound, PermissionDenied, ValidationError
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from events import day, services, tools
from events.models import (
    CLOCK_MINUTES,
    DECK_CHECK_TABLES,
    TABLE_NUMBERS,
    DeckCheck,
    Event,
    Match,
    Penalty,
    Player,
    Round,
    check_event_format,
)
from groups.models import Group
from rules_check import FORMATS
from rules_check.decklist import MAX_BYTES
from tournament import TIEBREAKERS
from webutil.fields import StrictBooleanField, StrictCharField

ERROR = OpenApiResponse(OpenApiTypes.OBJECT, description="{field: [messages]} or {detail: message}")
MAX_ID = 2**63 - 1


def _event(request: Request, event_id: int) -> Event:
    event = day.events_run_by(request.user).filter(pk=event_id).first()
    if event is None:
        raise NotFound(_("No such event."))
    return event


def _refused(exc: day.TournamentError) -> ValidationError:
    return ValidationError({"detail": [str(exc)]})


# --- events ------------------------------------------------------------------------------------


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
        ]

    def validate_group(self, value: int | None) -> Group | None:
        if value is None:
            return None
        group = Group.objects.of(self.context["request"].user).filter(pk=value).first()
        if group is None:
            raise ValidationError(_("No such group of yours."))
        return group

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
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

    @extend_schema_field(OpenApiTypes.INT)
    def get_rounds(self, event: Event) -> int:
        return day.planned_rounds(event)


class EventListView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(responses={200: EventOutputSerializer(many=True), 401: ERROR})
    def get(self, request: Request) -> Response:
        events = day.events_run_by(request.user).order_by("-deadline", "-pk")[:200]
        return Response(EventOutputSerializer(events, many=True).data)

    @extend_schema(request=EventInputSerializer, responses={201: EventOutputSerializer, 400: ERROR, 401: ERROR})
    def post(self, request: Request) -> Response:
        payload = EventInputSerializer(data=request.data, context={"request": request})
        payload.is_valid(raise_exception=True)
        event = Event.objects.create(organiser=cast(User, request.user), **payload.validated_data)
        return Response(EventOutputSerializer(event).data, status=status.HTTP_201_CREATED)


class EventDetailView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(responses={200: EventOutputSerializer, 401: ERROR, 404: ERROR})
    def get(self, request: Request, event_id: int) -> Response:
        return Response(EventOutputSerializer(_event(request, event_id)).data)

    @extend_schema(
        request=EventInputSerializer,
        responses={200: EventOutputSerializer, 400: ERROR, 401: ERROR, 403: ERROR, 404: ERROR},
    )
    def patch(self, request: Request, event_id: int) -> Response:
        event = _event(request, event_id)
        if event.organiser_id != request.user.pk:
            raise PermissionDenied(_("Only the organiser changes the event's settings."))
        payload = EventInputSerializer(data=request.data, partial=True, context={"request": request})
        payload.is_valid(raise_exception=True)
        try:
            event = services.change_settings(event, payload.validated_data)
        except services.EventClosed as exc:
            raise ValidationError({"detail": [str(exc)]}) from None
        except DjangoValidationError as exc:  # a house format not of the event's group
            raise ValidationError(exc.message_dict) from None
        return Response(EventOutputSerializer(event).data)


# --- players -----------------------------------------------------------------------------------


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


class PlayerListView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(responses={200: PlayerOutputSerializer(many=True), 401: ERROR, 404: ERROR})
    def get(self, request: Request, event_id: int) -> Response:
        event = _event(request, event_id)
        return Response(PlayerOutputSerializer(event.players.all(), many=True).data)

    @extend_schema(
        request=PlayerInputSerializer, responses={201: PlayerOutputSerializer, 400: ERROR, 401: ERROR, 404: ERROR}
    )
    def post(self, request: Request, event_id: int) -> Response:
        event = _event(request, event_id)
        payload = PlayerInputSerializer(data=request.data)
        payload.is_valid(raise_exception=True)
        data = payload.validated_data
        if "user" in data:
            user = get_user_model().objects.filter(username=data["user"]).first()
            player = event.players.filter(user=user).first() if user else None
            if player is None:
                raise ValidationError({"user": [_("This user has sent no list to the event.")]})
        else:
            try:
                player = day.add_player(event, data["name"], data["list"], request.user)
            except day.TournamentError as exc:
                raise ValidationError({"list": [str(exc)]}) from None
            player.checked_in = False
            player.save(update_fields=["checked_in"])
        return Response(PlayerOutputSerializer(player).data, status=status.HTTP_201_CREATED)


class PlayerDetailView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        request=PlayerPatchSerializer, responses={200: PlayerOutputSerializer, 400: ERROR, 401: ERROR, 404: ERROR}
    )
    def patch(self, request: Request, event_id: int, player_id: int) -> Response:
        event = _event(request, event_id)
        player = get_object_or_404(event.players, pk=player_id)
        payload = PlayerPatchSerializer(data=request.data)
        payload.is_valid(raise_exception=True)
        if "checked_in" in payload.validated_data:
            player = day.set_checked_in(player, payload.validated_data["checked_in"])
        if "dropped" in payload.validated_data:
            player = day.set_dropped(player, payload.validated_data["dropped"], by=request.user)
        if "list" in payload.validated_data:
            try:
                player = tools.fix_list(event, player.pk, payload.validated_data["list"], request.user)
            except day.TournamentError as exc:
                raise ValidationError({"list": [str(exc)]}) from None
        seating = {k: v for k, v in payload.validated_data.items() if k in ("first_round_bye", "fixed_table")}
        if seating:
            try:
                player = day.set_seating(player, seating)
            except day.TournamentError as exc:
                raise _refused(exc) from None
        return Response(PlayerOutputSerializer(player).data)


# --- rounds and results -----------------------------------------------------------------------


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


class RoundListView(APIView):
    """GET the rounds; POST pairs the next Swiss round."""

    permission_classes = [IsAuthenticated]

    @extend_schema(responses={200: RoundOutputSerializer(many=True), 401: ERROR, 404: ERROR})
    def get(self, request: Request, event_id: int) -> Response:
        event = _event(request, event_id)
        rounds = event.tournament_rounds.prefetch_related("matches")
        return Response(RoundOutputSerializer(rounds, many=True).data)

    @extend_schema(request=None, responses={201: RoundOutputSerializer, 400: ERROR, 401: ERROR, 404: ERROR})
    def post(self, request: Request, event_id: int) -> Response:
        event = _event(request, event_id)
        try:
            round_ = day.pair_next_round(event)
        except day.TournamentError as exc:
            raise _refused(exc) from None
        return Response(RoundOutputSerializer(round_).data, status=status.HTTP_201_CREATED)


class TopCutView(APIView):
    """GET the top-cut rounds; POST pairs its next round."""

    permission_classes = [IsAuthenticated]

    @extend_schema(responses={200: RoundOutputSerializer(many=True), 401: ERROR, 404: ERROR})
    def get(self, request: Request, event_id: int) -> Response:
        event = _event(request, event_id)
        rounds = event.tournament_rounds.filter(kind="top").prefetch_related("matches")
        return Response(RoundOutputSerializer(rounds, many=True).data)

    @extend_schema(request=None, responses={201: RoundOutputSerializer, 400: ERROR, 401: ERROR, 404: ERROR})
    def post(self, request: Request, event_id: int) -> Response:
        event = _event(request, event_id)
        try:
            round_ = day.pair_top_cut(event)
        except day.TournamentError as exc:
            raise _refused(exc) from None
        return Response(RoundOutputSerializer(round_).data, status=status.HTTP_201_CREATED)


class RoundDetailView(APIView):
    """GET one round; DELETE the newest while no result is in (then pair it again)."""

    permission_classes = [IsAuthenticated]

    def _round(self, request: Request, event_id: int, number: int) -> tuple[Event, Round]:
        event = _event(request, event_id)
        round_ = event.tournament_rounds.filter(number=number).prefetch_related("matches").first()
        if round_ is None:
            raise NotFound(_("No such round."))
        return event, round_

    @extend_schema(responses={200: RoundOutputSerializer, 401: ERROR, 404: ERROR})
    def get(self, request: Request, event_id: int, number: int) -> Response:
        return Response(RoundOutputSerializer(self._round(request, event_id, number)[1]).data)

    @extend_schema(responses={204: None, 400: ERROR, 401: ERROR, 404: ERROR})
    def delete(self, request: Request, event_id: int, number: int) -> Response:
        event, _round = self._round(request, event_id, number)
        try:
            tools.delete_round(event, number, request.user)
        except day.TournamentError as exc:
            raise _refused(exc) from None
        return Response(status=status.HTTP_204_NO_CONTENT)


class PublishView(APIView):
    """Publish a draft round to the players and the venue: its clock starts now."""

    permission_classes = [IsAuthenticated]

    @extend_schema(request=None, responses={200: RoundOutputSerializer, 400: ERROR, 401: ERROR, 404: ERROR})
    def post(self, request: Request, event_id: int, number: int) -> Response:
        event = _event(request, event_id)
        try:
            round_ = tools.publish(event, number, request.user)
        except day.TournamentError as exc:
            raise _refused(exc) from None
        return Response(RoundOutputSerializer(round_).data)


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


class TableView(APIView):
    """A table of the newest Swiss round by hand: PATCH pairs two players there, gives a bye or a
    match loss; DELETE removes it (its players are unseated). Recorded with who made it."""

    permission_classes = [IsAuthenticated]

    @extend_schema(request=TableInputSerializer, responses={200: PairingSerializer, 400: ERROR, 401: ERROR, 404: ERROR})
    def patch(self, request: Request, event_id: int, number: int, table: int) -> Response:
        event = _event(request, event_id)
        payload = TableInputSerializer(data=request.data)
        payload.is_valid(raise_exception=True)
        data = payload.validated_data
        try:
            if "loss" in data:
                match = tools.match_loss(event, number, data["loss"], request.user)
            else:
                match = tools.set_table(
                    event, number, table, data["player_a"], data["player_b"], request.user, rematch=data["rematch"]
                )
        except day.TournamentError as exc:
            raise _refused(exc) from None
        return Response(PairingSerializer(match).data)

    @extend_schema(responses={204: None, 400: ERROR, 401: ERROR, 404: ERROR})
    def delete(self, request: Request, event_id: int, number: int, table: int) -> Response:
        event = _event(request, event_id)
        try:
            tools.remove_table(event, number, table, request.user)
        except day.TournamentError as exc:
            raise _refused(exc) from None
        return Response(status=status.HTTP_204_NO_CONTENT)


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


class DeckCheckView(APIView):
    """GET the round's deck checks; POST picks `tables` tables of the newest round at random."""

    permission_classes = [IsAuthenticated]

    @extend_schema(responses={200: DeckCheckSerializer(many=True), 401: ERROR, 404: ERROR})
    def get(self, request: Request, event_id: int, number: int) -> Response:
        event = _event(request, event_id)
        checks = DeckCheck.objects.filter(round__event=event, round__number=number).select_related("round", "by")
        return Response(DeckCheckSerializer([tools.with_players(c) for c in checks[:100]], many=True).data)

    @extend_schema(
        request=DeckCheckInputSerializer, responses={201: DeckCheckSerializer, 400: ERROR, 401: ERROR, 404: ERROR}
    )
    def post(self, request: Request, event_id: int, number: int) -> Response:
        event = _event(request, event_id)
        payload = DeckCheckInputSerializer(data=request.data)
        payload.is_valid(raise_exception=True)
        try:
            check = tools.deck_check(event, number, payload.validated_data["tables"], request.user)
        except day.TournamentError as exc:
            raise _refused(exc) from None
        return Response(DeckCheckSerializer(tools.with_players(check)).data, status=status.HTTP_201_CREATED)


class ClockInputSerializer(serializers.Serializer):
    action = serializers.ChoiceField(choices=list(day.CLOCK_ACTIONS))
    minutes = serializers.IntegerField(
        required=False, default=5, validators=CLOCK_MINUTES, help_text="Minutes to add (action add)"
    )


class ClockView(APIView):
    """The newest round's clock: pause, resume, add minutes, or end the round's time."""

    permission_classes = [IsAuthenticated]

    @extend_schema(
        request=ClockInputSerializer, responses={200: RoundOutputSerializer, 400: ERROR, 401: ERROR, 404: ERROR}
    )
    def post(self, request: Request, event_id: int, number: int) -> Response:
        event = _event(request, event_id)
        round_ = event.tournament_rounds.filter(number=number).first()
        if round_ is None:
            raise NotFound(_("No such round."))
        payload = ClockInputSerializer(data=request.data)
        payload.is_valid(raise_exception=True)
        try:
            round_ = day.clock(round_, payload.validated_data["action"], payload.validated_data["minutes"])
        except day.TournamentError as exc:
            raise _refused(exc) from None
        return Response(RoundOutputSerializer(round_).data)


class ResultInputSerializer(serializers.Serializer):
    table = serializers.IntegerField(validators=TABLE_NUMBERS)
    player = serializers.IntegerField(
        min_value=1, max_value=MAX_ID, required=False, help_text="Whose side the games are from (player A when omitted)"
    )
    wins = serializers.IntegerField(min_value=0, max_value=3)
    losses = serializers.IntegerField(min_value=0, max_value=3)
    draws = serializers.IntegerField(min_value=0, max_value=3, default=0)


class ResultView(APIView):
    """An organiser's result (it stands), or a player's own report (it stands once both agree)."""

    permission_classes = [IsAuthenticated]

    @extend_schema(
        request=ResultInputSerializer,
        responses={200: PairingSerializer, 400: ERROR, 401: ERROR, 403: ERROR, 404: ERROR},
    )
    def post(self, request: Request, event_id: int, number: int) -> Response:
        event = Event.objects.filter(pk=event_id).first()
        organiser = event is not None and day.runs(event, request.user)
        mine = Player.objects.filter(event_id=event_id, user=cast(User, request.user)).first() if event else None
        if event is None or not (organiser or mine):
            raise NotFound(_("No such event."))
        payload = ResultInputSerializer(data=request.data)
        payload.is_valid(raise_exception=True)
        data = payload.validated_data
        match = Match.objects.filter(round__event=event, round__number=number, table=data["table"]).first()
        if match is None:
            raise NotFound(_("No such table."))
        side = Player.objects.filter(event=event, pk=data["player"]).first() if "player" in data else None
        if "player" in data and side is None:
            raise ValidationError({"player": [_("No such player in this event.")]})
        try:
            if organiser:
                match = day.enter_result(match, data["wins"], data["losses"], data["draws"], side=side)
            else:
                assert mine is not None
                if side is not None and side.pk != mine.pk:
                    raise PermissionDenied(_("You can report only your own match."))
                match = day.report(match, mine, data["wins"], data["losses"], data["draws"])
        except day.TournamentError as exc:
            raise _refused(exc) from None
        return Response(PairingSerializer(match).data)


class StandingSerializer(serializers.Serializer):
    rank = serializers.IntegerField()
    player = serializers.IntegerField()
    name = serializers.CharField()
    points = serializers.IntegerField()

    def get_fields(self) -> dict[str, serializers.Field]:
        fields: dict[str, serializers.Field] = super().get_fields()
        for tiebreaker in TIEBREAKERS:  # one field each, in their order (tournament.TIEBREAKERS)
            fields[tiebreaker.key] = serializers.FloatField(help_text=f"{tiebreaker.label}, 0–1, 4 places")
        return fields


def standing_rows(event: Event) -> list[dict[str, Any]]:
    """The standings as StandingSerializer takes them: tie-breakers to four places."""
    names = dict(event.players.values_list("pk", "name"))
    return [
        {"rank": row.rank, "player": row.player, "name": names[row.player], "points": row.points}
        | {t.key: round(float(t.value(row)), 4) for t in TIEBREAKERS}
        for row in day.standings_of(event)
    ]


class StandingsView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(responses={200: StandingSerializer(many=True), 401: ERROR, 404: ERROR})
    def get(self, request: Request, event_id: int) -> Response:
        event = _event(request, event_id)
        return Response(StandingSerializer(standing_rows(event), many=True).data)


# --- penalties -------------------------------------------------------------------------------------


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


class PenaltyListView(APIView):
    """The event's penalty log: organisers see and add to all of it, a player sees their own."""

    permission_classes = [IsAuthenticated]

    @extend_schema(responses={200: PenaltyOutputSerializer(many=True), 401: ERROR, 404: ERROR})
    def get(self, request: Request, event_id: int) -> Response:
        event = Event.objects.filter(pk=event_id).first()
        if event is not None and day.runs(event, request.user):
            penalties = event.penalties.all()
        elif event is not None and event.players.filter(user=cast(User, request.user)).exists():
            penalties = event.penalties.filter(player__user=cast(User, request.user))
        else:
            raise NotFound(_("No such event."))
        penalties = penalties.select_related("player", "match", "by")[:1000]
        return Response(PenaltyOutputSerializer(penalties, many=True).data)

    @extend_schema(
        request=PenaltyInputSerializer,
        responses={201: PenaltyOutputSerializer, 400: ERROR, 401: ERROR, 404: ERROR},
    )
    def post(self, request: Request, event_id: int) -> Response:
        event = _event(request, event_id)
        payload = PenaltyInputSerializer(data=request.data)
        payload.is_valid(raise_exception=True)
        data = payload.validated_data
        try:
            penalty = tools.give_penalty(event, data["player"], data["kind"], data.get("note", ""), request.user)
        except day.TournamentError as exc:
            raise ValidationError({"player": [str(exc)]}) from None
        return Response(PenaltyOutputSerializer(penalty).data, status=status.HTTP_201_CREATED)


# --- after the event -----------------------------------------------------------------------------


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


class ExportView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(responses={200: EventExportSerializer, 401: ERROR, 404: ERROR})
    def get(self, request: Request, event_id: int) -> Response:
        event = _event(request, event_id)
        whole = {
            "exported_at": timezone.now(),
            "event": event,
            "players": event.players.select_related("submission").order_by("pk"),
            "rounds": event.tournament_rounds.prefetch_related("matches__reports"),
            "standings": standing_rows(event),
            "penalties": event.penalties.select_related("player", "match", "by"),
            "changes": event.day_changes.select_related("by"),
        }
        response = Response(EventExportSerializer(whole).data)
        response["Content-Disposition"] = f'inline; filename="event-{event.pk}.json"'
        return response
