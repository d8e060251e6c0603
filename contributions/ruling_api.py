"""Rulings through the API: a card's rulings (GET) and a proposed one (POST), which curators
approve as they approve facts (`POST /api/proposals/<id>/approve/`).

GET/POST /api/cards/<code>/rulings/."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.permissions import IsAuthenticatedOrReadOnly
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from catalog import rulings
from catalog.models import MAX_ANSWER, MAX_QUESTION, MAX_RULING_CARDS, MAX_SOURCE, Ruling
from contributions import services
from contributions.api import ERROR, ProposalOutputSerializer, _fresh, _refused
from contributions.review_api import _card
from webutil.fields import StrictCharField


class RulingSerializer(serializers.Serializer):
    """A ruling as the API answers it: this serializer both produces the answer and documents it."""

    id = serializers.IntegerField()
    cards = serializers.SerializerMethodField(help_text="The codes of the cards it belongs to")
    question = serializers.CharField()
    answer = serializers.CharField()
    source_kind = serializers.ChoiceField(choices=Ruling.Source.values)
    # Named as the API names it, over DRF's own `source` attribute of a field (not used here).
    source = serializers.CharField(help_text="The document's name, the organiser or the judge")  # type: ignore[assignment]
    url = serializers.CharField(allow_null=True, help_text="Where the source can be read; null when none")
    decided_on = serializers.DateField(help_text="The date of the ruling")
    replaces = serializers.IntegerField(source="replaces_id", allow_null=True, help_text="The ruling it supersedes")
    superseded_by = serializers.SerializerMethodField(help_text="The later ruling that supersedes it, if any")
    terms = serializers.ListField(
        child=serializers.CharField(),
        source="term_slugs",
        help_text="The slugs of the terms it names (GET /api/terms/)",
    )
    entered_by = serializers.CharField(source="entered_by.username", allow_null=True, default=None)
    created_at = serializers.DateTimeField()

    def get_cards(self, ruling: Ruling) -> list[str]:
        return [card.code for card in ruling.cards.all()]

    def get_superseded_by(self, ruling: Ruling) -> int | None:
        later = ruling.superseded_by
        return later.pk if later else None

    def to_representation(self, instance: Any) -> Any:
        data = super().to_representation(instance)
        data["url"] = data["url"] or None
        return data


class RulingInputSerializer(serializers.Serializer):
    question = StrictCharField(max_length=MAX_QUESTION)
    answer = StrictCharField(max_length=MAX_ANSWER)
    source_kind = serializers.ChoiceField(choices=Ruling.Source.values)
    source = StrictCharField(  # type: ignore[assignment]  # the API's name, over DRF's attribute
        max_length=MAX_SOURCE, help_text="The document's name, the organiser or the judge"
    )
    url = StrictCharField(required=False, allow_blank=True, max_length=rulings.MAX_URL)
    decided_on = StrictCharField(max_length=10, help_text="YYYY-MM-DD")
    cards = serializers.ListField(
        child=StrictCharField(max_length=40),
        required=False,
        max_length=MAX_RULING_CARDS,
        help_text="Other cards it belongs to, by code (the card of the path is always one)",
    )
    replaces = serializers.IntegerField(
        required=False,
        allow_null=True,
        min_value=1,
        max_value=2**31 - 1,
        help_text="A ruling of this card it supersedes",
    )


class CardRulingsView(APIView):
    """A card's rulings, newest first, superseded ones too (GET); a proposed ruling for curators
    to approve (POST: answers the proposal)."""

    permission_classes = [IsAuthenticatedOrReadOnly]

    @extend_schema(responses={200: RulingSerializer(many=True), 404: ERROR}, operation_id="cards_rulings_list")
    def get(self, request: Request, code: str) -> Response:
        shown = Ruling.objects.shown().of_card(_card(code)).for_lists()
        return Response(RulingSerializer(shown, many=True).data)

    @extend_schema(
        request=RulingInputSerializer,
        responses={201: ProposalOutputSerializer, 400: ERROR, 401: ERROR, 404: ERROR, 429: ERROR},
        operation_id="cards_rulings_propose",
    )
    def post(self, request: Request, code: str) -> Response:
        card = _card(code)
        given = RulingInputSerializer(data=request.data)
        given.is_valid(raise_exception=True)
        try:
            proposal = services.propose_ruling(request.user, card, given.validated_data)
        except services.ContributionError as exc:
            raise _refused(exc) from None
        return Response(_fresh(proposal.pk), status=status.HTTP_201_CREATED)
