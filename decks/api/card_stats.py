"""GET /api/cards/<code>/stats/: what the community plays with a card (decks.card_stats)."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.exceptions import NotFound
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from catalog.models import Card
from decks.api.decks import ERROR
from decks.models import CardStats


class MonthSerializer(serializers.Serializer):
    month = serializers.CharField(help_text="YYYY-MM")
    deck_count = serializers.IntegerField(help_text="Public decks made that month that play it")
    share = serializers.FloatField(help_text="Of the public decks made that month")


class PlayedWithSerializer(serializers.Serializer):
    card = serializers.CharField()
    deck_count = serializers.IntegerField(help_text="Decks that play both")
    share = serializers.FloatField(help_text="Of the decks that play this card")


class SynergySerializer(serializers.Serializer):
    general = serializers.CharField()
    share = serializers.FloatField(help_text="Of that general's public decks")
    synergy = serializers.FloatField(help_text="That share minus the card's share of all decks")


class TopCardSerializer(serializers.Serializer):
    card = serializers.CharField()
    share = serializers.FloatField(help_text="Of the general's public decks")
    synergy = serializers.FloatField(help_text="That share minus the card's share of all decks")


class AverageEntrySerializer(serializers.Serializer):
    card = serializers.CharField()
    count = serializers.IntegerField()


class CardStatsSerializer(serializers.Serializer):
    """A card's figures from the public decks of the standard format; this serializer both
    produces the answer and documents it. Before the first count: zeros, `computed` null."""

    deck_count = serializers.IntegerField()
    decks_total = serializers.IntegerField(help_text="Public decks of the format, all told")
    share = serializers.FloatField()
    average_copies = serializers.FloatField(allow_null=True, help_text="In the decks that play it")
    by_month = MonthSerializer(many=True, help_text="The last 12 months, oldest first")
    played_with = PlayedWithSerializer(many=True)
    synergy = SynergySerializer(many=True, help_text="Generals with at least 5 public decks, highest synergy first")
    top_cards = TopCardSerializer(many=True, required=False, help_text="A general's only: its decks' most played cards")
    average_deck = AverageEntrySerializer(
        many=True,
        required=False,
        help_text="A general's only: the most played cards at their most common counts, legal; [] under 5 decks",
    )
    win_rate = serializers.FloatField(
        required=False,
        help_text="The match-win rate at public events of the lists that play it; absent under "
        f"{CardStats.MIN_MATCHES} matches",
    )
    matches = serializers.IntegerField(
        required=False, help_text="The Swiss matches that rate rests on (each side counted); absent with it"
    )
    event_decks = serializers.IntegerField(
        default=0, help_text="Lists made public at finished events that play its name (GET /events/decks/?card=)"
    )
    event_top8 = serializers.IntegerField(default=0, help_text="Of those, the ones that placed in a top 8")
    computed = serializers.DateTimeField(allow_null=True, default=None)

    def to_representation(self, instance: Any) -> Any:
        data = super().to_representation(instance)
        rate = instance.win_rate if isinstance(instance, CardStats) else None
        if rate is None:  # under the minimum sample: neither figure
            data.pop("win_rate", None)
            data.pop("matches", None)
        else:
            data["win_rate"] = round(rate, 4)
        return data


class CardStatsView(APIView):
    """What the community plays with a card: computed in the background, read here."""

    permission_classes = [AllowAny]

    @extend_schema(responses={200: CardStatsSerializer, 404: ERROR})
    def get(self, request: Request, code: str) -> Response:
        card = Card.objects.by_code(code)
        if card is None:
            raise NotFound(_("No card with the code “%(code)s”.") % {"code": code[:40]})
        stats = CardStats.objects.filter(card_id=card.pk).first()
        if stats is None:  # not counted yet
            empty = {"deck_count": 0, "decks_total": 0, "share": 0.0, "average_copies": None}
            lists: dict[str, list[object]] = {
                "by_month": [],
                "played_with": [],
                "synergy": [],
                "top_cards": [],
                "average_deck": [],
            }
            answer = dict(CardStatsSerializer({**empty, **lists}).data)
        else:
            answer = dict(CardStatsSerializer(stats).data)
        if not card.can_lead:  # a general's figures only for a general
            answer.pop("top_cards", None)
            answer.pop("average_deck", None)
        return Response(answer)
