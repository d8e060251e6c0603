"""My collection over the API: /api/collection/, /api/collection/<code>/, /api/collection/stats/.

Token or session auth; anonymous requests get 401; only the requester's own rows are reachable.
"""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet
from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import generics, serializers
from rest_framework.exceptions import NotFound, ValidationError
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from catalog.api import CARD_FILTER_PARAMETERS, ERRORS, refuse_blank_values
from catalog.filters import CardFilter
from catalog.models import Card
from collection import queries
from collection.models import MAX_COPIES
from collection.services import CountError, change_counts, set_counts

UNAUTHORIZED = OpenApiResponse(OpenApiTypes.OBJECT, description="Not logged in: {detail: message}")


class CollectionEntryOutputSerializer(serializers.Serializer):
    card = serializers.CharField(source="code")
    name = serializers.CharField()
    set = serializers.CharField(source="set.code", allow_null=True, default=None)
    quantity = serializers.IntegerField(source="owned")
    foil_quantity = serializers.IntegerField(source="owned_foil")


class CountsInputSerializer(serializers.Serializer):
    quantity = serializers.IntegerField(required=False, min_value=0, max_value=MAX_COPIES)
    foil_quantity = serializers.IntegerField(required=False, min_value=0, max_value=MAX_COPIES)
    add = serializers.IntegerField(required=False, min_value=-MAX_COPIES, max_value=MAX_COPIES)
    add_foil = serializers.IntegerField(required=False, min_value=-MAX_COPIES, max_value=MAX_COPIES)

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        setting = {"quantity", "foil_quantity"} & set(attrs)
        adding = {"add", "add_foil"} & set(attrs)
        if setting and adding:
            raise ValidationError({"add": [_("Give counts to set or counts to add, not both.")]})
        if not setting and not adding:
            raise ValidationError({"quantity": [_("Give quantity/foil_quantity, or add/add_foil.")]})
        return attrs


class CollectionListView(generics.ListAPIView):
    """My cards, filtered like the catalogue (same parameters as /api/cards/)."""

    serializer_class = CollectionEntryOutputSerializer
    filterset_class = CardFilter
    permission_classes = [IsAuthenticated]

    @extend_schema(
        parameters=CARD_FILTER_PARAMETERS,
        responses={200: CollectionEntryOutputSerializer(many=True), **ERRORS, 401: UNAUTHORIZED},
    )
    def get(self, request: Request, *args: Any, **kwargs: Any) -> Any:
        refuse_blank_values(request)
        return super().get(request, *args, **kwargs)

    def get_queryset(self) -> QuerySet[Card]:
        if getattr(self, "swagger_fake_view", False):  # schema generation: no user
            return Card.objects.none()
        return queries.with_counts(queries.owned_cards(self.request.user).with_set(), self.request.user)


def _entry(user: Any, code: str) -> Card:
    card = Card.objects.by_code(code)
    if card is None:
        raise NotFound(_("No card with the code “%(code)s”.") % {"code": code[:40]})
    return queries.with_counts(Card.objects.with_set().filter(pk=card.pk), user).get()


class CollectionEntryView(APIView):
    """My copies of one card. GET answers 0/0 for a card I do not own."""

    permission_classes = [IsAuthenticated]
    serializer_class = CollectionEntryOutputSerializer

    @extend_schema(responses={200: CollectionEntryOutputSerializer, 401: UNAUTHORIZED, 404: ERRORS[404]})
    def get(self, request: Request, code: str) -> Response:
        return Response(CollectionEntryOutputSerializer(_entry(request.user, code)).data)

    @extend_schema(
        request=CountsInputSerializer,
        responses={200: CollectionEntryOutputSerializer, 400: ERRORS[400], 401: UNAUTHORIZED, 404: ERRORS[404]},
    )
    def put(self, request: Request, code: str) -> Response:
        return self._write(request, code)

    @extend_schema(
        request=CountsInputSerializer,
        responses={200: CollectionEntryOutputSerializer, 400: ERRORS[400], 401: UNAUTHORIZED, 404: ERRORS[404]},
    )
    def patch(self, request: Request, code: str) -> Response:
        return self._write(request, code)

    def _write(self, request: Request, code: str) -> Response:
        card = _entry(request.user, code)
        payload = CountsInputSerializer(data=request.data)
        payload.is_valid(raise_exception=True)
        data = payload.validated_data
        try:
            if "add" in data or "add_foil" in data:
                change_counts(
                    request.user, card, add=data.get("add", 0), add_foil=data.get("add_foil", 0), source="api"
                )
            else:
                set_counts(
                    request.user,
                    card,
                    quantity=data.get("quantity"),
                    foil_quantity=data.get("foil_quantity"),
                    source="api",
                )
        except CountError as exc:
            raise ValidationError({"detail": [str(exc)]}) from None
        return Response(CollectionEntryOutputSerializer(_entry(request.user, code)).data)


class ProgressSerializer(serializers.Serializer):
    total = serializers.IntegerField()
    owned = serializers.IntegerField()
    playsets = serializers.IntegerField()


class SetStatsSerializer(serializers.Serializer):
    set = serializers.CharField(source="set.code")
    name = serializers.CharField(source="set.name")
    overall = ProgressSerializer()
    by_tier = serializers.DictField(child=ProgressSerializer())


class CollectionStatsView(APIView):
    """Set completion: distinct cards owned and full playsets, overall and by rarity tier."""

    permission_classes = [IsAuthenticated]

    @extend_schema(responses={200: SetStatsSerializer(many=True), 401: UNAUTHORIZED})
    def get(self, request: Request) -> Response:
        return Response(SetStatsSerializer(queries.completion(request.user), many=True).data)
