"""Decks over the API: /api/decks/ and /api/decks/<id>/ (+ legality/, missing/, export/).

Anyone reads public decks; only the owner changes a deck. Another user's private deck is a 404.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any, NotRequired, TypedDict, cast

from django.contrib.auth.models import User
from django.core.exceptions import ValidationError as DjangoValidationError
from django.db import transaction
from django.db.models import Prefetch, Q
from django.http import QueryDict
from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema, extend_schema_field
from rest_framework import serializers, status
from rest_framework.exceptions import NotAuthenticated, NotFound, PermissionDenied, ValidationError
from rest_framework.permissions import IsAuthenticated, IsAuthenticatedOrReadOnly
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from catalog import query as card_query
from catalog.lookup import catalog_index
from decks import compare as deck_compare
from decks import deckcode, draw_odds, intake, likes, services
from decks.api.checker import VerdictOutputSerializer
from decks.api.fields import FormatField
from decks.close import DEFAULT_MISSING, MAX_MISSING, Suggestion, close_enough
from decks.data import DeckData
from decks.filters import COLLECTION_SORTS, DeckFilter, ordering
from decks.forms import clean_tags
from decks.legality import check_deck_snapshot, deck_for_rules
from decks.models import MAX_DESCRIPTION, MAX_ENTRY_COUNT, MAX_TAG, MAX_TAGS, Deck, DeckQuerySet, Visibility
from decks.search import MAX_CARD_TEXT, SEARCH_CARDS
from decks.stats import deck_view
from groups import formats
from groups.models import MAX_KEY, Group
from rules_check import DEFAULT_FORMAT, FORMATS, export
from webutil.fields import StrictBooleanField, StrictCharField
from webutil.numbers import whole_number
from webutil.pagination import StrictCursorPagination

MAX_ID = 2**63 - 1  # the largest id a database column holds
API_SORTS = ("updated", "newest", "missing", "-owned_share", "-likes", "-likes_week", "-comments")
MAX_SHARED_GROUPS = 100  # more than anyone belongs to (groups.models.MAX_OWNED is 50 owned)
# The ids of the groups a deck is shared with, in one query for a whole page.
_GROUP_IDS = Prefetch("groups", queryset=Group.objects.only("pk"))
ERROR = OpenApiResponse(OpenApiTypes.OBJECT, description="{field: [messages]} or {detail: message}")


class DeckEntrySerializer(serializers.Serializer):
    card = StrictCharField(max_length=60, help_text="A card code (aliases accepted)")
    count = serializers.IntegerField(min_value=1, max_value=MAX_ENTRY_COUNT)


class DeckInputSerializer(serializers.Serializer):
    name = StrictCharField(max_length=100)
    format = FormatField(default=DEFAULT_FORMAT)
    general = StrictCharField(max_length=60, required=False, allow_null=True, allow_blank=True)
    cards = DeckEntrySerializer(many=True, required=False, max_length=500)  # type: ignore[call-arg]  # ListSerializer takes max_length; the stubs miss it
    reinforcements = DeckEntrySerializer(many=True, required=False, max_length=100)  # type: ignore[call-arg]  # ListSerializer takes max_length; the stubs miss it
    list = StrictCharField(required=False, max_length=64 * 1024, trim_whitespace=False, help_text="Deck-list text")
    deck_code = StrictCharField(required=False, max_length=deckcode.MAX_CODE_LENGTH)
    description = StrictCharField(required=False, allow_blank=True, max_length=MAX_DESCRIPTION)
    visibility = serializers.ChoiceField(
        choices=Visibility.values,
        required=False,
        help_text="private (the default), unlisted (read by its link alone) or public (listed and searched)",
    )
    built = StrictBooleanField(required=False, help_text="Built (sleeved): its cards are taken from my collection")
    archived = StrictBooleanField(required=False)
    tags = serializers.ListField(child=StrictCharField(max_length=MAX_TAG), required=False, max_length=MAX_TAGS)
    groups = serializers.ListField(
        child=serializers.IntegerField(min_value=1, max_value=MAX_ID),
        required=False,
        max_length=MAX_SHARED_GROUPS,
        help_text="Share it with exactly these of my groups (ids); [] shares it with none",
    )

    def validate_tags(self, value: Any) -> Any:
        try:
            return clean_tags(value)
        except DjangoValidationError as exc:
            raise ValidationError(exc.messages) from None

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        if isinstance(self.initial_data, dict) and "public" in self.initial_data:
            # `public` is read-only since decks have three visibilities: a client still setting
            # it is told so, rather than have its deck silently stay as it was.
            raise ValidationError({"public": [_("public is read-only: set visibility instead.")]})
        sources = [k for k in ("list", "deck_code") if k in attrs]
        if len(sources) > 1 or (sources and {"general", "cards", "reinforcements"} & set(attrs)):
            raise ValidationError({"list": [_("Give the cards one way: cards/general, list, or deck_code.")]})
        return attrs


class DeckOutputSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    owner = serializers.CharField()
    format = serializers.CharField()
    general = serializers.CharField(allow_null=True)
    cards = DeckEntrySerializer(many=True)
    reinforcements = DeckEntrySerializer(many=True)
    description = serializers.CharField()
    visibility = serializers.ChoiceField(choices=Visibility.values)
    public = serializers.BooleanField(help_text="Read-only: whether `visibility` is public")
    link = serializers.CharField(required=False, help_text="To its owner only, when unlisted: where it is read")
    created = serializers.DateTimeField()
    updated = serializers.DateTimeField()
    legal = serializers.BooleanField()
    main_deck_count = serializers.IntegerField()
    deck_code = serializers.CharField()
    built = serializers.BooleanField()
    archived = serializers.BooleanField()
    tags = serializers.ListField(child=serializers.CharField())
    groups = serializers.ListField(
        child=serializers.IntegerField(), required=False, help_text="To its owner only: the groups it is shared with"
    )
    owned = serializers.IntegerField(
        required=False, help_text="In lists, for a logged-in caller: copies of it the caller has available"
    )
    missing = serializers.IntegerField(required=False, help_text="In lists, for a logged-in caller: copies lacking")
    likes = serializers.IntegerField(help_text="How many readers like it")
    comments = serializers.IntegerField(help_text="How many comments its readers see")
    liked = serializers.BooleanField(required=False, help_text="For a logged-in caller: whether the caller likes it")
    bookmarked = serializers.BooleanField(
        required=False, help_text="For a logged-in caller: whether the caller keeps it for later"
    )


class DeckEntryAnswer(TypedDict):
    card: str
    count: int


class DeckAnswer(TypedDict):
    """A deck as the API answers it, documented by DeckOutputSerializer. The deck list is a hot
    path: the answer is made here, once, not by the serializer (tests check the two agree)."""

    id: int
    name: str
    owner: str
    format: str
    general: str | None
    cards: list[DeckEntryAnswer]
    reinforcements: list[DeckEntryAnswer]
    description: str
    visibility: str
    public: bool
    created: datetime
    updated: datetime
    legal: bool
    main_deck_count: int
    deck_code: str
    built: bool
    archived: bool
    tags: list[str]
    groups: NotRequired[list[int]]
    owned: NotRequired[int]
    missing: NotRequired[int]
    likes: int
    comments: int
    link: NotRequired[str]
    liked: NotRequired[bool]
    bookmarked: NotRequired[bool]


def deck_json(deck: Deck, data: DeckData | None = None, reader: Any = None) -> DeckAnswer:
    """`data`: the deck as plain data when a list read it already (services.snapshots_of).
    `reader`: who asks; its owner also sees the groups it is shared with."""
    data = data or services.snapshot_of(deck)
    answer: DeckAnswer = {
        "id": deck.pk,
        "name": deck.name,
        "owner": deck.owner.username,
        "format": deck.format,
        "general": data.general,
        "cards": [{"card": c, "count": n} for c, n in sorted(data.main.items())],
        "reinforcements": [{"card": c, "count": n} for c, n in sorted(data.reinforcements.items())],
        "description": deck.description,
        "visibility": deck.visibility,
        "public": deck.public,
        "created": deck.created,
        "updated": deck.updated,
        "legal": deck.is_legal,
        "main_deck_count": deck.main_count,
        "deck_code": deckcode.encode(data.format, data.general, data.main, data.reinforcements),
        "built": deck.built,
        "archived": deck.archived,
        "tags": [tag.name for tag in deck.tags.all()],
        "likes": deck.like_count,
        "comments": deck.comment_count,
    }
    if reader is not None and reader.pk == deck.owner_id:
        answer["groups"] = sorted(group.pk for group in deck.groups.all())
        if deck.link_url:
            answer["link"] = deck.link_url
    if vars(deck).get("missing") is not None:  # annotated by Deck.objects.with_ownership in lists
        answer["owned"], answer["missing"] = vars(deck)["owned"], vars(deck)["missing"]
    if "reader_liked" in vars(deck):  # annotated by Deck.objects.with_reader_marks
        answer["liked"], answer["bookmarked"] = vars(deck)["reader_liked"], vars(deck)["reader_bookmarked"]
    return answer


def _code(text: str, field: str) -> str:
    code = intake.card_code(text)
    if code is None:
        raise ValidationError({field: [_("No card “%(code)s”.") % {"code": text[:40]}]})
    return code


def _data_from(payload: dict[str, Any], base: DeckData) -> DeckData:
    """The deck a request describes, on top of `base` (PATCH keeps what it does not name)."""
    data = DeckData(
        name=payload.get("name", base.name),
        format=payload.get("format", base.format),
        general=base.general,
        main=dict(base.main),
        reinforcements=dict(base.reinforcements),
        description=payload.get("description", base.description),
    )
    for source in ("deck_code", "list"):
        if source in payload:
            try:
                if source == "deck_code":
                    read, _notes = intake.read_code(payload[source])
                else:
                    read, _notes = intake.read_list(payload[source], format_name=data.format)
            except intake.DeckInputError as exc:
                raise ValidationError({source: exc.messages}) from None
            data.format, data.general, data.main, data.reinforcements = (
                read.format,
                read.general,
                read.main,
                read.reinforcements,
            )
            return data
    if "general" in payload:
        data.general = _code(payload["general"], "general") if payload["general"] else None
    for field, target in (("cards", "main"), ("reinforcements", "reinforcements")):
        if field in payload:
            entries: dict[str, int] = {}
            for item in payload[field]:
                code = _code(item["card"], field)
                entries[code] = entries.get(code, 0) + item["count"]
            setattr(data, target, entries)
    return data


def _save(deck: Deck, data: DeckData, payload: dict[str, Any], note: str) -> Deck:
    """A new deck: saved with its flags, then `built` and `tags` (services.set_flags)."""
    deck.visibility = payload.get("visibility", deck.visibility)
    deck.archived = payload.get("archived", deck.archived)
    try:
        with transaction.atomic():
            deck = services.save_deck(deck, data, note=note)
            services.set_flags(deck, payload)
    except services.DeckError as exc:
        raise ValidationError({"cards": [str(exc)]}) from None
    deck.refresh_from_db()
    return deck


# The deck list page's own filters (decks.filters.DeckFilter), taken by the API as the page takes
# them: one FilterSet for both. `legal` is 0 or 1 here, as the API's other flags.
PAGE_FILTERS = {
    "general": "Only decks led by this general: its code or its name",
    "faction": "Only decks whose general is of this faction",
    "tag": "Only decks with this tag",
}


def _page_filters(request: Request, decks: DeckQuerySet) -> DeckQuerySet:
    params = request.query_params
    given = QueryDict(mutable=True)
    for name in (*PAGE_FILTERS, "q"):
        if name in params:
            given[name] = params[name]
    if given.get("faction") == "":  # a choice given empty: the schema lists no empty faction
        raise ValidationError({"faction": [_("A value is needed.")]})
    if params.get("legal") == "1":
        given["legal"] = "1"
    for name in ("card", "without"):  # each may be given several times (decks.search)
        given.setlist(name, params.getlist(name))
    found = DeckFilter(given, queryset=decks, request=request)
    if not found.is_valid():
        raise ValidationError(found.errors)
    return cast(DeckQuerySet, found.qs)


def _filter_parameter(name: str, description: str) -> OpenApiParameter:
    """A page filter as the schema documents it, from the FilterSet's own field."""
    field = DeckFilter.base_filters[name]
    choices = field.extra.get("choices")
    if choices:
        return OpenApiParameter(
            name, {"type": "string", "enum": [value for value, _label in choices]}, description=description
        )
    return OpenApiParameter(name, {"type": "string", "maxLength": field.extra["max_length"]}, description=description)


