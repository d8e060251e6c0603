"""Play groups and their league over the API: /api/groups/ and everything under a group.

Token or session, logged in. A group is a 404 to anyone who is not a member; what only its owner
does (add, remove, delete) is a 403 to a member.
"""

from __future__ import annotations

import datetime
from typing import Any

from django.core.exceptions import ValidationError as DjangoValidationError
from django.db.models import Prefetch
from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import serializers, status
from rest_framework.exceptions import NotFound, PermissionDenied, ValidationError
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from decks.api.decks import LIST_PARAMETERS, DeckListView, DeckPageSerializer
from decks.models import Deck, DeckQuerySet
from groups import services as group_services
from groups.models import (
    MAX_COPY_LIMIT,
    MAX_EXCEPTIONS,
    MAX_FORMAT_NAME,
    MAX_NAME,
    MAX_SETS,
    Group,
    HouseFormat,
    Membership,
)
from league import services
from league.models import MAX_SEASON_NAME, Game, Result, Season, not_in_the_future
from league.queries import league
from league.services import chosen_season
from webutil.api_errors import Conflict
from webutil.fields import StrictCharField

ERROR = OpenApiResponse(OpenApiTypes.OBJECT, description="{field: [messages]} or {detail: message}")
MAX_ID = 2**63 - 1
MAX_GAMES = 200  # the newest games a list answers


def _group(request: Request, group_id: int) -> Group:
    group = Group.objects.of(request.user).select_related("owner").filter(pk=group_id).first()
    if group is None:
        raise NotFound(_("No such group."))
    return group


def _refused(exc: Exception) -> Exception:
    if isinstance(exc, group_services.FormatInUse):
        return Conflict(str(exc))
    if isinstance(exc, group_services.NotAllowed | services.NotAllowed):
        return PermissionDenied(str(exc))
    if isinstance(exc, group_services.NotFound):
        return NotFound(str(exc))
    return ValidationError({"detail": [str(exc)]})


# --- groups ------------------------------------------------------------------------------------


class GroupInputSerializer(serializers.Serializer):
    name = StrictCharField(max_length=MAX_NAME)


class GroupSerializer(serializers.ModelSerializer):
    """A group as its members see it; the invite link's token only for its owner."""

    owner = serializers.CharField(source="owner.username")
    members = serializers.IntegerField(source="member_count", help_text="How many members it has")
    invite = serializers.SerializerMethodField(help_text="The invite token (owner only; null for a member)")

    class Meta:
        model = Group
        fields = ["id", "name", "owner", "members", "invite", "created"]

    def get_invite(self, group: Group) -> str | None:
        return group.invite if group.owner_id == self.context["user"].pk else None


class MemberSerializer(serializers.ModelSerializer):
    user = serializers.CharField(source="user.username")

    class Meta:
        model = Membership
        fields = ["user", "role", "joined"]


class GroupDetailSerializer(GroupSerializer):
    member_list = MemberSerializer(source="memberships", many=True, read_only=True)

    class Meta(GroupSerializer.Meta):
        fields = [*GroupSerializer.Meta.fields, "member_list"]


def _answer(request: Request, group: Group, detail: bool = False) -> dict[str, Any]:
    group = (
        Group.objects.with_member_count()
        .select_related("owner")
        .prefetch_related(Prefetch("memberships", Membership.objects.select_related("user")))
        .get(pk=group.pk)
    )
    kind = GroupDetailSerializer if detail else GroupSerializer
    return dict(kind(group, context={"user": request.user}).data)


class GroupListView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(responses={200: GroupSerializer(many=True), 401: ERROR}, operation_id="groups_list")
    def get(self, request: Request) -> Response:
        groups = Group.objects.of(request.user).with_member_count().select_related("owner")
        return Response(GroupSerializer(groups, many=True, context={"user": request.user}).data)

    @extend_schema(request=GroupInputSerializer, responses={201: GroupSerializer, 400: ERROR, 401: ERROR})
    def post(self, request: Request) -> Response:
        payload = GroupInputSerializer(data=request.data)
        payload.is_valid(raise_exception=True)
        try:
            group = group_services.create_group(request.user, payload.validated_data["name"])
        except group_services.GroupError as exc:
            raise _refused(exc) from None
        return Response(_answer(request, group), status=status.HTTP_201_CREATED)


