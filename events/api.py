"""The tournament day over the API: /api/events/ and everything under an event.

Token or session. Everything under an event is its organiser's and co-organisers' (a 404 to
anyone else), except that a player of the event reports their own match.
"""

from __future__ import annotations

from typing import Any, cast

from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from django.core.exceptions import ValidationError as DjangoValidationError
from django.shortcuts import get_object_or_404
from django.utils import timezone
from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiResponse, PolymorphicProxySerializer, extend_schema
from rest_framework import status
from rest_framework.exceptions import NotAuthenticated, NotFound, PermissionDenied, ValidationError
from rest_framework.permissions import IsAuthenticated, IsAuthenticatedOrReadOnly
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from events import day, services, tools
from events.directory_api import (
    LISTED_PARAMETERS,
    ListedEventDetailSerializer,
    ListedEventPageSerializer,
    ListedQuerySerializer,
    listed_detail,
    listed_page,
)
from events.models import (
    DeckCheck,
    Event,
    Match,
    Player,
    Round,
)
from events.serializers import (
    ClockInputSerializer,
    DeckCheckInputSerializer,
    DeckCheckSerializer,
    EventExportSerializer,
    EventInputSerializer,
    EventOutputSerializer,
    PairingSerializer,
    PenaltyInputSerializer,
    PenaltyOutputSerializer,
    PlayerInputSerializer,
    PlayerOutputSerializer,
    PlayerPatchSerializer,
    ResultInputSerializer,
    RoundOutputSerializer,
    StandingSerializer,
    TableInputSerializer,
)
from tournament import tiebreakers

ERROR = OpenApiResponse(OpenApiTypes.OBJECT, description="{field: [messages]} or {detail: message}")


def _event(request: Request, event_id: int) -> Event:
    event = day.events_run_by(request.user).filter(pk=event_id).first()
    if event is None:
        raise NotFound(_("No such event."))
    return event


def _refused(exc: day.TournamentError) -> ValidationError:
    return ValidationError({"detail": [str(exc)]})


# --- events ------------------------------------------------------------------------------------


# The list's two answers: the events I organise or judge, or (?listed=1) a page of listed events.
EVENT_LIST_ANSWER = PolymorphicProxySerializer(
    component_name="EventListAnswer",
    serializers=[EventOutputSerializer(many=True), ListedEventPageSerializer],
    resource_type_field_name=None,
    many=False,
)


class EventListView(APIView):
    # Reading `?listed=1` is anyone's; the events I run are mine (401 without logging in).
    permission_classes = [IsAuthenticatedOrReadOnly]

    @extend_schema(
        parameters=LISTED_PARAMETERS,
        responses={200: EVENT_LIST_ANSWER, 400: ERROR, 401: ERROR},
        operation_id="events_list",
        description="The events I organise or judge (a list); with `?listed=1`, listed events for anyone, "
        "soonest first, in cursor pages.",
    )
    def get(self, request: Request) -> Response:
        if "listed" in request.query_params:
            return listed_page(request, self)
        ListedQuerySerializer(data=request.query_params).is_valid(raise_exception=True)  # what the schema says
        if not request.user.is_authenticated:
            raise NotAuthenticated
        events = day.events_run_by(request.user).order_by("-deadline", "-pk")[:200]
        return Response(EventOutputSerializer(events, many=True).data)

    @extend_schema(request=EventInputSerializer, responses={201: EventOutputSerializer, 400: ERROR, 401: ERROR})
    def post(self, request: Request) -> Response:
        payload = EventInputSerializer(data=request.data, context={"request": request})
        payload.is_valid(raise_exception=True)
        event = Event.objects.create(organiser=cast(User, request.user), **payload.validated_data)
        return Response(EventOutputSerializer(event).data, status=status.HTTP_201_CREATED)


EVENT_ANSWER = PolymorphicProxySerializer(
    component_name="EventAnswer",
    serializers=[EventOutputSerializer, ListedEventDetailSerializer],
    resource_type_field_name=None,
    many=False,
)


class EventDetailView(APIView):
    permission_classes = [IsAuthenticatedOrReadOnly]  # a listed event is anyone's to read

    @extend_schema(
        responses={200: EVENT_ANSWER, 404: ERROR},
        description="To its organisers, the event's settings; to anyone else, a listed event's public fields "
        "(and its placings once finished).",
    )
    def get(self, request: Request, event_id: int) -> Response:
        if request.user.is_authenticated:
            mine = day.events_run_by(request.user).filter(pk=event_id).first()
            if mine is not None:
                return Response(EventOutputSerializer(mine).data)
        listed = Event.objects.listed().select_related("organiser").filter(pk=event_id).first()
        if listed is None:
            raise NotFound(_("No such event."))
        return listed_detail(listed)

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


def standing_rows(event: Event) -> list[dict[str, Any]]:
    """The standings as StandingSerializer takes them: tie-breakers to four places."""
    names = dict(event.players.values_list("pk", "name"))
    return [
        {"rank": row.rank, "player": row.player, "name": names[row.player], "points": row.points}
        | {t.key: round(float(t.value(row)), 4) for t in tiebreakers()}
        for row in day.standings_of(event)
    ]


class StandingsView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(responses={200: StandingSerializer(many=True), 401: ERROR, 404: ERROR})
    def get(self, request: Request, event_id: int) -> Response:
        event = _event(request, event_id)
        return Response(StandingSerializer(standing_rows(event), many=True).data)


# --- penalties -------------------------------------------------------------------------------------


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