# What every deck list of the API takes (mine and the public ones, a group's).
LIST_PARAMETERS = [
    OpenApiParameter("buildable", {"type": "integer", "enum": [0, 1]}, description="1: only decks I can build now"),
    OpenApiParameter("sort", {"type": "string", "enum": list(API_SORTS)}),
    OpenApiParameter(
        "format",
        {"type": "string", "maxLength": MAX_KEY, "pattern": formats.KEY_PATTERN},
        description="Only decks of this format: an official one or a house format's key",
    ),
    *(_filter_parameter(name, description) for name, description in PAGE_FILTERS.items()),
    OpenApiParameter("legal", {"type": "integer", "enum": [0, 1]}, description="1: only decks legal in their format"),
    *(
        OpenApiParameter(
            name,
            {"type": "array", "items": {"type": "string", "maxLength": MAX_CARD_TEXT}, "maxItems": int(SEARCH_CARDS)},
            explode=True,
            description=description,
        )
        for name, description in (
            (
                "card",
                "Only decks that play this card (repeatable): a name in either script, pinyin, a code or a WD- "
                "alias, with `:n` for at least n copies (printings of a name count together)",
            ),
            ("without", "Only decks that do not play this card (repeatable), named as for `card`"),
        )
    ),
    OpenApiParameter(
        "q",
        {"type": "string", "maxLength": 200},
        description="The deck query language: has:新兵:2, -has:火攻, by:alice, updated>2026-10-01, likes>=5, "
        "general:劉備, and words of the deck's name",
    ),
    OpenApiParameter("cursor", {"type": "string", "maxLength": 200}, description="From a `next` link"),
    OpenApiParameter("page_size", {"type": "integer", "minimum": 1, "maximum": 500}),
]


