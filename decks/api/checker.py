"""POST /api/legality/: the checker's verdict as JSON, the same as `checkdeck --json`."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from drf_spectacular.authentication import SessionScheme
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiExample, OpenApiResponse, extend_schema, extend_schema_field
from rest_framework import serializers
from rest_framework.authentication import SessionAuthentication, TokenAuthentication
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from decks.api.fields import FormatField
from decks.i18n import pick
from decks.legality import RequestedEntry, check_list, check_structured
from rules_check import DEFAULT_FORMAT, DeckListError
from rules_check.decklist import MAX_BYTES
from rules_check.model import MAX_LISTED_PROBLEMS, Problem, Verdict
from webutil.fields import StrictCharField

MAX_ENTRIES = 500


class DeckEntryInputSerializer(serializers.Serializer):
    card = StrictCharField(max_length=60, help_text="A card code (aliases accepted) or name")
    count = serializers.IntegerField(
        min_value=-1_000_000, max_value=1_000_000, help_text="1 to 99 is valid; others are invalid_count"
    )


class LegalityInputSerializer(serializers.Serializer):
    format = FormatField(default=DEFAULT_FORMAT)
    list = StrictCharField(
        required=False, allow_blank=True, max_length=MAX_BYTES, trim_whitespace=False, help_text="Deck-list text"
    )
    general = StrictCharField(required=False, allow_null=True, allow_blank=True, max_length=60)
    # ListSerializer takes max_length; the stubs do not know it.
    cards = DeckEntryInputSerializer(many=True, required=False, max_length=MAX_ENTRIES)  # type: ignore[call-arg]  # see above
    reinforcements = DeckEntryInputSerializer(many=True, required=False, max_length=MAX_ENTRIES)  # type: ignore[call-arg]  # see above

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        structured = {"general", "cards", "reinforcements"} & set(attrs)
        if "list" in attrs and structured:
            raise serializers.ValidationError({"list": [_("Give either 'list' or 'general'/'cards', not both.")]})
        if "list" not in attrs and "cards" not in attrs and "general" not in attrs:
            raise serializers.ValidationError({"list": [_("Give a deck list as 'list', or 'general' and 'cards'.")]})
        return attrs


class ProblemOutputSerializer(serializers.Serializer):
    code = serializers.CharField()
    severity = serializers.ChoiceField(choices=["error", "warning"])
    cards = serializers.ListField(child=serializers.CharField())
    lines = serializers.ListField(child=serializers.IntegerField())
    message = serializers.CharField()
    message_en = serializers.CharField()


class VerdictOutputSerializer(serializers.Serializer):
    """A rules_check verdict, read from the Verdict itself: the API's answer and the command
    line's (`checkdeck --json`, which lists every problem: context `max_problems` None)."""

    legal = serializers.BooleanField()
    format = serializers.CharField()
    main_deck_count = serializers.IntegerField()
    general = serializers.CharField(allow_null=True)
    problems = serializers.SerializerMethodField(help_text="The first 50 problems, errors and warnings in order")
    problems_omitted = serializers.SerializerMethodField(help_text="How many more problems the deck has")

    def _shown(self, verdict: Verdict) -> tuple[Problem, ...]:
        limit = self.context.get("max_problems", MAX_LISTED_PROBLEMS)
        return verdict.problems if limit is None else verdict.problems[:limit]

    @extend_schema_field(ProblemOutputSerializer(many=True))
    def get_problems(self, verdict: Verdict) -> list[dict[str, Any]]:
        return list(ProblemOutputSerializer(self._shown(verdict), many=True).data)

    @extend_schema_field({"type": "integer", "minimum": 0})
    def get_problems_omitted(self, verdict: Verdict) -> int:
        return len(verdict.problems) - len(self._shown(verdict))


class SessionWithoutCsrf(SessionAuthentication):
    """The session's user, read without CSRF enforcement: for a POST that writes nothing (a check),
    where another site making the reader's browser send it learns nothing (it cannot read the answer)."""

    def enforce_csrf(self, request: Any) -> None:
        return None


class SessionWithoutCsrfScheme(SessionScheme):  # type: ignore[no-untyped-call]  # registered by subclassing, untyped upstream
    """In the schema: the session cookie, asked for with no CSRF token (a scheme of its own name,
    as the schema's components are one a name)."""

    target_class = "decks.api.checker.SessionWithoutCsrf"
    name = "cookieAuthWithoutCsrf"


class LegalityView(APIView):
    """Check a deck: legal or not, with every problem. 200 whether legal or not."""

    permission_classes = [AllowAny]
    # Anyone may check a deck, without login or CSRF token. A token or a session, when sent, says
    # who asks: a member may check in a house format of their groups.
    authentication_classes = [TokenAuthentication, SessionWithoutCsrf]

    @extend_schema(
        request=LegalityInputSerializer,
        responses={
            200: VerdictOutputSerializer,
            400: OpenApiResponse(OpenApiTypes.OBJECT, description="Malformed request: {field: [messages]}"),
        },
        examples=[
            OpenApiExample("Deck list", value={"format": "standard", "list": "武將: 劉備\n3 新兵\n3 羽林內醫"}),
            OpenApiExample(
                "Structured",
                value={"format": "classic", "general": "WJ-001", "cards": [{"card": "YXJQ-003", "count": 3}]},
            ),
        ],
    )
    def post(self, request: Request) -> Response:
        payload = LegalityInputSerializer(data=request.data, context={"request": request})
        payload.is_valid(raise_exception=True)
        data = payload.validated_data
        if "list" in data:
            try:
                _, verdict = check_list(data["list"], data["format"])
            except DeckListError as exc:
                return Response({"list": [pick(exc.message, exc.message_en)]}, status=400)
        else:
            verdict = check_structured(
                data.get("general") or None,
                [RequestedEntry(e["card"], e["count"]) for e in data.get("cards", [])],
                [RequestedEntry(e["card"], e["count"]) for e in data.get("reinforcements", [])],
                data["format"],
            )
        return Response(VerdictOutputSerializer(verdict).data)
