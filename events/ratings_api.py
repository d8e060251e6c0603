"""GET /api/ratings/?season=&region=: a season's leaderboard, overall or of a region (events.ratings)."""

from __future__ import annotations

from django.utils import timezone
from django.utils.translation import gettext as _
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
from people import regions


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
    region = serializers.CharField(help_text="The region's slug for a regional leaderboard; empty: everyone")
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
            ),
            OpenApiParameter(
                "region",
                str,
                enum=["", *regions.regions()],
                description="Players whose profile says they play in this region (GET /api/regions/); "
                "empty or absent: everyone",
            ),
        ],
        responses={200: RatingSeasonSerializer, 400: OpenApiResponse(OpenApiTypes.OBJECT)},
    )
    def get(self, request: Request) -> Response:
        form = SeasonForm(request.query_params)
        if request.query_params.get("season") == "":  # a year, or absent
            form.add_error("season", _("Enter a whole number."))
        if not form.is_valid():
            raise ValidationError({name: [str(e) for e in errors] for name, errors in form.errors.items()})
        season = form.cleaned_data.get("season") or timezone.localdate().year
        region = form.cleaned_data.get("region") or ""
        ranked, others = ratings.season_table(season, region)
        answer = {
            "season": season,
            "region": region,
            "least_matches": ratings.SEASON_MATCHES,
            "players": ranked,
            "others": others,
            "seasons": ratings.seasons(),
        }
        return Response(RatingSeasonSerializer(answer).data)
