"""Events anyone can find, over the API: listed events (`GET /api/events/?listed=1`, in cursor
pages), a listed event's public answer, registering for it, a player's events, and the regions.
Each answer has its one serializer here; events.api answers the organiser's side."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.http import Http404
from django.shortcuts import get_object_or_404
from django.utils import timezone
from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema, extend_schema_field
from rest_framework import serializers, status
from rest_framework.exceptions import NotFound, PermissionDenied, ValidationError
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from events import directory, presenters, services
from events.models import Event
from people import profiles, regions
from rules_check import FORMATS
from webutil.fields import StrictCharField
from webutil.pagination import MAX_PAGE_SIZE, StrictCursorPagination

ERROR = {"description": "{field: [messages]} or {detail: message}"}


class RegionSerializer(serializers.Serializer):
    slug = serializers.CharField()
    name = serializers.CharField(source="label", help_text="In the reader's language")
    zh_hant = serializers.CharField()
    zh_hans = serializers.CharField()
    en = serializers.CharField()


class ListedEventSerializer(serializers.Serializer):
    """A listed event as anyone sees it."""

    id = serializers.IntegerField(source="pk")
    name = serializers.CharField()
    format = serializers.CharField()
    format_label = serializers.CharField()
    starts_at = serializers.DateTimeField(allow_null=True)
    deadline = serializers.DateTimeField(help_text="Registrations and lists are taken until then")
    venue = serializers.CharField()
    address = serializers.CharField()
    city = serializers.CharField()
    region = serializers.CharField()
    region_name = serializers.CharField(source="region_label")
    fee = serializers.CharField()
    cap = serializers.IntegerField(allow_null=True)
    taken = serializers.IntegerField(help_text="Players with a place")
    waiting = serializers.IntegerField(source="waiting_count", help_text="Players on the waiting list")
    contact = serializers.CharField()
    organiser = serializers.CharField(source="organiser.username")
    rated = serializers.BooleanField()
    url = serializers.SerializerMethodField()

    @extend_schema_field(OpenApiTypes.STR)
    def get_url(self, event: Event) -> str:
        return event.get_absolute_url()


class PlacingSerializer(serializers.Serializer):
    place = serializers.IntegerField()
    name = serializers.CharField()
    general = serializers.CharField(allow_null=True)


class ListedEventDetailSerializer(ListedEventSerializer):
    """A listed event with its stage and, once finished, its final placings."""

    stage = serializers.SerializerMethodField(help_text="before, swiss, top_cut or finished")
    placings = serializers.SerializerMethodField(help_text="Once finished: every player in final order")

    # Both come from the day's presenters (listed_detail), handed over in the context.
    @extend_schema_field(OpenApiTypes.STR)
    def get_stage(self, event: Event) -> str:
        return str(self.context["stage"])

    @extend_schema_field(PlacingSerializer(many=True))
    def get_placings(self, event: Event) -> list[dict[str, Any]]:
        return list(self.context["placings"])


class ListedEventPageSerializer(serializers.Serializer):
    next = serializers.CharField(allow_null=True)
    previous = serializers.CharField(allow_null=True)
    results = ListedEventSerializer(many=True)


class ListedQuerySerializer(serializers.Serializer):
    """`?listed=1` and the directory's filters."""

    listed = serializers.ChoiceField(choices=["1"], required=False)
    region = serializers.ChoiceField(choices=[], required=False)
    city = StrictCharField(max_length=50, required=False)
    format = serializers.ChoiceField(choices=[], required=False)
    from_ = serializers.DateField(required=False)
    to = serializers.DateField(required=False)
    cursor = StrictCharField(max_length=200, required=False)
    page_size = serializers.IntegerField(min_value=1, max_value=MAX_PAGE_SIZE, required=False)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        region, fmt = self.fields["region"], self.fields["format"]
        assert isinstance(region, serializers.ChoiceField) and isinstance(fmt, serializers.ChoiceField)
        region.choices = list(regions.regions())
        fmt.choices = list(FORMATS)
        self.fields["from"] = self.fields.pop("from_")

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        for name in ("listed", "region", "format", "from", "to", "page_size"):
            if self.initial_data.get(name) == "":  # one of its values, or absent: never empty
                raise ValidationError({name: [_("This field may not be blank.")]})
        return attrs


LISTED_PARAMETERS = [
    OpenApiParameter("listed", str, enum=["1"], description="1: listed events for anyone, not mine"),
    OpenApiParameter("region", str, enum=list(regions.regions()), description="A region's slug"),
    OpenApiParameter("city", str, description="A city, as organisers write it"),
    OpenApiParameter("format", str, enum=list(FORMATS)),
    OpenApiParameter("from", OpenApiTypes.DATE, description="Events from this day (default: today)"),
    OpenApiParameter("to", OpenApiTypes.DATE, description="Events until this day"),
    OpenApiParameter("cursor", str, description="The `next` or `previous` link's position"),
    OpenApiParameter(
        "page_size", {"type": "integer", "minimum": 1, "maximum": MAX_PAGE_SIZE}, description="1 to 500, else 50"
    ),
]


class ListedPagination(StrictCursorPagination):
    ordering = ("starts_at", "id")


