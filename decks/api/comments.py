"""Comments on public decks through the API: the same rules as the page (decks.comments)."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers, status
from rest_framework.exceptions import NotFound, PermissionDenied, Throttled, ValidationError
from rest_framework.permissions import IsAuthenticated, IsAuthenticatedOrReadOnly
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from decks import comments
from decks.api.decks import ERROR, _visible
from decks.models import MAX_COMMENT, DeckComment
from moderation.models import MAX_REASON
from webutil.fields import StrictCharField
from webutil.numbers import whole_number


class ReplySerializer(serializers.Serializer):
    id = serializers.IntegerField()
    # A field named `parent` shadows DRF's own attribute of that name only for the type checker:
    # the serializer's metaclass takes declared fields off the class.
    parent = serializers.IntegerField(  # type: ignore[assignment]
        allow_null=True, help_text="The comment it replies to; null for a comment"
    )
    author = serializers.CharField(allow_null=True, help_text="The author's username; null once deleted")
    body = serializers.CharField(help_text='As written (Markdown); "" once deleted')
    html = serializers.CharField(help_text="As shown: sanitised HTML, card links in it")
    state = serializers.ChoiceField(
        choices=["shown", "pending", "deleted", "hidden"],
        help_text="pending: waiting for a moderator (its author alone sees it); hidden: by the deck's owner",
    )
    created = serializers.DateTimeField()
    edited = serializers.DateTimeField(allow_null=True)


class CommentSerializer(ReplySerializer):
    replies = ReplySerializer(many=True)


class CommentPageSerializer(serializers.Serializer):
    page = serializers.IntegerField()
    pages = serializers.IntegerField()
    count = serializers.IntegerField(help_text="Comments its readers see, replies included")
    results = CommentSerializer(many=True)


class CommentInputSerializer(serializers.Serializer):
    body = StrictCharField(max_length=MAX_COMMENT, trim_whitespace=False)
    parent = serializers.IntegerField(  # type: ignore[assignment]
        required=False, allow_null=True, min_value=1, max_value=2**62
    )


class CommentEditSerializer(serializers.Serializer):
    body = StrictCharField(max_length=MAX_COMMENT, trim_whitespace=False)


class ReportInputSerializer(serializers.Serializer):
    reason = StrictCharField(required=False, allow_blank=True, max_length=MAX_REASON)


class ReportAnswerSerializer(serializers.Serializer):
    reported = serializers.BooleanField()


class HideAnswerSerializer(serializers.Serializer):
    hidden = serializers.BooleanField()


def comment_json(comment: DeckComment, replies: list[DeckComment] | None = None) -> dict[str, Any]:
    deleted = comment.state == DeckComment.State.DELETED
    state = "hidden" if comment.hidden_by_owner and not deleted else comment.state
    answer: dict[str, Any] = {
        "id": comment.pk,
        "parent": comment.parent_id,
        "author": None if deleted or comment.author is None else comment.author.username,
        "body": comment.body,
        "html": comment.body_html,
        "state": state,
        "created": comment.created,
        "edited": comment.edited,
    }
    if replies is not None:
        answer["replies"] = [comment_json(reply) for reply in replies]
    return answer


def _refused(exc: comments.CommentError) -> Exception:
    if exc.status == 403:
        return PermissionDenied(str(exc))
    if exc.status == 404:
        return NotFound(str(exc))
    if exc.status == 429:
        return Throttled(wait=3600, detail=str(exc))
    return ValidationError({"body": [str(exc)]})


def _comment(request: Request, comment_id: int) -> DeckComment:
    found = comments.readable(request.user).select_related("deck", "author").filter(pk=comment_id).first()
    if found is None:
        raise NotFound(_("No such comment."))
    return found


class DeckCommentsView(APIView):
    """A public deck's comments, a page of threads oldest first (GET), or a new one (POST)."""

    permission_classes = [IsAuthenticatedOrReadOnly]

    @extend_schema(
        parameters=[OpenApiParameter("page", int, description="A page of 50 threads, from 1")],
        responses={200: CommentPageSerializer, 400: ERROR, 404: ERROR},
        operation_id="decks_comments_list",
    )
    def get(self, request: Request, deck_id: int) -> Response:
        deck = _visible(request, deck_id)
        if not deck.public:
            raise NotFound(_("Only public decks take comments."))
        raw = request.query_params.get("page", "1")
        number = whole_number(raw, low=1, max_digits=6)
        if number is None:
            raise ValidationError({"page": [_("A whole number from 1.")]})
        threads, page = comments.threads(deck, request.user, number)
        if number > page.paginator.num_pages:
            raise NotFound(_("No such page."))
        return Response(
            {
                "page": page.number,
                "pages": page.paginator.num_pages,
                "count": deck.comment_count,
                "results": [comment_json(t.comment, t.replies) for t in threads],
            }
        )

    @extend_schema(
        request=CommentInputSerializer,
        responses={201: CommentSerializer, 400: ERROR, 401: ERROR, 403: ERROR, 404: ERROR, 429: ERROR},
        operation_id="decks_comments_create",
    )
    def post(self, request: Request, deck_id: int) -> Response:
        deck = _visible(request, deck_id)
        given = CommentInputSerializer(data=request.data)
        given.is_valid(raise_exception=True)
        try:
            made = comments.write(deck, request.user, given.validated_data["body"], given.validated_data.get("parent"))
        except comments.CommentError as exc:
            raise _refused(exc) from None
        return Response(comment_json(made, []), status=status.HTTP_201_CREATED)