class GroupDetailView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(responses={200: GroupDetailSerializer, 401: ERROR, 404: ERROR})
    def get(self, request: Request, group_id: int) -> Response:
        return Response(_answer(request, _group(request, group_id), detail=True))

    @extend_schema(request=GroupInputSerializer, responses={200: GroupSerializer, 400: ERROR, 403: ERROR, 404: ERROR})
    def patch(self, request: Request, group_id: int) -> Response:
        group = _group(request, group_id)
        payload = GroupInputSerializer(data=request.data)
        payload.is_valid(raise_exception=True)
        try:
            group_services.rename(group, request.user, payload.validated_data["name"])
        except group_services.GroupError as exc:
            raise _refused(exc) from None
        return Response(_answer(request, group))

    @extend_schema(responses={204: None, 401: ERROR, 403: ERROR, 404: ERROR})
    def delete(self, request: Request, group_id: int) -> Response:
        try:
            group_services.delete_group(_group(request, group_id), request.user)
        except group_services.GroupError as exc:
            raise _refused(exc) from None
        return Response(status=status.HTTP_204_NO_CONTENT)


class InviteSerializer(serializers.Serializer):
    invite = StrictCharField(max_length=64)


class JoinView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        request=InviteSerializer,
        responses={201: GroupSerializer, 200: GroupSerializer, 400: ERROR, 401: ERROR, 404: ERROR},
        description="Join by the invite token: 201 when the caller is new to the group, 200 when a member already.",
    )
    def post(self, request: Request) -> Response:
        payload = InviteSerializer(data=request.data)
        payload.is_valid(raise_exception=True)
        try:
            group, new = group_services.join(request.user, payload.validated_data["invite"])
        except (group_services.GroupError, group_services.NotFound) as exc:
            raise _refused(exc) from None
        return Response(_answer(request, group), status=status.HTTP_201_CREATED if new else status.HTTP_200_OK)


class InviteView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(request=None, responses={200: GroupSerializer, 401: ERROR, 403: ERROR, 404: ERROR})
    def post(self, request: Request, group_id: int) -> Response:
        """A new invite token; the old one stops working at once (owner only)."""
        try:
            group = group_services.replace_invite(_group(request, group_id), request.user)
        except group_services.GroupError as exc:
            raise _refused(exc) from None
        return Response(_answer(request, group))


class AddMemberSerializer(serializers.Serializer):
    user = StrictCharField(max_length=150, help_text="A username")


class MemberListView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(responses={200: MemberSerializer(many=True), 401: ERROR, 404: ERROR})
    def get(self, request: Request, group_id: int) -> Response:
        group = _group(request, group_id)
        return Response(MemberSerializer(group.memberships.select_related("user"), many=True).data)

    @extend_schema(request=AddMemberSerializer, responses={201: MemberSerializer, 400: ERROR, 403: ERROR, 404: ERROR})
    def post(self, request: Request, group_id: int) -> Response:
        group = _group(request, group_id)
        payload = AddMemberSerializer(data=request.data)
        payload.is_valid(raise_exception=True)
        try:
            user = group_services.add_member(group, request.user, payload.validated_data["user"])
        except group_services.GroupError as exc:
            raise _refused(exc) from None
        membership = Membership.objects.select_related("user").get(group=group, user=user)
        return Response(MemberSerializer(membership).data, status=status.HTTP_201_CREATED)


class MemberDetailView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        parameters=[
            OpenApiParameter(
                "new_invite",
                {"type": "integer", "enum": [0, 1]},
                description="1: the owner also replaces the invite link, so the old one lets nobody join",
            )
        ],
        responses={204: None, 400: ERROR, 401: ERROR, 403: ERROR, 404: ERROR},
    )
    def delete(self, request: Request, group_id: int, username: str) -> Response:
        """Leave the group (your own username), or, as its owner, remove a member: their games
        not yet confirmed are void."""
        renew = request.query_params.get("new_invite", "0")
        if renew not in ("0", "1"):
            raise ValidationError({"new_invite": [_("must be 0 or 1")]})
        try:
            group = _group(request, group_id)
            leaving = username == request.user.username
            group_services.remove_member(group, request.user, username, replace_invite=renew == "1" and not leaving)
        except (group_services.GroupError, group_services.NotFound) as exc:
            raise _refused(exc) from None
        return Response(status=status.HTTP_204_NO_CONTENT)


# --- house formats -----------------------------------------------------------------------------