class DeckPageSerializer(serializers.Serializer):
    next = serializers.CharField(allow_null=True)
    previous = serializers.CharField(allow_null=True)
    results = DeckOutputSerializer(many=True)


class DeckListView(APIView):
    """My decks (and `?public=1` for everyone's public decks); anonymous: public decks. POST creates."""

    permission_classes = [IsAuthenticatedOrReadOnly]

    def get_queryset(self, request: Request) -> DeckQuerySet:
        for flag in ("public", "buildable", "legal", "saved"):
            if request.query_params.get(flag, "0") not in ("0", "1"):
                raise ValidationError({flag: [_("must be 0 or 1")]})
        if request.query_params.get("saved") == "1":
            if not request.user.is_authenticated:
                raise NotAuthenticated(_("Log in to see the decks you keep."))
            return Deck.objects.saved_by(request.user).with_reader_marks(request.user)
        if request.user.is_authenticated and request.query_params.get("public") != "1":
            return Deck.objects.owned_by(request.user).with_reader_marks(request.user)
        return Deck.objects.listed().with_reader_marks(request.user)

    def _filtered(self, request: Request) -> tuple[DeckQuerySet, tuple[str, ...]]:
        sort = request.query_params.get("sort", "updated")
        if sort not in API_SORTS:
            raise ValidationError({"sort": [_("One of: %(sorts)s") % {"sorts": ", ".join(API_SORTS)}]})
        decks = self.get_queryset(request).with_ownership(request.user)
        fmt = request.query_params.get("format")
        if fmt is not None:
            if fmt not in FORMATS and not formats.is_house_key(fmt):
                raise ValidationError({"format": [_("One of: %(sorts)s") % {"sorts": ", ".join(FORMATS)}]})
            decks = decks.filter(format=fmt)
        buildable = request.query_params.get("buildable") == "1"
        if not request.user.is_authenticated and (sort in COLLECTION_SORTS or buildable):
            raise ValidationError({"sort": [_("Log in to compare decks with your collection.")]})
        if buildable:
            decks = decks.filter(Q(missing=0))
        return _page_filters(request, decks), ordering(sort, buildable=buildable)

    @extend_schema(
        parameters=[
            OpenApiParameter("public", {"type": "integer", "enum": [0, 1]}, description="1: everyone's public decks"),
            OpenApiParameter(
                "saved", {"type": "integer", "enum": [0, 1]}, description="1: the decks I keep for later (log in)"
            ),
            *LIST_PARAMETERS,
        ],
        responses={200: DeckPageSerializer, 400: ERROR, 401: ERROR, 404: ERROR},
        operation_id="decks_list",
    )
    def get(self, request: Request) -> Response:
        paginator = StrictCursorPagination()
        queryset, paginator.ordering = self._filtered(request)
        # The page found on the narrowest rows (the columns its sort and cursor read), then those
        # decks whole, as the page's list does (decks.filters.NarrowSorted): PostgreSQL filters
        # and sorts keys, and never joins whole deck rows it will not show.
        stored = {field.name for field in Deck._meta.concrete_fields}
        keys = [key.lstrip("-") for key in paginator.ordering if key.lstrip("-") in stored]
        found = paginator.paginate_queryset(queryset.only(*keys or ["id"]), request, view=self) or []
        whole = queryset.defer("description_html", "needs").select_related("owner").prefetch_related("tags")
        if request.user.is_authenticated:  # only an owner sees a deck's groups: none to read for a visitor
            whole = whole.prefetch_related(_GROUP_IDS)
        by_pk = {deck.pk: deck for deck in whole.filter(pk__in=[d.pk for d in found] or [0]).order_by()}
        decks = [by_pk[d.pk] for d in found if d.pk in by_pk]
        data = services.snapshots_of(decks)
        return paginator.get_paginated_response([deck_json(d, data[d.pk], request.user) for d in decks])

    @extend_schema(request=DeckInputSerializer, responses={201: DeckOutputSerializer, 400: ERROR, 401: ERROR})
    def post(self, request: Request) -> Response:
        payload = DeckInputSerializer(data=request.data, context={"request": request})
        payload.is_valid(raise_exception=True)
        empty = DeckData("", payload.validated_data["format"], None, {}, {})
        data = _data_from(payload.validated_data, empty)
        # IsAuthenticatedOrReadOnly lets only a logged-in user POST.
        deck = _save(Deck(owner=cast(User, request.user)), data, payload.validated_data, note="api")
        return Response(deck_json(deck, reader=request.user), status=status.HTTP_201_CREATED)


