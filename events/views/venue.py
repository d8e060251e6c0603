"""The day's pages for everyone with the venue's link: pairings and standings, their preview
picture for chat apps, the round's clock for a screen; and the meta across public events."""

from __future__ import annotations

from django.conf import settings
from django.core.cache import cache
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import get_language

from events import meta, presenters, ratings
from events.forms import (
    MetaForm,
    SeasonForm,
)
from events.models import Event
from events.preview import event_png
from people import regions
from webutil.requests import HtmxHttpRequest


def clock_page(request: HtmxHttpRequest, token: str) -> HttpResponse:
    """The round's clock for a screen at the venue: large type, the round, the time left from the
    server's end time, the tables still playing. htmx refreshes it; without JavaScript the page
    reloads itself."""
    event = get_object_or_404(Event, public_token=token)
    round_ = event.tournament_rounds.published().order_by("-number").prefetch_related("matches").first()
    playing = [m.table for m in round_.matches.all() if not m.done] if round_ is not None else []
    seconds = round_.seconds_left() if round_ is not None else 0
    context = {"event": event, "round": round_, "playing": playing, "left": presenters.clock_text(seconds)}
    return render(request, "events/clock.html", context)


def public_page(request: HtmxHttpRequest, token: str) -> HttpResponse:
    """The venue's page: the current round's pairings and the standings, for anyone with the link."""
    event = get_object_or_404(Event, public_token=token)
    context = presenters.day_context(event, request.GET.get("round"), drafts=False, pages=request.GET)
    context["stage"], context["placings"] = presenters.results(event, context["table"])
    context["lists_shown"] = any(p.text for p in context["placings"])
    return render(request, "events/public.html", context)


# A preview picture may lag the results this long: chat apps keep theirs longer anyway.
PREVIEW_SECONDS = 60


def public_image(request: HtmxHttpRequest, token: str) -> HttpResponse:
    """The public page as a PNG link preview (events.preview), kept a minute per language."""
    event = get_object_or_404(Event, public_token=token)
    # The language is in the address (?lang=), as for a card's face: one picture per address.
    asked = request.GET.get("lang", "")
    language = asked if asked in dict(settings.LANGUAGES) else get_language() or ""
    key = f"event-preview:{event.pk}:{language}"
    png = cache.get(key)
    if png is None:
        with translation.override(language):
            stage, placings = presenters.results(event)
            address = request.build_absolute_uri(reverse("events:public", args=[token]))
            png = event_png(event, address, stage, placings)
        cache.set(key, png, PREVIEW_SECONDS)
    response = HttpResponse(png, content_type="image/png")
    response["Cache-Control"] = f"public, max-age={PREVIEW_SECONDS}"
    return response


def meta_page(request: HtmxHttpRequest) -> HttpResponse:
    """Generals and factions across public events: share of lists, match-win rate, top-cut
    conversion; filtered by format and date range."""
    form = MetaForm(request.GET or None)
    data = form.cleaned_data if form.is_valid() else {}
    events = meta.public_events(data.get("format") or "", data.get("since"), data.get("until"))
    context = {"form": form, **meta.meta(events)}
    return render(request, "events/meta.html", context, status=400 if form.errors else 200)


def ratings_page(request: HtmxHttpRequest) -> HttpResponse:
    """A season's leaderboard (players with five rated matches in it, the others apart), the
    seasons to choose from, and how the rating works."""
    form = SeasonForm(request.GET or None)
    valid = form.is_valid() if form.is_bound else True
    season = (form.cleaned_data.get("season") if valid and form.is_bound else None) or timezone.localdate().year
    region = (form.cleaned_data.get("region") if valid and form.is_bound else "") or ""
    ranked, others = ratings.season_table(season, region) if valid else ([], [])
    context = {
        "form": form,
        "season": season,
        "region_label": regions.label(region),
        "seasons": ratings.seasons(),
        "ranked": ranked,
        "others": others,
        "least": ratings.SEASON_MATCHES,
    }
    return render(request, "events/ratings.html", context, status=200 if valid else 400)
