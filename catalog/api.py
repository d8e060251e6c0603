"""Read-only catalogue API: /api/cards/, /api/cards/<code>/, /api/sets/, /api/sets/<code>/, and the
rules and their terms: /api/rules/, /api/terms/."""

from __future__ import annotations

import hashlib
import re
from typing import Any

from django.core.cache import cache
from django.db.models import Count, QuerySet
from django.http import HttpResponse, HttpResponseNotModified
from django.http.response import HttpResponseBase
from django.urls import reverse
from django.utils import translation
from django.utils.cache import patch_vary_headers
from django.utils.text import compress_string
from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema, extend_schema_field
from rest_framework import generics, serializers
from rest_framework.exceptions import NotFound, ValidationError
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from catalog import cache_version, facts, images, rules, terms, vocab
from catalog.filters import CardFilter
from catalog.loading import RECORD_KEYS
from catalog.models import Card, CardChange, CardSet
from catalog.stored_answers import mark_storable, within_store_budget
from webutil.pagination import MAX_PAGE_SIZE

_GZIP = re.compile(r"\bgzip\b")
_GZIP_FROM = 200
# Stored answers: (content, content type, the content compressed or None). The number changes
# when that shape does, so that answers stored by an older release are never read.
_STORED = "catalog-api:2:"


class CatalogueCacheMixin:
    """Catalogue answers are the same for everyone until the catalogue changes: they are kept
    in the cache (Redis when configured) under the catalogue's version, with an ETag so that a
    client holding the current answer gets a bodyless 304.

    The lookup happens in the handler, after DRF has authenticated and throttled the request: a
    cached answer is cheap, but not free. The key is built from the known parameters only, in a
    normal form (unknown ones are ignored, never keyed), and what may be stored per hour is
    bounded, so that distinct query strings cannot fill the cache.
    """

    cache_seconds = 60
    # Parameters that change the answer; any other is ignored by the view and so by the key.
    cache_parameters: frozenset[str] = frozenset()

    def _digest(self, request: Request) -> str:
        params = sorted(
            (key, tuple(sorted(values)))
            for key, values in request.query_params.lists()
            if key in self.cache_parameters and any(values)
        )
        fmt = request.accepted_renderer.format if getattr(request, "accepted_renderer", None) else ""
        raw = f"{cache_version.current()}|{request.path}|{params!r}|{fmt}"
        return hashlib.sha256(raw.encode()).hexdigest()[:32]

    def get(self, request: Request, *args: Any, **kwargs: Any) -> Any:
        digest = self._digest(request)
        etag = f'"{digest}"'
        # Compared weakly, as If-None-Match is: compression (GZipMiddleware) sends the tag as W/"…".
        if etag in [t.strip().removeprefix("W/") for t in request.headers.get("If-None-Match", "").split(",")]:
            return self._cacheable(HttpResponseNotModified(), etag)
        cached = cache.get(f"{_STORED}{digest}")
        if cached is not None:
            content, content_type, compressed = cached
            answer = HttpResponse(content, content_type=content_type)
            if compressed is not None and _GZIP.search(request.headers.get("Accept-Encoding", "")):
                # Compressed once, when stored: GZipMiddleware leaves an answer that is already.
                answer = HttpResponse(compressed, content_type=content_type)
                answer["Content-Encoding"] = "gzip"
                etag = f"W/{etag}"  # as GZipMiddleware marks what it compressed
            patch_vary_headers(answer, ["Accept-Encoding"])
            return self._cacheable(answer, etag)
        self._store_as = digest
        return super().get(request, *args, **kwargs)  # type: ignore[misc]  # a mixin: the view it is mixed into has get()

    def finalize_response(self, request: Request, response: Any, *args: Any, **kwargs: Any) -> Any:
        response = super().finalize_response(request, response, *args, **kwargs)  # type: ignore[misc]  # likewise
        digest = getattr(self, "_store_as", None)
        if digest and response.status_code == 200:
            response.render()
            content = response.rendered_content
            # Small answers are sent as they are (GZipMiddleware's own threshold).
            compressed = compress_string(content) if len(content) >= _GZIP_FROM else None
            if within_store_budget(len(content) + len(compressed or b"")):
                cache.set(f"{_STORED}{digest}", (content, response["Content-Type"], compressed), 3600)
            self._cacheable(response, f'"{digest}"')
        return response

    def _cacheable(self, response: HttpResponseBase, etag: str) -> HttpResponseBase:
        # Kept whole for anonymous clients (keyed by the raw query string) only when every
        # parameter is one the answer depends on: unknown ones are never keyed.
        if all(key in self.cache_parameters for key in self.request.query_params):  # type: ignore[attr-defined]  # the view's
            mark_storable(response)
        response["ETag"] = etag
        response["Cache-Control"] = f"public, max-age={self.cache_seconds}"
        return response