def _visible(request: Request, deck_id: int, *, marks: bool = False) -> Deck:
    decks = Deck.objects.visible_to(request.user).select_related("owner")
    decks = decks.with_reader_marks(request.user) if marks else decks
    deck = decks.filter(pk=deck_id).first()
    if deck is None:
        raise NotFound(_("No such deck."))
    return deck


def _owned(request: Request, deck_id: int) -> Deck:
    deck = _visible(request, deck_id)
    if deck.owner_id != request.user.pk:
        raise PermissionDenied(_("Only its owner changes a deck."))
    return deck


class DeckDetailView(APIView):
    permission_classes = [IsAuthenticatedOrReadOnly]

    @extend_schema(responses={200: DeckOutputSerializer, 404: ERROR})
    def get(self, request: Request, deck_id: int) -> Response:
        return Response(deck_json(_visible(request, deck_id, marks=True), reader=request.user))

    @extend_schema(
        request=DeckInputSerializer,
        responses={200: DeckOutputSerializer, 400: ERROR, 401: ERROR, 403: ERROR, 404: ERROR},
    )
    def put(self, request: Request, deck_id: int) -> Response:
        return self._write(request, deck_id, partial=False)

    @extend_schema(
        request=DeckInputSerializer,
        responses={200: DeckOutputSerializer, 400: ERROR, 401: ERROR, 403: ERROR, 404: ERROR},
    )
    def patch(self, request: Request, deck_id: int) -> Response:
        return self._write(request, deck_id, partial=True)

    @extend_schema(responses={204: None, 401: ERROR, 403: ERROR, 404: ERROR})
    def delete(self, request: Request, deck_id: int) -> Response:
        _owned(request, deck_id).delete()
        return Response(status=status.HTTP_204_NO_CONTENT)

    def _write(self, request: Request, deck_id: int, partial: bool) -> Response:
        deck = _owned(request, deck_id)
        payload = DeckInputSerializer(data=request.data, partial=partial, context={"request": request})
        payload.is_valid(raise_exception=True)
        given = payload.validated_data

        def cards(current: Deck, data: DeckData) -> None:
            # On the deck as it is now, under its row lock (services.update_deck): a PATCH of the
            # name racing a PATCH of the cards keeps both, each changing only what it names.
            base = data if partial else DeckData(current.name, current.format, None, {}, {})
            vars(data).update(vars(_data_from(given, base)))

        try:
            deck = services.apply_settings(deck, given, note="api", edit=cards)
        except services.DeckError as exc:
            raise ValidationError({"cards": [str(exc)]}) from None
        return Response(deck_json(deck, reader=request.user))