class CommentView(APIView):
    """The author's comment: changed within 15 minutes of writing (PATCH), or deleted (DELETE)."""

    permission_classes = [IsAuthenticated]

    @extend_schema(
        request=CommentEditSerializer,
        responses={200: ReplySerializer, 400: ERROR, 401: ERROR, 403: ERROR, 404: ERROR},
    )
    def patch(self, request: Request, comment_id: int) -> Response:
        comment = _comment(request, comment_id)
        given = CommentEditSerializer(data=request.data)
        given.is_valid(raise_exception=True)
        try:
            comments.edit(comment, request.user, given.validated_data["body"])
        except comments.CommentError as exc:
            raise _refused(exc) from None
        return Response(comment_json(comment))

    @extend_schema(request=None, responses={204: None, 401: ERROR, 404: ERROR})
    def delete(self, request: Request, comment_id: int) -> Response:
        try:
            comments.delete(_comment(request, comment_id), request.user)
        except comments.CommentError as exc:
            raise _refused(exc) from None
        return Response(status=status.HTTP_204_NO_CONTENT)


class CommentReportView(APIView):
    """Report a comment to the moderators (once per reader)."""

    permission_classes = [IsAuthenticated]

    @extend_schema(
        request=ReportInputSerializer, responses={200: ReportAnswerSerializer, 400: ERROR, 401: ERROR, 404: ERROR}
    )
    def post(self, request: Request, comment_id: int) -> Response:
        comment = _comment(request, comment_id)
        given = ReportInputSerializer(data=request.data)
        given.is_valid(raise_exception=True)
        try:
            comments.report(comment, request.user, given.validated_data.get("reason", ""))
        except comments.CommentError as exc:
            raise _refused(exc) from None
        return Response({"reported": True})


class CommentHideView(APIView):
    """The deck's owner hides a comment from its readers (POST) or shows it again (DELETE)."""

    permission_classes = [IsAuthenticated]

    def _set(self, request: Request, comment_id: int, hidden: bool) -> Response:
        try:
            comments.owner_hide(_comment(request, comment_id), request.user, hidden)
        except comments.CommentError as exc:
            raise _refused(exc) from None
        return Response({"hidden": hidden})

    @extend_schema(request=None, responses={200: HideAnswerSerializer, 401: ERROR, 403: ERROR, 404: ERROR})
    def post(self, request: Request, comment_id: int) -> Response:
        return self._set(request, comment_id, True)

    @extend_schema(request=None, responses={200: HideAnswerSerializer, 401: ERROR, 403: ERROR, 404: ERROR})
    def delete(self, request: Request, comment_id: int) -> Response:
        return self._set(request, comment_id, False)