class HouseFormatSerializer(serializers.ModelSerializer):
    """A house format: its key (what decks, the checker and events take as `format`) and its rules,
    in the fields of rules_check/formats.json."""

    key = serializers.CharField(read_only=True, help_text="g<group id>-<slug>: the `format` of a deck or a check")
    copy_limits = serializers.DictField(
        child=serializers.IntegerField(), help_text="Card code or same-name key → its own copy limit (0: banned)"
    )
    banned = serializers.ListField(child=serializers.CharField(), help_text="Cards banned: codes or same-name keys")
    sets = serializers.ListField(child=serializers.CharField(), help_text="Set codes allowed; [] allows every set")

    class Meta:
        model = HouseFormat
        fields = [
            "id",
            "key",
            "name",
            "min_cards",
            "max_cards",
            "copy_limit",
            "copy_limits",
            "banned",
            "sets",
            "updated",
        ]


class HouseFormatInputSerializer(serializers.ModelSerializer):
    """A house format's rules; the bounds are the model fields' (groups.models). Cards are named by
    code or by name in either script; sets by code."""

    name = StrictCharField(max_length=MAX_FORMAT_NAME)
    copy_limits = serializers.DictField(
        child=serializers.IntegerField(min_value=0, max_value=MAX_COPY_LIMIT),
        required=False,
        help_text="Card (code or name) → its own copy limit; 0 bans it",
    )
    banned = serializers.ListField(
        child=StrictCharField(max_length=60),
        required=False,
        max_length=MAX_EXCEPTIONS,
        help_text="Cards banned (code or name): a shorthand for a limit of 0",
    )
    sets = serializers.ListField(
        child=StrictCharField(max_length=8),
        required=False,
        max_length=MAX_SETS,
        help_text="Set codes allowed (YXJQ, LSHJ, GMGD, WD); [] or absent: every set",
    )

    class Meta:
        model = HouseFormat
        fields = ["name", "min_cards", "max_cards", "copy_limit", "copy_limits", "banned", "sets"]

    def validate_copy_limits(self, value: dict[str, int]) -> dict[str, int]:
        if len(value) > MAX_EXCEPTIONS or any(len(key) > 60 for key in value):
            raise serializers.ValidationError(
                _("At most %(n)d cards with a limit of their own.") % {"n": MAX_EXCEPTIONS}
            )
        return value


def _house_format(group: Group, format_id: int) -> HouseFormat:
    house = HouseFormat.objects.filter(group=group, pk=format_id).select_related("group").first()
    if house is None:
        raise NotFound(_("No such format."))
    return house


def _format_refused(exc: Exception) -> Exception:
    if isinstance(exc, DjangoValidationError):
        return ValidationError(exc.message_dict if hasattr(exc, "error_dict") else {"detail": exc.messages})
    return _refused(exc)


class HouseFormatListView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(responses={200: HouseFormatSerializer(many=True), 401: ERROR, 404: ERROR})
    def get(self, request: Request, group_id: int) -> Response:
        group = _group(request, group_id)
        return Response(HouseFormatSerializer(group.formats.all(), many=True).data)

    @extend_schema(
        request=HouseFormatInputSerializer,
        responses={201: HouseFormatSerializer, 400: ERROR, 401: ERROR, 403: ERROR, 404: ERROR},
        description="The owner adds a house format; its `key` is then a `format` for the group's members.",
    )
    def post(self, request: Request, group_id: int) -> Response:
        group = _group(request, group_id)
        if group.owner_id != request.user.pk:  # before reading the rules: a member learns nothing
            raise PermissionDenied(_("Only the group's owner may do this."))
        payload = HouseFormatInputSerializer(data=request.data)
        payload.is_valid(raise_exception=True)
        try:
            house = group_services.create_format(group, request.user, dict(payload.validated_data))
        except (group_services.GroupError, DjangoValidationError) as exc:
            raise _format_refused(exc) from None
        return Response(HouseFormatSerializer(house).data, status=status.HTTP_201_CREATED)


