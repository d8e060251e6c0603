"""Decks over the API: /api/decks/ and /api/decks/<id>/ (+ legality/, missing/, export/).

Anyone reads public decks; only the owner changes a deck. Another user's private deck is a 404.
"""

from __future__ import annotations

from typing import Any, cast

from django.contrib.auth.models import User
from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import serializers, status
from rest_framework.exceptions import NotFound, PermissionDenied, ValidationError
from rest_framework.permissions import IsAuthenticated, IsAuthenticatedOrReadOnly
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from decks import deckcode, intake, services
from decks.check_api import VerdictOutputSerializer
from decks.data import DeckData
from decks.legality import check_deck_snapshot, deck_for_rules
from decks.models import MAX_DESCRIPTION, MAX_ENTRY_COUNT, Deck, DeckQuerySet
from decks.stats import deck_view
from rules_check import FORMATS, export
from webutil.fields import StrictCharField
from webutil.pagination import StrictCursorPagination
from webutil.parsers import SafeJSONParser

ERROR = OpenApiResponse(OpenApiTypes.OBJECT, description="{field: [messages]} or {detail: message}")


class DeckEntrySerializer(serializers.Serializer):
    card = StrictCharField(max_length=60, help_text="A card code (aliases accepted)")
    count = serializers.IntegerField(min_value=1, max_value=MAX_ENTRY_COUNT)


class DeckInputSerializer(serializers.Serializer):
    name = StrictCharField(max_length=100)
    format = serializers.ChoiceField(choices=list(FORMATS), default="standard")
    general = StrictCharField(max_length=60, required=False, allow_null=True, allow_blank=True)
    cards = DeckEntrySerializer(many=True, required=False, max_length=500)  # type: ignore[call-arg]  # ListSerializer takes max_length; the stubs miss it
    reinforcements = DeckEntrySerializer(many=True, required=False, max_length=100)  # type: ignore[call-arg]  # ListSerializer takes max_length; the stubs miss it
    list = StrictCharField(required=False, max_length=64 * 1024, trim_whitespace=False, help_text="Deck-list text")
    deck_code = StrictCharField(required=False, max_length=deckcode.MAX_CODE_LENGTH)
    description = StrictCharField(required=False, allow_blank=True, max_length=MAX_DESCRIPTION)
    public = serializers.BooleanField(required=False)

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        sources = [k for k in ("list", "deck_code") if k in attrs]
        if len(sources) > 1 or (sources and {"general", "cards", "reinforcements"} & set(attrs)):
            raise ValidationError({"list": [_("Give the cards one way: cards/general, list, or deck_code.")]})
        return attrs


class DeckOutputSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    owner = serializers.CharField()
    format = serializers.CharField()
    general = serializers.CharField(allow_null=True)
    cards = DeckEntrySerializer(many=True)
    reinforcements = DeckEntrySerializer(many=True)
    description = serializers.CharField()
    public = serializers.BooleanField()
    created = serializers.DateTimeField()
    updated = serializers.DateTimeField()
    legal = serializers.BooleanField()
    main_deck_count = serializers.IntegerField()
    deck_code = serializers.CharField()


def deck_json(deck: Deck) -> dict[str, Any]:
    data = services.snapshot_of(deck)
    return {
        "id": deck.pk,
        "name": deck.name,
        "owner": deck.owner.username,
        "format": deck.format,
        "general": data.general,
        "cards": [{"card": c, "count": n} for c, n in sorted(data.main.items())],
        "reinforcements": [{"card": c, "count": n} for c, n in sorted(data.reinforcements.items())],
        "description": deck.description,
        "public": deck.public,
        "created": deck.created,
        "updated": deck.updated,
        "legal": deck.is_legal,
        "main_deck_count": deck.main_count,
        "deck_code": deckcode.encode(data.format, data.general, data.main, data.reinforcements),
    }


def _code(text: str, field: str) -> str:
    code = intake.card_code(text)
    if code is None:
        raise ValidationError({field: [_("No card “%(code)s”.") % {"code": text[:40]}]})
    return code