class LabelSerializer(serializers.Serializer):
    zh = serializers.CharField()
    en = serializers.CharField()


# One label a choice fact (catalog.facts): {"kind": {"zh": "部隊", "en": "Troop"}, ...}; null
# for a fact the card does not have.
LabelsSerializer = type(
    "LabelsSerializer",
    (serializers.Serializer,),
    {fact.name: LabelSerializer(allow_null=not fact.required) for fact in facts.CHOICE_FACTS},
)


class PictureSerializer(serializers.Serializer):
    url = serializers.CharField()
    width = serializers.IntegerField()
    height = serializers.IntegerField()
    thumbnails = serializers.DictField(child=serializers.CharField(), help_text="Width in pixels → URL")
    credit = serializers.CharField(allow_null=True, help_text="Who photographed it (a contribution), or null")


class PicturesSerializer(serializers.Serializer):
    front = PictureSerializer(allow_null=True)
    back = PictureSerializer(allow_null=True)


# A choice's printed (Traditional) label, as the card prints it.
_PRINTED: dict[str, dict[str, str]] = {
    fact.name: {value: str(label) for value, label in fact.choices.choices}
    for fact in facts.CHOICE_FACTS
    if fact.choices
}


class CardOutputSerializer(serializers.ModelSerializer):
    set: serializers.SlugRelatedField[CardSet] = serializers.SlugRelatedField(
        slug_field="code", read_only=True, allow_null=True
    )
    rarity = serializers.CharField(source="rarity_display", allow_null=True, read_only=True)
    labels = serializers.SerializerMethodField()
    url = serializers.CharField(source="get_absolute_url", read_only=True)
    face = serializers.SerializerMethodField(help_text="The card face drawn from its data, as SVG")
    pictures = serializers.SerializerMethodField(help_text="Uploaded pictures (WebP), or null for a side without one")
    provenance = serializers.SerializerMethodField(
        help_text="Per fact: `printed` (the card tables) or the id of the change that supplied it"
    )
    terms = serializers.SerializerMethodField(
        help_text="The game terms its kind, facts and text name, as slugs of GET /api/terms/"
    )

    class Meta:
        model = Card
        # The data file's facts, then what the API derives from them.
        fields = [*RECORD_KEYS, "aliases", "rarity", "labels", "url", "face", "pictures", "provenance", "terms"]
        read_only_fields = fields

    def get_face(self, card: Card) -> str:
        # Versioned: browsers keep a face for a day, and a reviewed change must show at once.
        return reverse("catalog:card-face", args=[card.code]) + f"?v={cache_version.current()}"

    @extend_schema_field(
        {"type": "object", "additionalProperties": {"oneOf": [{"type": "string"}, {"type": "integer"}]}}
    )
    def get_provenance(self, card: Card) -> dict[str, str | int]:
        return {
            name: card.provenance[name]["change"] if name in card.provenance else facts.PRINTED
            for name in facts.PROPOSABLE
        }

    def get_terms(self, card: Card) -> list[str]:
        return terms.of_card(card)

    @extend_schema_field(PicturesSerializer)
    def get_pictures(self, card: Card) -> dict[str, Any]:
        found = images.pictures_for(self.context.get("request"))
        return {side: _picture(found.get((card.pk, side))) for side in ("front", "back")}

    @extend_schema_field(LabelsSerializer)
    def get_labels(self, card: Card) -> dict[str, dict[str, str] | None]:
        """Display labels of the slug fields: {"kind": {"zh": "部隊", "en": "Troop"}, ...}."""
        out: dict[str, dict[str, str] | None] = {}
        for fact in facts.CHOICE_FACTS:
            slug = getattr(card, fact.name)
            out[fact.name] = {"zh": _PRINTED[fact.name][slug], "en": vocab.ENGLISH[slug]} if slug else None
        return out


def _picture(found: images.Picture | None) -> dict[str, Any] | None:
    if found is None:
        return None
    thumbs = {str(width): url for width, url in found.thumbnails.items()}
    return {
        "url": found.full,
        "width": found.width,
        "height": found.height,
        "thumbnails": thumbs,
        "credit": found.credit,
    }


def _text(name: str, description: str) -> OpenApiParameter:
    # NUL bytes are refused (400): the schema says so, for clients and for the fuzzer.
    return OpenApiParameter(
        name, {"type": "string", "maxLength": 200, "pattern": "^[^\\x00]*$"}, description=description
    )


def _choices(name: str, values: list[str], description: str) -> OpenApiParameter:
    schema = {"type": "array", "minItems": 1, "items": {"type": "string", "enum": values}}
    return OpenApiParameter(name, schema, description=description, style="form", explode=True)


