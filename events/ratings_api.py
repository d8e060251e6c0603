"""GET /api/ratings/?season=: a season's leaderboard (events.ratings)."""

from __future__ import annotations

from django.utils import timezone
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import serializers
from rest_framework.exceptions import ValidationError
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from events import ratings
from events.forms import SeasonForm


class RatedPlayerSerializer(serializers.Serializer):
    username = serializers.CharField()
    place = serializers.IntegerField(required=False, help_text="On the leaderboard; absent for the others")
    rating = serializers.FloatField(help_text="openskill's ordinal (mu - 3 sigma) after the season's last match")
    mu = serializers.FloatField()
    sigma = serializers.FloatField()
    matches = serializers.IntegerField(help_text="Rated matches in the season")


class RatingSeasonSerializer(serializers.Serializer):
    """A season's leaderboard: this serializer both produces the answer and documents it."""

    season = serializers.IntegerField(help_text="A calendar year")
    least_matches = serializers.IntegerField(help_text="Rated matches in the season to be listed in `players`")
    players = RatedPlayerSerializer(many=True, help_text="Highest rating first")
    others = RatedPlayerSerializer(many=True, help_text="Players with fewer rated matches in the season")
    seasons = serializers.ListField(child=serializers.IntegerField(), help_text="Seasons with rated matches")


class RatingsView(APIView):
    permission_classes = [AllowAny]

    @extend_schema(
        parameters=[
            OpenApiParameter(
                "season",
                {"type": "integer", "minimum": 2000, "maximum": 2100},
                description="A year (this year when absent)",
            )
        ],
        responses={200: RatingSeasonSerializer, 400: OpenApiResponse(OpenApiTypes.OBJECT)},
    )
    def get(self, request: Request) -> Response:
        form = SeasonForm(request.query_params)
        if not form.is_valid():
            raise ValidationError({name: [str(e) for e in errors] for name, errors in form.errors.items()})
        season = form.cleaned_data.get("season") or timezone.localdate().year
        ranked, others = ratings.season_table(season)
        answer = {
            "season": season,
            "least_matches": ratings.SEASON_MATCHES,
            "players": ranked,
            "others": others,
            "seasons": ratings.seasons(),
        }
        return Response(RatingSeasonSerializer(answer).data)
