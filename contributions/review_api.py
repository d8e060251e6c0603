"""Reviews of cards through the API: the same rules as the card page (contributions.reviews).

GET/POST /api/cards/<code>/reviews/, POST/DELETE /api/reviews/<id>/helpful/."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.exceptions import NotFound
from rest_framework.permissions import IsAuthenticated, IsAuthenticatedOrReadOnly
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from catalog.models import Card
from contributions import reviews
from contributions.api import ERROR
from contributions.models import MAX_REVIEW, Review
from webutil.api_errors import refusal
from webutil.fields import StrictCharField


class ReviewSerializer(serializers.Serializer):
    """A review as the API answers it: this serializer both produces the answer and documents it."""

    id = serializers.IntegerField()
    card = serializers.CharField(source="card.code")
    author = serializers.CharField(source="author.username")
    body = serializers.CharField(help_text="As written (Markdown)")
    html = serializers.CharField(source="body_html", help_text="As shown: sanitised HTML, card links in it")
    state = serializers.ChoiceField(
        choices=["shown", "pending"], help_text="pending: waiting for a moderator (its author alone sees it)"
    )
    helpful = serializers.IntegerField(source="helpful_count", help_text="How many readers found it helpful")
    marked = serializers.BooleanField(
        source="reader_helped", default=False, help_text="Whether the caller found it helpful"
    )
    created = serializers.DateTimeField()
    edited = serializers.DateTimeField(allow_null=True)


class ReviewInputSerializer(serializers.Serializer):
    body = StrictCharField(max_length=MAX_REVIEW, trim_whitespace=False)


class HelpfulAnswerSerializer(serializers.Serializer):
    helpful = serializers.IntegerField(help_text="How many readers find it helpful now")
    marked = serializers.BooleanField(help_text="Whether the caller does")


def _card(code: str) -> Card:
    card = Card.objects.by_code(code)
    if card is None:
        raise NotFound(_("No card with the code “%(code)s”.") % {"code": code[:40]})
    return card


def _refused(exc: reviews.ReviewError) -> Exception:
    return refusal(exc.status, str(exc), "body")


class CardReviewsView(APIView):
    """A card's reviews, the most helpful first (GET); the caller's own, new or changed (POST:
    one review a card)."""

    permission_classes = [IsAuthenticatedOrReadOnly]

    @extend_schema(responses={200: ReviewSerializer(many=True), 404: ERROR}, operation_id="cards_reviews_list")
    def get(self, request: Request, code: str) -> Response:
        return Response(ReviewSerializer(reviews.shown(_card(code), request.user), many=True).data)

    @extend_schema(
        request=ReviewInputSerializer,
        responses={
            200: ReviewSerializer,
            201: ReviewSerializer,
            400: ERROR,
            401: ERROR,
            403: ERROR,
            404: ERROR,
            429: ERROR,
        },
        operation_id="cards_reviews_write",
    )
    def post(self, request: Request, code: str) -> Response:
        card = _card(code)
        given = ReviewInputSerializer(data=request.data)
        given.is_valid(raise_exception=True)
        try:
            review, new = reviews.write(card, request.user, given.validated_data["body"])
        except reviews.ReviewError as exc:
            raise _refused(exc) from None
        answer = ReviewSerializer(review).data
        return Response(answer, status=status.HTTP_201_CREATED if new else status.HTTP_200_OK)


class HelpfulView(APIView):
    """The caller finds a review helpful (POST) or no longer (DELETE)."""

    permission_classes = [IsAuthenticated]

    def _set(self, request: Request, review_id: int, helpful: bool) -> Response:
        review: Any = Review.objects.filter(pk=review_id).first()
        if review is None:
            raise NotFound(_("No such review."))
        try:
            count = reviews.mark_helpful(review, request.user, helpful)
        except reviews.ReviewError as exc:
            raise _refused(exc) from None
        return Response({"helpful": count, "marked": helpful})

    @extend_schema(request=None, responses={200: HelpfulAnswerSerializer, 401: ERROR, 403: ERROR, 404: ERROR})
    def post(self, request: Request, review_id: int) -> Response:
        return self._set(request, review_id, True)

    @extend_schema(request=None, responses={200: HelpfulAnswerSerializer, 401: ERROR, 403: ERROR, 404: ERROR})
    def delete(self, request: Request, review_id: int) -> Response:
        return self._set(request, review_id, False)