class DeckLegalityView(APIView):
    permission_classes = [IsAuthenticatedOrReadOnly]

    @extend_schema(responses={200: VerdictOutputSerializer, 404: ERROR})
    def get(self, request: Request, deck_id: int) -> Response:
        deck = _visible(request, deck_id)
        return Response(VerdictOutputSerializer(check_deck_snapshot(services.snapshot_of(deck))).data)


class MissingSerializer(serializers.Serializer):
    card = serializers.CharField()
    name = serializers.CharField()
    needed = serializers.IntegerField()
    owned = serializers.IntegerField()
    missing = serializers.IntegerField()


class MissingOutputSerializer(serializers.Serializer):
    missing = MissingSerializer(many=True)


class DeckMissingView(APIView):
    """What the requester lacks, by their own collection, to build this deck (foils count)."""

    permission_classes = [IsAuthenticated]

    @extend_schema(responses={200: MissingOutputSerializer, 401: ERROR, 404: ERROR})
    def get(self, request: Request, deck_id: int) -> Response:
        view = deck_view(_visible(request, deck_id), request.user)
        missing = [
            {
                "card": line.card.code,
                "name": line.card.name,
                "needed": line.entry.count,
                "owned": line.owned,
                "missing": line.missing,
            }
            for line in view.missing
        ]
        return Response({"missing": missing})


