"""Contributions over the API: propose facts of a card, add photos, and (curators) review.

A proposal is its author's and the curators' only: anyone else gets a 404.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import serializers, status
from rest_framework.exceptions import APIException, NotFound, ValidationError
from rest_framework.parsers import MultiPartParser
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from catalog import facts
from catalog.images import IMAGE
from catalog.models import Card
from contributions import services
from contributions.models import MAX_NOTE, Proposal, ProposalPhoto
from webutil.api_errors import refusal
from webutil.bounds import accepts
from webutil.fields import StrictBooleanField, StrictCharField

ERROR = OpenApiResponse(OpenApiTypes.OBJECT, description="{field: [messages]} or {detail: message}")


def _fact_schema(fact: facts.Fact) -> dict[str, Any]:
    typed = {"type": "string", "maxLength": fact.input_length, "description": fact.english}
    if fact.kind != facts.INT:
        return typed
    number = {"type": "integer", "minimum": fact.low, "maximum": fact.high}
    return {"oneOf": [number, typed], "description": fact.english}


# The facts a proposal may change (catalog.facts), each with its new value: a choice as its slug,
# its Chinese in either script or its English; a number as a number or its digits.
FACTS_SCHEMA = {
    "type": "object",
    "description": "Fact names as in the card JSON, each with its new value",
    "properties": {name: _fact_schema(fact) for name, fact in facts.PROPOSABLE.items()},
    "additionalProperties": False,
    "maxProperties": len(facts.PROPOSABLE),
}


def _refused(exc: services.ContributionError) -> APIException:
    return refusal(exc.status, exc.message, exc.fact or "detail")


class FactsField(serializers.JSONField):
    def to_internal_value(self, data: Any) -> Any:
        if not isinstance(data, dict):
            raise ValidationError(_("Facts must be an object of fact names and values."))
        return data


class ProposalInputSerializer(serializers.Serializer):
    facts = FactsField(required=False, default=dict)
    note = StrictCharField(max_length=MAX_NOTE, help_text="Where the facts come from: “my copy, 2nd printing”")
    scan = serializers.IntegerField(
        required=False,
        min_value=1,
        max_value=2**31 - 1,
        help_text="A scan of this card's face (POST /api/scans/ with purpose proposal): its photo becomes the front's",
    )


class ApproveInputSerializer(serializers.Serializer):
    facts = FactsField(required=False, help_text="The curator's edit of the proposed facts (optional)")
    confirm = StrictBooleanField(required=False, default=False, help_text="Apply although the card changed since")


class RejectInputSerializer(serializers.Serializer):
    reason = StrictCharField(max_length=MAX_NOTE)


class PhotoInputSerializer(serializers.Serializer):
    image = serializers.FileField()
    side = serializers.ChoiceField(choices=ProposalPhoto.Side.values)


class ProposalOutputSerializer(serializers.Serializer):
    """A proposal: this serializer both produces the answer and documents it."""

    id = serializers.IntegerField(source="pk")
    card = serializers.CharField(source="card.code", help_text="The card's code")
    author = serializers.CharField(source="author.username")
    status = serializers.ChoiceField(choices=Proposal.Status.values)
    kind = serializers.ChoiceField(choices=Proposal.Kind.values, help_text="facts, or a ruling")
    facts = serializers.JSONField()
    ruling = serializers.JSONField(
        source="ruling_or_none",
        allow_null=True,
        help_text="The proposed ruling (question, answer, source_kind, source, url, decided_on, cards, replaces); "
        "null for facts",
    )
    base = serializers.JSONField(help_text="The card's values of those facts when proposed")
    note = serializers.CharField()
    photos = serializers.ListField(
        child=serializers.CharField(), source="photo_sides", help_text="The sides with a photo"
    )
    created_at = serializers.DateTimeField()
    reviewer = serializers.CharField(source="reviewer.username", allow_null=True)
    reviewed_at = serializers.DateTimeField(allow_null=True)
    reason = serializers.CharField()
    change = serializers.IntegerField(
        source="change_id", allow_null=True, help_text="The history entry an approval made"
    )


def _proposal(request: Request, proposal_id: int) -> Proposal:
    proposal = Proposal.objects.for_lists().filter(pk=proposal_id).first()
    if proposal is None or not (proposal.author_id == request.user.pk or facts.is_curator(request.user)):
        raise NotFound(_("No such proposal."))
    return proposal


def _json_body(properties: dict[str, Any], required: list[str] | None = None) -> dict[str, Any]:
    return {"application/json": {"type": "object", "properties": properties, "required": required or []}}


def _fresh(proposal_id: int) -> dict[str, Any]:
    return ProposalOutputSerializer(Proposal.objects.for_lists().get(pk=proposal_id)).data


class CardProposalsView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        request=_json_body(
            {
                "facts": FACTS_SCHEMA,
                "note": {"type": "string", "maxLength": MAX_NOTE},
                "scan": {"type": "integer", "minimum": 1, "maximum": 2**31 - 1},
            },
            ["note"],
        ),
        responses={201: ProposalOutputSerializer, 400: ERROR, 401: ERROR, 404: ERROR, 429: ERROR},
    )
    def post(self, request: Request, code: str) -> Response:
        card = Card.objects.by_code(code)
        if card is None:
            raise NotFound(_("No card with the code “%(code)s”.") % {"code": code[:40]})
        payload = ProposalInputSerializer(data=request.data)
        payload.is_valid(raise_exception=True)
        data = payload.validated_data
        try:
            reading = services.reading_of(request.user, card, data["scan"]) if "scan" in data else None
            proposal = services.propose_with_photos(request.user, card, data["facts"], data["note"], {}, reading)
        except services.ContributionError as exc:
            raise _refused(exc) from None
        return Response(_fresh(proposal.pk), status=status.HTTP_201_CREATED)


class ProposalListView(APIView):
    """Your own proposals (`mine=1`, the default for everyone but curators); curators see all,
    narrowed by `status`."""

    permission_classes = [IsAuthenticated]

    @extend_schema(
        parameters=[
            OpenApiParameter("mine", OpenApiTypes.INT, enum=[0, 1]),
            OpenApiParameter("status", OpenApiTypes.STR, enum=Proposal.Status.values),
        ],
        responses={200: ProposalOutputSerializer(many=True), 400: ERROR, 401: ERROR},
    )
    def get(self, request: Request) -> Response:
        # Absent: no filter. Given, a value must be one the schema lists (an empty one too is refused).
        mine = request.query_params.get("mine")
        wanted = request.query_params.get("status")
        if mine not in (None, "0", "1"):
            raise ValidationError({"mine": [_("Use 1 or 0.")]})
        if wanted is not None and wanted not in Proposal.Status.values:
            raise ValidationError(
                {"status": [_("Use one of %(values)s.") % {"values": ", ".join(Proposal.Status.values)}]}
            )
        rows = Proposal.objects.for_lists()
        if mine == "1" or not facts.is_curator(request.user):
            rows = rows.of(request.user)
        if wanted:
            rows = rows.filter(status=wanted)
        return Response(ProposalOutputSerializer(rows[:200], many=True).data)


class ProposalDetailView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(responses={200: ProposalOutputSerializer, 401: ERROR, 404: ERROR})
    def get(self, request: Request, proposal_id: int) -> Response:
        return Response(ProposalOutputSerializer(_proposal(request, proposal_id)).data)


@accepts(IMAGE)
class ProposalPhotoView(APIView):
    permission_classes = [IsAuthenticated]
    parser_classes = [MultiPartParser]

    @extend_schema(
        request={"multipart/form-data": PhotoInputSerializer},
        responses={201: ProposalOutputSerializer, 400: ERROR, 401: ERROR, 404: ERROR, 409: ERROR},
    )
    def post(self, request: Request, proposal_id: int) -> Response:
        proposal = _proposal(request, proposal_id)
        payload = PhotoInputSerializer(data=request.data)
        payload.is_valid(raise_exception=True)
        try:
            services.add_photo(
                proposal.pk, request.user, payload.validated_data["side"], payload.validated_data["image"]
            )
        except services.ContributionError as exc:
            raise _refused(exc) from None
        return Response(_fresh(proposal.pk), status=status.HTTP_201_CREATED)


class ApproveView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        request=_json_body({"facts": FACTS_SCHEMA, "confirm": {"type": "boolean"}}),
        responses={200: ProposalOutputSerializer, 400: ERROR, 401: ERROR, 403: ERROR, 404: ERROR, 409: ERROR},
    )
    def post(self, request: Request, proposal_id: int) -> Response:
        proposal = _proposal(request, proposal_id)
        payload = ApproveInputSerializer(data=request.data)
        payload.is_valid(raise_exception=True)
        try:
            services.approve(
                proposal.pk,
                request.user,
                payload.validated_data.get("facts"),
                confirm=payload.validated_data["confirm"],
            )
        except services.StaleProposal as exc:
            # The three values as JSON values (an exception's detail would make them strings).
            stale = [
                {"fact": n, "proposed_on": then, "now": now, "proposed": value} for n, then, now, value in exc.rows
            ]
            return Response({"detail": exc.message, "stale": stale}, status=status.HTTP_409_CONFLICT)
        except services.ContributionError as exc:
            raise _refused(exc) from None
        return Response(_fresh(proposal.pk))


class RejectView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        request=RejectInputSerializer,
        responses={200: ProposalOutputSerializer, 400: ERROR, 401: ERROR, 403: ERROR, 404: ERROR, 409: ERROR},
    )
    def post(self, request: Request, proposal_id: int) -> Response:
        proposal = _proposal(request, proposal_id)
        payload = RejectInputSerializer(data=request.data)
        payload.is_valid(raise_exception=True)
        try:
            services.reject(proposal.pk, request.user, payload.validated_data["reason"])
        except services.ContributionError as exc:
            raise _refused(exc) from None
        return Response(_fresh(proposal.pk))
