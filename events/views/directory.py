"""Events anyone can find: the directory of listed events with its month calendar, a listed
event's page, registering for it (or its waiting list), and the directory as iCal and Atom."""

from __future__ import annotations

import hashlib
from datetime import datetime
from typing import Any

from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.contrib.syndication.views import Feed
from django.core.cache import cache
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.feedgenerator import Atom1Feed
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST
from icalendar import Calendar
from icalendar import Event as CalendarEvent

from events import directory, presenters, services
from events.forms import DirectoryForm
from events.models import Event, EventDeck
from people import profiles, regions
from webutil.pagination import SlicePage, page_number
from webutil.requests import HtmxHttpRequest


def _filters(request: HttpRequest) -> tuple[DirectoryForm, dict[str, Any], bool]:
    """The directory's filter form and the query's arguments ({} when the form is refused)."""
    form = DirectoryForm(request.GET or None)
    valid = form.is_valid() if form.is_bound else True
    return form, directory.filters_of(form.cleaned_data if form.is_bound and valid else {}), valid


def directory_page(request: HtmxHttpRequest) -> HttpResponse:
    """Listed events, upcoming first, with filters and the month's calendar; "near me" links to
    the region of the reader's profile."""
    form, filters, valid = _filters(request)
    month = (form.cleaned_data.get("month") if valid and form.is_bound else None) or timezone.localdate()
    first, _last = directory.month_bounds(month)
    if filters["since"] is None and filters["until"] is None:
        filters["since"] = timezone.localdate()  # upcoming: from today on
    number = page_number(request, directory.MAX_PAGE)
    page = SlicePage(directory.listed_events(**filters), number or 1, directory.DIRECTORY_PAGE) if valid else None
    rows = directory.shown(list(page.object_list) if page else [])
    previous, following = directory.neighbour_months(month)
    mine = profiles.profile_of(request.user).region if request.user.is_authenticated else ""
    context = {
        "form": form,
        "page": page,
        "events": rows,
        "weeks": directory.month_weeks(month, filters) if valid else [],
        "month": first,
        "previous_month": previous,
        "next_month": following,
        "near_region": mine,
        "near_label": regions.label(mine),
        "region_label": regions.label(filters["region"]),
        "past_pages": number is None,
    }
    return render(request, "events/directory.html", context, status=200 if valid and number else 400)


def event_page(request: HtmxHttpRequest, event: Event) -> HttpResponse:
    """A listed event as anyone sees it (its organiser sees their tools instead, lists.detail):
    when and where, the places left, registering, and once played its standings and top cut."""
    place, queue = services.place_of(event, request.user)
    directory.places_taken([event])
    stage, placings = presenters.results(event)
    decks = dict(EventDeck.objects.filter(event=event).with_lists().values_list("placing", "pk"))
    context = {
        "event": event,
        "place": place,
        "queue": queue,
        "open": event.open_at(),
        "stage": stage,
        "placings": [(p, decks.get(p.place)) for p in placings[: directory.TOP_PLACINGS]],
        "more_placings": len(placings) > directory.TOP_PLACINGS,
        "public_url": reverse("events:public", args=[event.public_token]),
    }
    return render(request, "events/event.html", context)


@require_POST
def register(request: HtmxHttpRequest, event_id: int) -> HttpResponse:
    """Register for a listed event (or leave it, `action=withdraw`): a place, or the waiting list."""
    event = get_object_or_404(Event.objects.listed(), pk=event_id)
    return _register(request, event, event.get_absolute_url())


@require_POST
def register_by_link(request: HtmxHttpRequest, token: str) -> HttpResponse:
    """The same through the event's list link: the way into an unlisted event."""
    event = get_object_or_404(Event, token=token)
    return _register(request, event, event.get_submit_url())


def _register(request: HtmxHttpRequest, event: Event, back: str) -> HttpResponse:
    if not request.user.is_authenticated:
        return redirect_to_login(back)
    try:
        if request.POST.get("action") == "withdraw":
            if services.unregister(event, request.user):
                messages.success(request, _("You are no longer registered."))
            return redirect(back)
        place = services.register(event, request.user)
    except services.RegistrationRefused as exc:
        return render(request, "error.html", {"message": str(exc), "back": back}, status=exc.status)
    if place.waiting:
        messages.info(request, _("The event is full: you are on its waiting list, and told when a place is yours."))
    else:
        messages.success(request, _("You are registered. Send your deck list before the deadline."))
    return redirect(back)