class ExportOutputSerializer(serializers.Serializer):
    text = serializers.CharField()
    deck_code = serializers.CharField()


class DeckExportView(APIView):
    permission_classes = [IsAuthenticatedOrReadOnly]

    @extend_schema(responses={200: ExportOutputSerializer, 404: ERROR})
    def get(self, request: Request, deck_id: int) -> Response:
        deck = _visible(request, deck_id)
        data = services.snapshot_of(deck)
        return Response(
            {
                "text": export(deck_for_rules(data), title=deck.name, fmt=deck.format),
                "deck_code": deckcode.encode(data.format, data.general, data.main, data.reinforcements),
            }
        )


class OddsOutputSerializer(serializers.Serializer):
    deck_size = serializers.IntegerField(help_text="Cards in the main deck (the general and reinforcements are apart)")
    matching = serializers.IntegerField(help_text="Copies in the main deck that match")
    k = serializers.IntegerField()
    first = serializers.ListField(child=serializers.FloatField(), help_text="[hand, turn 1, …, turn 6]")
    second = serializers.ListField(child=serializers.FloatField())
    first_mulligan = serializers.ListField(child=serializers.FloatField(), help_text="With 調度 of every unwanted card")
    second_mulligan = serializers.ListField(child=serializers.FloatField())
    method = serializers.CharField()