def _number(name: str, minimum: int, maximum: int, description: str) -> OpenApiParameter:
    return OpenApiParameter(name, {"type": "integer", "minimum": minimum, "maximum": maximum}, description=description)


ERRORS = {
    400: OpenApiResponse(OpenApiTypes.OBJECT, description="A parameter is not valid: {parameter: [messages]}"),
    404: OpenApiResponse(OpenApiTypes.OBJECT, description="No such page or card: {detail: message}"),
}


def _fact_parameters(fact: facts.Fact) -> list[OpenApiParameter]:
    name, english = fact.name, fact.english
    if fact.choices is not None:
        return [_choices(name, fact.choices.values, f"{english}: one or more")]
    if fact.kind != facts.INT:
        return [_text(name, f"{english}, as printed (either script)")]
    exact = [_number(name, fact.low, fact.high, english)]
    if fact.filter != facts.RANGE:
        return exact
    return [
        *exact,
        _number(f"{name}_min", fact.low, fact.high, f"{english} at least"),
        _number(f"{name}_max", fact.low, fact.high, f"{english} at most"),
    ]


# The catalogue's filters, documented precisely (also used by /api/collection/): the search box
# and the set, then each fact's filter as catalog.filters makes it.
CARD_FILTER_PARAMETERS = [
    _text("q", "Search: names in either script, pinyin (liubei, lb), codes (yxjq3, WD-001), skills text"),
    _choices("set", list(vocab.SETS), "Set code(s)"),
    *(parameter for fact in facts.FILTERS for parameter in _fact_parameters(fact)),
    _number("page", 1, 10**6, "Page number"),
    _number("page_size", 1, MAX_PAGE_SIZE, f"Cards per page (default 50, at most {MAX_PAGE_SIZE})"),
]


# Every documented parameter but free text, and the ordering django-filter adds (`sort`).
_NOT_BLANK = [p.name for p in CARD_FILTER_PARAMETERS if isinstance(p.type, dict) and p.type.get("type") != "string"]
_NOT_BLANK.append("sort")


def refuse_blank_values(request: Request) -> None:
    """A number or a choice given empty (`?cost=`, `?kind=`, `?sort=`) is a 400, as the schema
    says what it holds: a filter left empty is left out of the query, not sent blank. Free text
    (`q`, `affiliation`) may be empty."""
    blank = [name for name in _NOT_BLANK if "" in request.query_params.getlist(name)]
    if blank:
        raise ValidationError({name: [_("A value is needed.")] for name in blank})


class CardListView(CatalogueCacheMixin, generics.ListAPIView):
    """The catalogue, filtered like the card list page; search with `q`."""

    cache_parameters = frozenset(CardFilter.base_filters) | {"page", "page_size"}

    serializer_class = CardOutputSerializer
    filterset_class = CardFilter
    permission_classes = [AllowAny]

    @extend_schema(
        parameters=CARD_FILTER_PARAMETERS,
        responses={200: CardOutputSerializer(many=True), **ERRORS},
    )
    def get(self, request: Request, *args: Any, **kwargs: Any) -> Any:
        refuse_blank_values(request)
        return super().get(request, *args, **kwargs)

    def get_queryset(self) -> QuerySet[Card]:
        return Card.objects.with_set()


class CardDetailView(CatalogueCacheMixin, generics.RetrieveAPIView):
    """One card by its code; aliases such as `WD-001` or `yxjq3` are accepted."""

    serializer_class = CardOutputSerializer
    permission_classes = [AllowAny]
    lookup_url_kwarg = "code"

    @extend_schema(responses={200: CardOutputSerializer, 404: ERRORS[404]})
    def get(self, request: Request, *args: Any, **kwargs: Any) -> Any:
        return super().get(request, *args, **kwargs)

    def get_object(self) -> Card:
        code = self.kwargs["code"]
        card = Card.objects.by_code(code)
        if card is None:
            raise NotFound(_("No card with the code “%(code)s”.") % {"code": code[:40]})
        return card


class SetOutputSerializer(serializers.ModelSerializer):
    card_count = serializers.IntegerField(read_only=True)

    class Meta:
        model = CardSet
        fields = ["code", "name", "order", "description", "card_count"]


class SetListView(CatalogueCacheMixin, generics.ListAPIView):
    serializer_class = SetOutputSerializer
    permission_classes = [AllowAny]
    pagination_class = None
    filter_backends: list[Any] = []

    def get_queryset(self) -> QuerySet[CardSet]:
        return CardSet.objects.annotate(card_count=Count("cards")).order_by("order")