class HouseFormatDetailView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(responses={200: HouseFormatSerializer, 401: ERROR, 404: ERROR})
    def get(self, request: Request, group_id: int, format_id: int) -> Response:
        return Response(HouseFormatSerializer(_house_format(_group(request, group_id), format_id)).data)

    @extend_schema(
        request=HouseFormatInputSerializer,
        responses={200: HouseFormatSerializer, 400: ERROR, 401: ERROR, 403: ERROR, 404: ERROR, 409: ERROR},
        description=(
            "The owner changes the rules (the key stays); the decks of the format are checked again. "
            "409 while an event whose lists are closed plays the format (a new name alone is allowed)."
        ),
    )
    def patch(self, request: Request, group_id: int, format_id: int) -> Response:
        house = _house_format(_group(request, group_id), format_id)
        if house.group.owner_id != request.user.pk:
            raise PermissionDenied(_("Only the group's owner may do this."))
        payload = HouseFormatInputSerializer(data=request.data, partial=True)
        payload.is_valid(raise_exception=True)
        try:
            house = group_services.update_format(house, request.user, dict(payload.validated_data))
        except (group_services.GroupError, DjangoValidationError) as exc:
            raise _format_refused(exc) from None
        return Response(HouseFormatSerializer(house).data)

    @extend_schema(responses={204: None, 401: ERROR, 403: ERROR, 404: ERROR, 409: ERROR})
    def delete(self, request: Request, group_id: int, format_id: int) -> Response:
        """Delete a house format (owner only): its decks move to the standard format. 409 while an
        event whose lists are closed plays it."""
        try:
            group_services.delete_format(_house_format(_group(request, group_id), format_id), request.user)
        except group_services.GroupError as exc:
            raise _refused(exc) from None
        return Response(status=status.HTTP_204_NO_CONTENT)


# --- shared decks ------------------------------------------------------------------------------


class GroupDeckListView(DeckListView):
    """The decks the group's members share with it, as in /api/decks/ (filters, sorts, pages)."""

    permission_classes = [IsAuthenticated]
    http_method_names = ["get", "head", "options"]
    group: Group

    def get_queryset(self, request: Request) -> DeckQuerySet:
        for flag in ("buildable", "legal"):
            if request.query_params.get(flag, "0") not in ("0", "1"):
                raise ValidationError({flag: [_("must be 0 or 1")]})
        return Deck.objects.shared_with(self.group)

    @extend_schema(
        parameters=LIST_PARAMETERS,
        responses={200: DeckPageSerializer, 400: ERROR, 401: ERROR, 404: ERROR},
        operation_id="groups_decks_list",
    )
    def get(self, request: Request, group_id: int) -> Response:  # type: ignore[override]  # the group's id in the path
        self.group = _group(request, group_id)
        return super().get(request)


# --- the league --------------------------------------------------------------------------------


class GameInputSerializer(serializers.Serializer):
    players = serializers.ListField(
        child=StrictCharField(max_length=150), min_length=2, max_length=2, help_text="The two players' usernames"
    )
    decks = serializers.ListField(
        child=serializers.IntegerField(min_value=1, max_value=MAX_ID, allow_null=True),
        min_length=2,
        max_length=2,
        required=False,
        help_text="The decks they played, in the players' order (null: not saved here)",
    )
    winner = StrictCharField(max_length=150, allow_null=True, help_text="A player's username, or null for a draw")
    played_on = serializers.DateField(required=False, validators=[not_in_the_future])


class GameSerializer(serializers.ModelSerializer):
    players = serializers.SerializerMethodField()
    decks = serializers.SerializerMethodField()
    winner = serializers.SerializerMethodField(help_text="A player's username; null for a draw")

    class Meta:
        model = Game
        fields = ["id", "players", "decks", "winner", "played_on", "logged", "confirmed"]

    def get_players(self, game: Game) -> list[str]:
        return [game.player_a.username, game.player_b.username]

    def get_decks(self, game: Game) -> list[int | None]:
        return [game.deck_a_id, game.deck_b_id]

    def get_winner(self, game: Game) -> str | None:
        return {Result.A: game.player_a.username, Result.B: game.player_b.username}.get(Result(game.result))


def _games(group: Group) -> Any:
    return Game.objects.filter(group=group).select_related("player_a", "player_b")


class GameListView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(responses={200: GameSerializer(many=True), 401: ERROR, 404: ERROR})
    def get(self, request: Request, group_id: int) -> Response:
        """The group's newest games, confirmed or not."""
        return Response(GameSerializer(_games(_group(request, group_id))[:MAX_GAMES], many=True).data)

    @extend_schema(request=GameInputSerializer, responses={201: GameSerializer, 400: ERROR, 401: ERROR, 404: ERROR})
    def post(self, request: Request, group_id: int) -> Response:
        """Log a game you played; it counts once the other player confirms it."""
        group = _group(request, group_id)
        payload = GameInputSerializer(data=request.data)
        payload.is_valid(raise_exception=True)
        given = payload.validated_data
        decks = given.get("decks") or [None, None]
        sides = (services.Side(given["players"][0], decks[0]), services.Side(given["players"][1], decks[1]))
        played_on: datetime.date | None = given.get("played_on")
        try:
            game = services.log_game(group, request.user, sides, given["winner"], played_on)
        except services.GameError as exc:
            raise _refused(exc) from None
        return Response(GameSerializer(_games(group).get(pk=game.pk)).data, status=status.HTTP_201_CREATED)