def _data_from(payload: dict[str, Any], base: DeckData) -> DeckData:
    """The deck a request describes, on top of `base` (PATCH keeps what it does not name)."""
    data = DeckData(
        name=payload.get("name", base.name),
        format=payload.get("format", base.format),
        general=base.general,
        main=dict(base.main),
        reinforcements=dict(base.reinforcements),
        description=payload.get("description", base.description),
    )
    for source in ("deck_code", "list"):
        if source in payload:
            try:
                if source == "deck_code":
                    read, _notes = intake.read_code(payload[source])
                else:
                    read, _notes = intake.read_list(payload[source], format_name=data.format)
            except intake.DeckInputError as exc:
                raise ValidationError({source: exc.messages}) from None
            data.format, data.general, data.main, data.reinforcements = (
                read.format,
                read.general,
                read.main,
                read.reinforcements,
            )
            return data
    if "general" in payload:
        data.general = _code(payload["general"], "general") if payload["general"] else None
    for field, target in (("cards", "main"), ("reinforcements", "reinforcements")):
        if field in payload:
            entries: dict[str, int] = {}
            for item in payload[field]:
                code = _code(item["card"], field)
                entries[code] = entries.get(code, 0) + item["count"]
            setattr(data, target, entries)
    return data


def _save(deck: Deck, data: DeckData, payload: dict[str, Any], note: str) -> Deck:
    if "public" in payload:
        deck.public = payload["public"]
    try:
        return services.save_deck(deck, data, note=note)
    except services.DeckError as exc:
        raise ValidationError({"cards": [str(exc)]}) from None


class DeckPageSerializer(serializers.Serializer):
    next = serializers.CharField(allow_null=True)
    previous = serializers.CharField(allow_null=True)
    results = DeckOutputSerializer(many=True)


class DeckListView(APIView):
    """My decks (and `?public=1` for everyone's public decks); anonymous: public decks. POST creates."""

    permission_classes = [IsAuthenticatedOrReadOnly]
    parser_classes = [SafeJSONParser]

    def get_queryset(self, request: Request) -> DeckQuerySet:
        if request.query_params.get("public", "0") not in ("0", "1"):
            raise ValidationError({"public": [_("must be 0 or 1")]})
        if request.user.is_authenticated and request.query_params.get("public") != "1":
            return Deck.objects.owned_by(request.user)
        return Deck.objects.filter(public=True)

    @extend_schema(
        parameters=[
            OpenApiParameter("public", {"type": "integer", "enum": [0, 1]}, description="1: everyone's public decks"),
            OpenApiParameter("cursor", {"type": "string", "maxLength": 200}, description="From a `next` link"),
            OpenApiParameter("page_size", {"type": "integer", "minimum": 1, "maximum": 500}),
        ],
        responses={200: DeckPageSerializer, 400: ERROR, 404: ERROR},
        operation_id="decks_list",
    )
    def get(self, request: Request) -> Response:
        services.refresh_verdicts()  # each deck's `legal` is the verdict it keeps
        paginator = StrictCursorPagination()
        decks = paginator.paginate_queryset(self.get_queryset(request).with_entries(), request, view=self)
        return paginator.get_paginated_response([deck_json(d) for d in decks or []])

    @extend_schema(request=DeckInputSerializer, responses={201: DeckOutputSerializer, 400: ERROR, 401: ERROR})
    def post(self, request: Request) -> Response:
        payload = DeckInputSerializer(data=request.data)
        payload.is_valid(raise_exception=True)
        empty = DeckData("", payload.validated_data["format"], None, {}, {})
        data = _data_from(payload.validated_data, empty)
        # IsAuthenticatedOrReadOnly lets only a logged-in user POST.
        deck = _save(Deck(owner=cast(User, request.user)), data, payload.validated_data, note="api")
        return Response(DeckOutputSerializer(deck_json(deck)).data, status=status.HTTP_201_CREATED)


def _visible(request: Request, deck_id: int) -> Deck:
    deck = Deck.objects.visible_to(request.user).select_related("owner").filter(pk=deck_id).first()
    if deck is None:
        raise NotFound(_("No such deck."))
    return deck


def _owned(request: Request, deck_id: int) -> Deck:
    deck = _visible(request, deck_id)
    if deck.owner_id != request.user.pk:
        raise PermissionDenied(_("Only its owner changes a deck."))
    return deck