def listed_page(request: Request, view: APIView) -> Response:
    """Listed events, soonest first, filtered, in cursor pages (no count, no offset)."""
    query = ListedQuerySerializer(data=request.query_params)
    query.is_valid(raise_exception=True)
    data = query.validated_data
    filters = directory.filters_of(data | {"since": data.get("from"), "until": data.get("to")})
    if filters["since"] is None and filters["until"] is None:
        filters["since"] = timezone.localdate()
    events = directory.listed_events(**filters).filter(starts_at__isnull=False)
    pages = ListedPagination()
    rows = directory.shown(list(pages.paginate_queryset(events, request, view) or []))
    return pages.get_paginated_response(ListedEventSerializer(rows, many=True).data)


def listed_detail(event: Event) -> Response:
    directory.shown([event])
    stage, placings = presenters.results(event)
    finished = stage == presenters.FINISHED
    rows = [{"place": p.place, "name": p.name, "general": p.general or None} for p in placings] if finished else []
    return Response(ListedEventDetailSerializer(event, context={"stage": stage, "placings": rows}).data)


class RegistrationSerializer(serializers.Serializer):
    registered = serializers.BooleanField(help_text="True: a place or a turn on the waiting list")
    waiting = serializers.BooleanField()
    queue = serializers.IntegerField(allow_null=True, help_text="When waiting: 1 is the next to move up")


def _registrable(request: Request, event_id: int) -> Event:
    """A listed event, or an unlisted one the user registered for already (its id says no more)."""
    event = Event.objects.filter(pk=event_id).first()
    if event is None or not (
        event.listed
        or (event.takes_registrations and event.registrations.filter(user_id=request.user.pk or 0).exists())
    ):
        raise NotFound(_("No such event."))
    return event


def _registration(event: Event, user: Any) -> dict[str, Any]:
    place, queue = services.place_of(event, user)
    return {"registered": place is not None, "waiting": bool(place and place.waiting), "queue": queue}


class RegistrationView(APIView):
    """The user's registration for a listed event: `POST` takes a place (or joins the waiting list
    past the cap), `DELETE` gives it up; the first waiting player then moves up and is told."""

    permission_classes = [IsAuthenticated]

    @extend_schema(responses={200: RegistrationSerializer, 401: ERROR, 404: ERROR})
    def get(self, request: Request, event_id: int) -> Response:
        return Response(RegistrationSerializer(_registration(_registrable(request, event_id), request.user)).data)

    @extend_schema(request=None, responses={201: RegistrationSerializer, 401: ERROR, 403: ERROR, 404: ERROR})
    def post(self, request: Request, event_id: int) -> Response:
        event = _registrable(request, event_id)
        try:
            services.register(event, request.user)
        except services.RegistrationRefused as exc:
            raise (NotFound if exc.status == 404 else PermissionDenied)(str(exc)) from None
        return Response(RegistrationSerializer(_registration(event, request.user)).data, status=status.HTTP_201_CREATED)

    @extend_schema(request=None, responses={204: None, 401: ERROR, 403: ERROR, 404: ERROR})
    def delete(self, request: Request, event_id: int) -> Response:
        event = _registrable(request, event_id)
        try:
            if not services.unregister(event, request.user):
                raise NotFound(_("You are not registered for this event."))
        except services.RegistrationRefused as exc:
            raise PermissionDenied(str(exc)) from None
        return Response(status=status.HTTP_204_NO_CONTENT)


class PlayedEventSerializer(serializers.Serializer):
    id = serializers.IntegerField(source="event.pk")
    name = serializers.CharField(source="event.name")
    day = serializers.DateField(source="event.day")
    url = serializers.CharField(help_text="The event's page (listed) or its venue page")
    place = serializers.IntegerField(allow_null=True)
    players = serializers.IntegerField(source="of")
    won = serializers.IntegerField()
    lost = serializers.IntegerField()
    drawn = serializers.IntegerField()
    general = serializers.CharField(allow_null=True)
    list_url = serializers.CharField(allow_null=True, help_text="The list they played, where it is public")


# The answer lists this many events; older ones are a search away.
EVENTS_SHOWN = 20


class UserEventsView(APIView):
    """A player's finished events (those whose lists are public afterwards), newest first, with
    their placing and match record; none when the player hides their history."""

    permission_classes = [AllowAny]

    @extend_schema(responses={200: PlayedEventSerializer(many=True), 404: ERROR})
    def get(self, request: Request, username: str) -> Response:
        user = get_object_or_404(get_user_model(), username=username, is_active=True)
        profile = profiles.profile_of(user)
        if profile.hidden and request.user.pk != user.pk:
            raise Http404
        rows = presenters.played(user, EVENTS_SHOWN) if profile.show_events or request.user.pk == user.pk else []
        return Response(PlayedEventSerializer(rows, many=True).data)


class RegionsView(APIView):
    """The regions an event or a profile names (people.regions), in the list's order."""

    permission_classes = [AllowAny]

    @extend_schema(responses={200: RegionSerializer(many=True)})
    def get(self, request: Request) -> Response:
        return Response(RegionSerializer(list(regions.regions().values()), many=True).data)