class DeckOddsView(APIView):
    """The chance of holding at least k matching cards in the opening hand and by turns 1–6."""

    permission_classes = [IsAuthenticatedOrReadOnly]

    @extend_schema(
        parameters=[
            OpenApiParameter("card", {"type": "string", "maxLength": 60}, description="Every card of this card's name"),
            OpenApiParameter("q", {"type": "string", "maxLength": 200}, description="A card query over the deck"),
            OpenApiParameter("k", {"type": "integer", "minimum": 1, "maximum": draw_odds.MAX_K}),
        ],
        responses={200: OddsOutputSerializer, 400: ERROR, 404: ERROR},
    )
    def get(self, request: Request, deck_id: int) -> Response:
        deck = _visible(request, deck_id)
        card, q, k = (request.query_params.get(name, "") for name in ("card", "q", "k"))
        if len(card) > 60 or len(q) > int(card_query.QUERY_CHARACTERS):
            raise ValidationError({"q": [_("Too long.")]})
        try:
            number = int(k or "1")
            table = draw_odds.table_for(draw_odds.choose(deck, card=card.strip(), q=q.strip()), number)
        except draw_odds.OddsError as exc:
            raise ValidationError({"detail": [str(exc)]}) from None
        except (ValueError, OverflowError):
            raise ValidationError({"k": [_("k must be a whole number.")]}) from None
        return Response(OddsOutputSerializer(table.rounded()).data)


class CompareEntrySerializer(serializers.Serializer):
    """A card name in one deck (or the same in both): its copies there."""

    name = serializers.CharField()
    card = serializers.CharField(source="code", help_text="The first card of that name, for links")
    count = serializers.IntegerField(source="a")


class CompareOnlyBSerializer(CompareEntrySerializer):
    count = serializers.IntegerField(source="b")


class CompareChangedSerializer(serializers.Serializer):
    """A card name in both decks with other counts."""

    name = serializers.CharField()
    card = serializers.CharField(source="code", help_text="The first card of that name, for links")
    a = serializers.IntegerField()
    b = serializers.IntegerField()


class CompareOutputSerializer(serializers.Serializer):
    """decks.compare.Comparison, read as it is."""

    only_a = CompareEntrySerializer(many=True)
    only_b = CompareOnlyBSerializer(many=True)
    changed = CompareChangedSerializer(many=True)
    same = CompareEntrySerializer(many=True)


class DeckCompareView(APIView):
    """Two decks the caller may read, compared by card name (main deck and reinforcements)."""

    permission_classes = [IsAuthenticatedOrReadOnly]

    @extend_schema(
        parameters=[
            OpenApiParameter("a", {"type": "integer", "minimum": 1, "maximum": MAX_ID}, required=True),
            OpenApiParameter("b", {"type": "integer", "minimum": 1, "maximum": MAX_ID}, required=True),
        ],
        responses={200: CompareOutputSerializer, 400: ERROR, 404: ERROR},
    )
    def get(self, request: Request) -> Response:
        ids = []
        for name in ("a", "b"):
            raw = request.query_params.get(name, "")
            number = whole_number(raw, low=1, high=MAX_ID, max_digits=19)
            if number is None:
                raise ValidationError({name: [_("A deck number is needed.")]})
            ids.append(number)
        a, b = (_visible(request, pk) for pk in ids)
        result = deck_compare.compare(services.snapshot_of(a), services.snapshot_of(b))
        return Response(CompareOutputSerializer(result).data)


