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
from rest_framework.exceptions import APIException, NotFound, ValidationError
from rest_framework.parsers import MultiPartParser
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from catalog import scans as readings
from catalog.api import CARD_FILTER_PARAMETERS, ERRORS, refuse_blank_values
from catalog.filters import CardFilter
from catalog.images import IMAGE
from catalog.models import Card, Scan
from collection import queries, scans
from collection.models import MAX_COPIES
from collection.services import CountError, change_counts, set_counts
from scanning.facts import PREFILL
from scanning.matching import SURE
from webutil.api_errors import refusal
from webutil.bounds import accepts
from webutil.fields import StrictCharField

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


# --- counting by photo ------------------------------------------------------------------------------


class ScanInputSerializer(serializers.Serializer):
    image = serializers.FileField(
        help_text=f"A photo of one card or a spread: JPEG, PNG, WebP or HEIC, at most {IMAGE.shown}"
    )
    # Paper sheets are an event's, sent from its page by its organiser or judges, never here.
    purpose = serializers.ChoiceField(
        choices=[Scan.Purpose.COLLECTION, Scan.Purpose.PROPOSAL],
        default=Scan.Purpose.COLLECTION,
        help_text="collection: count my cards; proposal: read one card's face to propose its facts",
    )
    card = StrictCharField(
        max_length=60, required=False, allow_blank=True, help_text="The card photographed (its code): for a proposal"
    )

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        if attrs["purpose"] != Scan.Purpose.PROPOSAL:
            attrs.pop("card", None)
            return attrs
        code = attrs.get("card")
        card = Card.objects.by_code(code) if code else None
        if card is None:
            message = _("No card with the code “%(code)s”.") % {"code": code[:40]} if code else _("Which card is it?")
            raise ValidationError({"card": [message]})
        attrs["card"] = card
        return attrs


class ScanAlternativeSerializer(serializers.Serializer):
    card = serializers.CharField(help_text="A card's code")
    confidence = serializers.FloatField()


class ScanCardSerializer(serializers.Serializer):
    card = serializers.CharField(help_text="The catalogue card found (its code)")
    confidence = serializers.FloatField(help_text=f"0 to 1; at or above {SURE} it is shown as sure")
    box = serializers.ListField(
        child=serializers.IntegerField(), help_text="[x0, y0, x1, y1] in pixels of the photo after its EXIF rotation"
    )
    text = serializers.CharField(help_text="What was read there")
    alternatives = ScanAlternativeSerializer(many=True)


class ScanUnmatchedSerializer(serializers.Serializer):
    text = serializers.CharField()
    box = serializers.ListField(child=serializers.IntegerField())


class ScanFactSerializer(serializers.Serializer):
    value = serializers.JSONField(help_text="What was read, as the proposal API takes it")
    confidence = serializers.FloatField(help_text=f"0 to 1; the proposal form is filled from {PREFILL} up")


class ScanOutputSerializer(serializers.Serializer):
    """A scan: this serializer both produces the answer and documents it."""

    id = serializers.IntegerField(source="pk")
    purpose = serializers.ChoiceField(choices=Scan.Purpose.values)
    card = serializers.CharField(source="card.code", default=None, allow_null=True, help_text="For a proposal")
    status = serializers.ChoiceField(choices=Scan.Status.values)
    cards = ScanCardSerializer(many=True, source="result.cards", default=list)
    unmatched = ScanUnmatchedSerializer(many=True, source="result.unmatched", default=list)
    facts = serializers.DictField(
        child=ScanFactSerializer(),
        source="result.facts",
        default=dict,
        help_text="For a proposal: the facts read from the card's face, by fact name",
    )
    error = serializers.CharField(
        source="error_message", help_text="Why the photo could not be read, in the reader's language"
    )
    created = serializers.DateTimeField()
    applied = serializers.BooleanField(help_text="Its cards were added to the collection")


class ScanAdditionSerializer(serializers.Serializer):
    card = StrictCharField(max_length=60, help_text="A card's code")
    add = serializers.IntegerField(min_value=0, max_value=MAX_COPIES, default=0)
    add_foil = serializers.IntegerField(min_value=0, max_value=MAX_COPIES, default=0)


class ScanApplyInputSerializer(serializers.Serializer):
    cards = serializers.ListField(child=ScanAdditionSerializer(), max_length=200)


class ScanAppliedSerializer(serializers.Serializer):
    added = serializers.IntegerField(help_text="Copies added to the collection")


def _scan_refused(exc: scans.ScanError) -> APIException:
    return refusal(exc.status, exc.message, "image")


def _my_scan(request: Request, scan_id: int) -> Scan:
    user: Any = request.user  # IsAuthenticated: a user, not the anonymous one
    scan = Scan.objects.filter(pk=scan_id, user=user).first()
    if scan is None:
        raise NotFound(_("No such scan."))
    return scan


@accepts(IMAGE)
class ScanListView(APIView):
    """Send a photo of my cards (or, purpose proposal, of one card's face): it is read in the
    background; GET the scan for what was found."""

    permission_classes = [IsAuthenticated]
    parser_classes = [MultiPartParser]

    @extend_schema(
        request={"multipart/form-data": ScanInputSerializer},
        responses={202: ScanOutputSerializer, 400: ERRORS[400], 401: UNAUTHORIZED, 429: ERRORS[400]},
    )
    def post(self, request: Request) -> Response:
        payload = ScanInputSerializer(data=request.data)
        payload.is_valid(raise_exception=True)
        try:
            data = payload.validated_data
            scan = readings.start(request.user, data["image"], data["purpose"], data.get("card"))
        except scans.ScanError as exc:
            raise _scan_refused(exc) from None
        return Response(ScanOutputSerializer(scan).data, status=202)


class ScanDetailView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(responses={200: ScanOutputSerializer, 401: UNAUTHORIZED, 404: ERRORS[404]})
    def get(self, request: Request, scan_id: int) -> Response:
        return Response(ScanOutputSerializer(_my_scan(request, scan_id)).data)


class ScanApplyView(APIView):
    """Add the checked cards of a read scan to my collection (`add` and `add_foil` as in the
    collection API); a scan is applied once."""

    permission_classes = [IsAuthenticated]

    @extend_schema(
        request=ScanApplyInputSerializer,
        responses={200: ScanAppliedSerializer, 400: ERRORS[400], 401: UNAUTHORIZED, 404: ERRORS[404], 409: ERRORS[400]},
    )
    def post(self, request: Request, scan_id: int) -> Response:
        _my_scan(request, scan_id)
        payload = ScanApplyInputSerializer(data=request.data)
        payload.is_valid(raise_exception=True)
        additions = []
        for item in payload.validated_data["cards"]:
            card = Card.objects.by_code(item["card"])
            if card is None:
                raise ValidationError({"cards": [_("No card with the code “%(code)s”.") % {"code": item["card"][:40]}]})
            additions.append(scans.Addition(card, item["add"], item["add_foil"]))
        try:
            added = scans.apply(request.user, scan_id, additions)
        except scans.ScanError as exc:
            raise _scan_refused(exc) from None
        return Response(ScanAppliedSerializer({"added": added}).data)