class SetDetailView(CatalogueCacheMixin, generics.RetrieveAPIView):
    serializer_class = SetOutputSerializer
    permission_classes = [AllowAny]
    filter_backends: list[Any] = []

    @extend_schema(responses={200: SetOutputSerializer, 404: ERRORS[404]})
    def get(self, request: Request, *args: Any, **kwargs: Any) -> Any:
        return super().get(request, *args, **kwargs)

    def get_object(self) -> CardSet:
        code = self.kwargs["code"].upper()
        card_set = CardSet.objects.annotate(card_count=Count("cards")).filter(code=code).first()
        if card_set is None:
            raise NotFound(_("No set with the code “%(code)s”.") % {"code": self.kwargs["code"][:40]})
        return card_set


class ChangeOutputSerializer(serializers.Serializer):
    """A change to a card: this serializer both produces the answer and documents it."""

    id = serializers.IntegerField(source="pk")
    created_at = serializers.DateTimeField()
    # "source" is a serializer field's own attribute in DRF: the change's origin is named so.
    origin = serializers.ChoiceField(
        source="source",
        choices=CardChange.Source.choices,
        help_text="printed (a load of the data file), contribution, admin or revert",
    )
    changes = serializers.DictField(
        child=serializers.ListField(child=serializers.JSONField(), min_length=2, max_length=2),
        help_text="{fact: [before, after]}",
    )
    note = serializers.CharField()
    proposer = serializers.CharField(source="proposer.username", allow_null=True)
    reviewer = serializers.CharField(source="reviewer.username", allow_null=True)
    reverts = serializers.IntegerField(source="reverts_id", allow_null=True)


class CardHistoryView(APIView):
    """Every change to one card, newest first (at most 200)."""

    permission_classes = [AllowAny]

    @extend_schema(responses={200: ChangeOutputSerializer(many=True), 404: ERRORS[404]})
    def get(self, request: Request, code: str) -> Response:
        card = Card.objects.by_code(code)
        if card is None:
            raise NotFound(_("No card with the code “%(code)s”.") % {"code": code[:40]})
        changes = CardChange.objects.for_history().filter(card=card)[:200]
        return Response(ChangeOutputSerializer(changes, many=True).data)


class ScriptsSerializer(serializers.Serializer):
    """One text in each script; `en` is null where it is not translated."""

    zh_hant = serializers.CharField(allow_null=True)
    zh_hans = serializers.CharField(allow_null=True)
    en = serializers.CharField(allow_null=True)


class RulesSectionSerializer(serializers.Serializer):
    anchor = serializers.CharField(help_text="stable: /rules/#<anchor>")
    part_of = serializers.CharField(source="parent", allow_null=True, help_text="the anchor of the section it is in")
    title = ScriptsSerializer()
    text = ScriptsSerializer(help_text="lines separated by newlines")
    zh_hans_from = serializers.ChoiceField(
        choices=["001", "000"], help_text="001: the Simplified seed's own text; 000: converted from Traditional"
    )


class OlderRulesSerializer(serializers.Serializer):
    anchor = serializers.CharField()
    superseded = serializers.BooleanField()
    title = serializers.CharField(help_text="as printed, in Simplified")
    text = serializers.CharField(help_text="as printed, in Simplified")


class RulesSerializer(serializers.Serializer):
    sections = RulesSectionSerializer(many=True)
    older = OlderRulesSerializer(help_text="an older text of the rules (decks of 30–50 cards), superseded")


class RulesView(APIView):
    """The printed rules, section by section, in both scripts (English where translated)."""

    permission_classes = [AllowAny]

    @extend_schema(responses={200: RulesSerializer})
    def get(self, request: Request) -> Response:
        book = rules.book()
        older = {"anchor": book.older.anchor, "superseded": True, "title": book.older.title, "text": book.older.text}
        return Response(RulesSerializer({"sections": book.sections, "older": older}).data)


class TermSerializer(serializers.Serializer):
    slug = serializers.CharField()
    term = serializers.SerializerMethodField()
    definition = serializers.SerializerMethodField(help_text="a line of the rules; null where they define none")
    anchor = serializers.CharField(help_text="the rules section that explains it: /rules/#<anchor>")

    @extend_schema_field(ScriptsSerializer)
    def get_term(self, term: terms.Term) -> dict[str, str | None]:
        with translation.override("en"):
            return {**term.words(), "en": str(term.english)}

    @extend_schema_field(ScriptsSerializer)
    def get_definition(self, term: terms.Term) -> dict[str, str | None]:
        # The rules are not translated: no English definition yet.
        return {"zh_hant": term.definition("zh_hant"), "zh_hans": term.definition("zh_hans"), "en": None}


class TermListView(APIView):
    """The game's terms, each with its definition from the rules and its section."""

    permission_classes = [AllowAny]

    @extend_schema(responses={200: TermSerializer(many=True)})
    def get(self, request: Request) -> Response:
        return Response(TermSerializer(list(terms.TERMS.values()), many=True).data)