def _calendar_name(region: str, organiser: str) -> str:
    if organiser:
        return _("Events by %(name)s") % {"name": organiser}
    if region:
        return _("Events in %(region)s") % {"region": regions.label(region)}
    return _("Events")


# The calendars may lag the directory this long (a subscribed calendar refreshes less often).
FEED_SECONDS = 300


def calendar_ics(request: HttpRequest) -> HttpResponse:
    """The directory's upcoming events as iCalendar (`?region=`, `?organiser=<username>`), for a
    phone's calendar to subscribe to."""
    region = request.GET.get("region", "")
    organiser = request.GET.get("organiser", "")
    if region and region not in regions.regions():
        return HttpResponse(_("No such region."), status=400, content_type="text/plain; charset=utf-8")
    if len(organiser) > 150:
        return HttpResponse(_("No such organiser."), status=400, content_type="text/plain; charset=utf-8")
    # Calendar apps ask every few minutes, and writing iCalendar takes a quarter of a millisecond
    # an event: one answer per address and language serves them all for FEED_SECONDS.
    query = hashlib.sha256(f"{region}\x00{organiser}\x00{request.get_host()}".encode()).hexdigest()[:32]
    key = f"events-ics:{get_language()}:{query}"
    body = cache.get(key)
    if body is None:
        body = _calendar(request, region, organiser)
        cache.set(key, body, FEED_SECONDS)
    response = HttpResponse(body, content_type="text/calendar; charset=utf-8")
    response["Cache-Control"] = f"public, max-age={FEED_SECONDS}"
    response["Content-Disposition"] = 'inline; filename="events.ics"'
    return response


def _calendar(request: HttpRequest, region: str, organiser: str) -> bytes:
    events = list(directory.feed_events(region=region, organiser=organiser)[: directory.FEED_EVENTS])
    cal = Calendar()
    cal.add("prodid", "-//Zongheng Deckbox//events//")
    cal.add("version", "2.0")
    cal.add("x-wr-calname", _calendar_name(region, organiser))
    now = timezone.now()
    for event in events:
        cal.add_component(_calendar_event(request, event, now))
    return bytes(cal.to_ical())


def _calendar_event(request: HttpRequest, event: Event, now: datetime) -> CalendarEvent:
    item = CalendarEvent()
    item.add("uid", f"event-{event.pk}@{request.get_host().split(':')[0]}")
    item.add("dtstamp", now)
    item.add("dtstart", event.starts_at or event.deadline)
    item.add("summary", event.name)
    where = ", ".join(part for part in (event.venue, event.address, event.city, event.region_label) if part)
    if where:
        item.add("location", where)
    item.add("url", request.build_absolute_uri(event.get_absolute_url()))
    item.add("description", _event_summary(event))
    return item


def _event_summary(event: Event) -> str:
    lines = [event.format_label]
    if event.fee:
        lines.append(_("Entry fee: %(fee)s") % {"fee": event.fee})
    if event.contact:
        lines.append(_("Contact: %(contact)s") % {"contact": event.contact})
    return "\n".join(lines)


class EventsFeed(Feed):
    """Newly listed events (`?region=`), newest first, as an Atom feed."""

    feed_type = Atom1Feed

    def get_object(self, request: HttpRequest) -> str:
        region = request.GET.get("region", "")
        return region if region in regions.regions() else ""

    def title(self, obj: str) -> str:
        return _calendar_name(obj, "")

    def link(self, obj: str) -> str:
        return reverse("events:directory") + (f"?region={obj}" if obj else "")

    def items(self, obj: str) -> list[Event]:
        return list(directory.feed_events(region=obj).order_by("-created", "-pk")[: directory.FEED_EVENTS])

    def item_title(self, item: Event) -> str:
        return item.name

    def item_description(self, item: Event) -> str:
        when = timezone.localtime(item.starts_at).strftime("%Y-%m-%d %H:%M") if item.starts_at else ""
        where = ", ".join(p for p in (item.venue, item.city, item.region_label) if p)
        return " · ".join(p for p in (when, where, _event_summary(item)) if p)

    def item_pubdate(self, item: Event) -> Any:
        return item.created

    def item_updateddate(self, item: Event) -> Any:
        return item.created