class DeckDetailView(APIView):
    permission_classes = [IsAuthenticatedOrReadOnly]
    parser_classes = [SafeJSONParser]

    @extend_schema(responses={200: DeckOutputSerializer, 404: ERROR})
    def get(self, request: Request, deck_id: int) -> Response:
        return Response(DeckOutputSerializer(deck_json(_visible(request, deck_id))).data)

    @extend_schema(
        request=DeckInputSerializer,
        responses={200: DeckOutputSerializer, 400: ERROR, 401: ERROR, 403: ERROR, 404: ERROR},
    )
    def put(self, request: Request, deck_id: int) -> Response:
        return self._write(request, deck_id, partial=False)

    @extend_schema(
        request=DeckInputSerializer,
        responses={200: DeckOutputSerializer, 400: ERROR, 401: ERROR, 403: ERROR, 404: ERROR},
    )
    def patch(self, request: Request, deck_id: int) -> Response:
        return self._write(request, deck_id, partial=True)

    @extend_schema(responses={204: None, 401: ERROR, 403: ERROR, 404: ERROR})
    def delete(self, request: Request, deck_id: int) -> Response:
        _owned(request, deck_id).delete()
        return Response(status=status.HTTP_204_NO_CONTENT)

    def _write(self, request: Request, deck_id: int, partial: bool) -> Response:
        deck = _owned(request, deck_id)
        payload = DeckInputSerializer(data=request.data, partial=partial)
        payload.is_valid(raise_exception=True)
        given = payload.validated_data

        def change(current: Deck, data: DeckData) -> None:
            # On the deck as it is now, under its row lock (services.update_deck): a PATCH of the
            # name racing a PATCH of the cards keeps both, each changing only what it names.
            base = data if partial else DeckData(current.name, current.format, None, {}, {})
            vars(data).update(vars(_data_from(given, base)))
            if "public" in given:
                current.public = given["public"]

        try:
            deck = services.update_deck(deck, change, note="api")
        except services.DeckError as exc:
            raise ValidationError({"cards": [str(exc)]}) from None
        return Response(DeckOutputSerializer(deck_json(deck)).data)


class DeckLegalityView(APIView):
    permission_classes = [IsAuthenticatedOrReadOnly]

    @extend_schema(responses={200: VerdictOutputSerializer, 404: ERROR})
    def get(self, request: Request, deck_id: int) -> Response:
        deck = _visible(request, deck_id)
        return Response(VerdictOutputSerializer(check_deck_snapshot(services.snapshot_of(deck)).to_dict()).data)


class MissingSerializer(serializers.Serializer):
    card = serializers.CharField()
    name = serializers.CharField()
    needed = serializers.IntegerField()
    owned = serializers.IntegerField()
    missing = serializers.IntegerField()


class MissingOutputSerializer(serializers.Serializer):
    missing = MissingSerializer(many=True)


class DeckMissingView(APIView):
    """What the requester lacks, by their own collection, to build this deck (foils count)."""

    permission_classes = [IsAuthenticated]

    @extend_schema(responses={200: MissingOutputSerializer, 401: ERROR, 404: ERROR})
    def get(self, request: Request, deck_id: int) -> Response:
        view = deck_view(_visible(request, deck_id), request.user)
        missing = [
            {
                "card": line.card.code,
                "name": line.card.name,
                "needed": line.entry.count,
                "owned": line.owned,
                "missing": line.missing,
            }
            for line in view.missing
        ]
        return Response({"missing": missing})


class ExportOutputSerializer(serializers.Serializer):
    text = serializers.CharField()
    deck_code = serializers.CharField()


class DeckExportView(APIView):
    permission_classes = [IsAuthenticatedOrReadOnly]

    @extend_schema(responses={200: ExportOutputSerializer, 404: ERROR})
    def get(self, request: Request, deck_id: int) -> Response:
        deck = _visible(request, deck_id)
        data = services.snapshot_of(deck)
        return Response(
            {
                "text": export(deck_for_rules(data), title=deck.name, fmt=deck.format),
                "deck_code": deckcode.encode(data.format, data.general, data.main, data.reinforcements),
            }
        )
