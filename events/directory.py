"""The events directory: listed events found by place, format and date, a month's calendar, and
the iCal and Atom feeds, all read through one query (`listed_events`)."""

from __future__ import annotations

import calendar
from dataclasses import dataclass, field
from datetime import date, datetime, time, timedelta
from typing import Any

from django.db.models import Count, F, Q, Window
from django.db.models.functions import RowNumber, TruncDate
from django.urls import reverse
from django.utils import timezone

from decks.i18n import label_formats
from events.models import Event, EventQuerySet, Registration

# A page of the directory; its pages stop here (filter to go further).
DIRECTORY_PAGE = 30
MAX_PAGE = 200
# The feeds carry this many, from events a month past on (a calendar keeps what it showed).
FEED_EVENTS = 200
FEED_PAST = timedelta(days=30)
# A listed event's page shows its first placings; the venue's page has them all.
TOP_PLACINGS = 8


def listed_events(
    *,
    region: str = "",
    city: str = "",
    format: str = "",
    since: date | None = None,
    until: date | None = None,
    organiser: str = "",
) -> EventQuerySet:
    """Listed events, soonest first, filtered as the directory, the calendars and the API ask.
    `since`/`until` bound the event's day (Event.day). A listed event says when it starts
    (Event.clean), so its day is its start's: the range is one on the start time, which the
    index on (visibility, starts_at) serves."""
    events = Event.objects.listed().filter(starts_at__isnull=False).select_related("organiser")
    if region:
        events = events.filter(region=region)
    if city:
        events = events.filter(city__iexact=city.strip())
    if format:
        events = events.filter(format=format)
    if since is not None:
        events = events.filter(starts_at__gte=_midnight(since))
    if until is not None:
        events = events.filter(starts_at__lt=_midnight(until + timedelta(days=1)))
    if organiser:
        events = events.filter(organiser__username=organiser)
    return events.order_by("starts_at", "pk")


def _midnight(day: date) -> datetime:
    """The moment `day` begins in local time (Taipei)."""
    return timezone.make_aware(datetime.combine(day, time.min))


def feed_events(region: str = "", organiser: str = "") -> EventQuerySet:
    """What the iCal and Atom feeds carry: listed events from FEED_PAST ago on, soonest first."""
    return listed_events(region=region, organiser=organiser, since=timezone.localdate() - FEED_PAST)


def places_taken(events: list[Event]) -> None:
    """Each event's `taken` (players with a place) and `waiting`, in one query for the page."""
    counts = {
        row["event_id"]: row
        for row in Registration.objects.filter(event__in=[e.pk for e in events])
        .values("event_id")
        .annotate(taken=Count("pk", filter=Q(waiting=False)), waiting=Count("pk", filter=Q(waiting=True)))
    }
    for event in events:
        row = counts.get(event.pk, {})
        event.taken = row.get("taken", 0)  # type: ignore[attr-defined]
        event.waiting_count = row.get("waiting", 0)  # type: ignore[attr-defined]


def shown(events: list[Event]) -> list[Event]:
    """A page's events with what their rows show: their places taken and their format's name."""
    places_taken(events)
    label_formats(events)
    return events


# A day of the calendar names this many events; "+n more" leads to the day's list.
DAY_EVENTS = 3


@dataclass
class Day:
    day: date
    in_month: bool
    events: list[dict[str, Any]] = field(default_factory=list)  # {"pk", "name", "url"}
    more: int = 0


def month_weeks(month: date, filters: dict[str, Any]) -> list[list[Day]]:
    """The month's weeks, Monday first, each day with the first DAY_EVENTS events held on it
    and how many more: two queries of at most a row a day and DAY_EVENTS a day, however busy
    the month."""
    weeks = calendar.Calendar(firstweekday=0).monthdatescalendar(month.year, month.month)
    days = {d: Day(d, d.month == month.month) for week in weeks for d in week}
    first, last = month_bounds(month)
    in_month = listed_events(**(filters | {"since": first, "until": last})).annotate(
        on=TruncDate("starts_at", tzinfo=timezone.get_current_timezone())
    )
    counts = dict(in_month.order_by().values("on").annotate(n=Count("pk")).values_list("on", "n"))
    ranked = in_month.annotate(
        nth=Window(RowNumber(), partition_by=F("on"), order_by=[F("starts_at").asc(), F("pk").asc()])
    )
    for pk, name, on in ranked.filter(nth__lte=DAY_EVENTS).values_list("pk", "name", "on"):
        if on in days:
            days[on].events.append({"pk": pk, "name": name, "url": reverse("events:detail", args=[pk])})
    for on, n in counts.items():
        if on in days:
            days[on].more = n - len(days[on].events)
    return [[days[d] for d in week] for week in weeks]


def month_bounds(month: date) -> tuple[date, date]:
    first = month.replace(day=1)
    return first, first.replace(day=calendar.monthrange(first.year, first.month)[1])


def neighbour_months(month: date) -> tuple[date, date]:
    first, last = month_bounds(month)
    return (first - timedelta(days=1)).replace(day=1), last + timedelta(days=1)


def filters_of(data: dict[str, Any]) -> dict[str, Any]:
    """The query's arguments from a valid filter form's or serializer's data."""
    return {
        "region": data.get("region") or "",
        "city": data.get("city") or "",
        "format": data.get("format") or "",
        "since": data.get("since"),
        "until": data.get("until"),
    }