def _game(group: Group, game_id: int) -> Game:
    game = _games(group).filter(pk=game_id).first()
    if game is None:
        raise NotFound(_("No such game."))
    return game


class GameDetailView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(responses={200: GameSerializer, 401: ERROR, 404: ERROR})
    def get(self, request: Request, group_id: int, game_id: int) -> Response:
        return Response(GameSerializer(_game(_group(request, group_id), game_id)).data)

    @extend_schema(responses={204: None, 401: ERROR, 403: ERROR, 404: ERROR})
    def delete(self, request: Request, group_id: int, game_id: int) -> Response:
        """A player takes back a game not yet confirmed; the group's owner deletes any game."""
        try:
            services.delete_game(_game(_group(request, group_id), game_id), request.user)
        except services.GameError as exc:
            raise _refused(exc) from None
        return Response(status=status.HTTP_204_NO_CONTENT)


class ConfirmView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        request=None,
        responses={200: GameSerializer, 401: ERROR, 403: ERROR, 404: ERROR},
        description="The other player confirms the game; a second confirmation changes nothing.",
    )
    def post(self, request: Request, group_id: int, game_id: int) -> Response:
        game = _game(_group(request, group_id), game_id)
        try:
            services.confirm(game, request.user)
        except services.GameError as exc:
            raise _refused(exc) from None
        return Response(GameSerializer(game).data)


class RecordSerializer(serializers.Serializer):
    player = serializers.CharField(source="label")
    games = serializers.IntegerField()
    wins = serializers.IntegerField()
    draws = serializers.IntegerField()
    losses = serializers.IntegerField()


class LeagueView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        parameters=[
            OpenApiParameter(
                "season",
                {"type": "string", "pattern": "^(all|[1-9][0-9]{0,9})$"},
                description="A season's id, or all; absent: the season of today, else the latest begun",
            )
        ],
        responses={200: RecordSerializer(many=True), 401: ERROR, 404: ERROR},
    )
    def get(self, request: Request, group_id: int) -> Response:
        """Each player's confirmed games, wins, draws and losses, most wins first (of a season)."""
        group = _group(request, group_id)
        try:
            season, _seasons = chosen_season(group, request.query_params.get("season"))
        except services.GameError as exc:
            raise NotFound(str(exc)) from None
        names = dict(Membership.objects.filter(group=group).values_list("user_id", "user__username"))
        table = league(group, names, request.user, season)
        return Response(RecordSerializer(table.players, many=True).data)


class LeagueSeasonSerializer(serializers.Serializer):
    """A season of the league: this serializer both produces the answer and documents it."""

    id = serializers.IntegerField(read_only=True)
    name = StrictCharField(max_length=MAX_SEASON_NAME)
    starts_on = serializers.DateField()
    ends_on = serializers.DateField()


class SeasonListView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(responses={200: LeagueSeasonSerializer(many=True), 401: ERROR, 404: ERROR})
    def get(self, request: Request, group_id: int) -> Response:
        """The league's seasons, newest first."""
        group = _group(request, group_id)
        return Response(LeagueSeasonSerializer(Season.objects.filter(group=group), many=True).data)

    @extend_schema(
        request=LeagueSeasonSerializer,
        responses={201: LeagueSeasonSerializer, 400: ERROR, 401: ERROR, 403: ERROR, 404: ERROR},
        description="The owner adds a season; seasons of a group never overlap.",
    )
    def post(self, request: Request, group_id: int) -> Response:
        group = _group(request, group_id)
        if group.owner_id != request.user.pk:
            raise PermissionDenied(_("Only the group's owner may do this."))
        payload = LeagueSeasonSerializer(data=request.data)
        payload.is_valid(raise_exception=True)
        data = payload.validated_data
        try:
            season = services.add_season(group, request.user, data["name"], data["starts_on"], data["ends_on"])
        except DjangoValidationError as exc:
            raise ValidationError(exc.message_dict) from None
        except services.GameError as exc:
            raise ValidationError({"detail": [str(exc)]}) from None
        return Response(LeagueSeasonSerializer(season).data, status=status.HTTP_201_CREATED)