class PurchaseSerializer(serializers.Serializer):
    card = serializers.CharField(help_text="The card's code")
    name = serializers.CharField(help_text="Its printed name")
    count = serializers.IntegerField(help_text="Copies to buy")


class CloseEnoughSerializer(serializers.Serializer):
    """One purchase: the copies to buy, and the decks (public, or shared with my groups) it makes
    buildable from my collection."""

    buy = serializers.SerializerMethodField()
    unlocks = serializers.IntegerField(help_text="How many more decks become buildable")
    decks = serializers.ListField(child=serializers.IntegerField(), help_text="Up to 10 of them (ids)")

    @extend_schema_field(PurchaseSerializer(many=True))
    def get_buy(self, suggestion: Suggestion) -> list[dict[str, Any]]:
        by_code = catalog_index().by_code
        return [{"card": code, "name": by_code[code].name, "count": n} for code, n in suggestion.buy]


class CloseEnoughView(APIView):
    """What to buy next: the fewest copies that make the most decks buildable from my collection."""

    permission_classes = [IsAuthenticated]

    @extend_schema(
        parameters=[
            OpenApiParameter(
                "missing",
                {"type": "integer", "minimum": 1, "maximum": MAX_MISSING, "default": DEFAULT_MISSING},
                description="Copies a purchase may take at most",
            ),
        ],
        responses={200: CloseEnoughSerializer(many=True), 400: ERROR, 401: ERROR},
        operation_id="decks_close_enough",
    )
    def get(self, request: Request) -> Response:
        raw = request.query_params.get("missing", str(DEFAULT_MISSING))
        missing = whole_number(raw, low=1, high=MAX_MISSING, max_digits=2)
        if missing is None:
            raise ValidationError({"missing": [_("A whole number from 1 to %(n)d.") % {"n": MAX_MISSING}]})
        return Response(CloseEnoughSerializer(close_enough(request.user, missing), many=True).data)


class LikeAnswerSerializer(serializers.Serializer):
    likes = serializers.IntegerField()
    liked = serializers.BooleanField()


class DeckLikeView(APIView):
    """Like another's public deck (POST) or take the like back (DELETE): once per reader."""

    permission_classes = [IsAuthenticated]

    @extend_schema(request=None, responses={200: LikeAnswerSerializer, 400: ERROR, 401: ERROR, 404: ERROR})
    def post(self, request: Request, deck_id: int) -> Response:
        try:
            count = likes.like(_visible(request, deck_id), request.user)
        except likes.LikeError as exc:
            raise ValidationError({"deck": [str(exc)]}) from None
        return Response({"likes": count, "liked": True})

    @extend_schema(request=None, responses={200: LikeAnswerSerializer, 401: ERROR, 404: ERROR})
    def delete(self, request: Request, deck_id: int) -> Response:
        return Response({"likes": likes.unlike(_visible(request, deck_id), request.user), "liked": False})


class BookmarkAnswerSerializer(serializers.Serializer):
    bookmarked = serializers.BooleanField()


class DeckBookmarkView(APIView):
    """Keep a deck I may read for later (POST), or stop keeping it (DELETE): `?saved=1` lists them."""

    permission_classes = [IsAuthenticated]

    @extend_schema(request=None, responses={200: BookmarkAnswerSerializer, 401: ERROR, 404: ERROR})
    def post(self, request: Request, deck_id: int) -> Response:
        return Response({"bookmarked": likes.keep(_visible(request, deck_id), request.user, True)})

    @extend_schema(request=None, responses={200: BookmarkAnswerSerializer, 401: ERROR, 404: ERROR})
    def delete(self, request: Request, deck_id: int) -> Response:
        return Response({"bookmarked": likes.keep(_visible(request, deck_id), request.user, False)})
