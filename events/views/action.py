"""A change to the tournament day from the organisers' page, written once: who may make it, the
answer when the day's rules refuse it (in place, the input kept), and where the page goes
afterwards (to what changed). A new day action is one function under `day_action` and its form
in the day's template, marked with `{% refused "key" %}` and `{% posted "key" "field" %}`."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import wraps
from typing import Any, TypeVar

from django.contrib.auth.decorators import login_required
from django.forms import BaseForm
from django.http import HttpRequest, HttpResponse, QueryDict
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from events import day
from events.models import Event
from webutil.requests import AuthedRequest, HtmxHttpRequest


def run(request: AuthedRequest, event_id: int) -> Event:
    """An event this user runs (organiser or co-organiser); a 404 to everyone else."""
    return get_object_or_404(day.events_run_by(request.user), pk=event_id)


def _form_message(form: Any) -> str:
    return " ".join(str(e) for errors in form.errors.values() for e in errors)


def refused(request: HtmxHttpRequest, event: Event, message: str) -> HttpResponse:
    """What was not done and why, with the way back to the page the day is run from (the
    organiser's) or the player's event page."""
    if day.runs(event, request.user):
        back, label = reverse("events:day", args=[event.pk]), _("Back to the tournament day")
    else:
        back, label = reverse("events:submit", args=[event.token]), _("Back to the event")
    return render(request, "error.html", {"message": message, "back": back, "back_label": label}, status=400)


class Refused(Exception):
    """What a day action did not do, and why: answered as a refusal of the day's rules is."""


FormT = TypeVar("FormT", bound=BaseForm)


def valid(form: FormT) -> FormT:
    """The form, when it is valid; else Refused, with its errors in one line."""
    if not form.is_valid():
        raise Refused(_form_message(form))
    return form


@dataclass(frozen=True)
class Refusal:
    """A day action the rules refused: which form (`key`, as the template names it), why, and
    what was typed, so that the page comes back with the reason beside that form and the input
    in it."""

    key: str
    message: str
    data: QueryDict


def form_key(request: HttpRequest) -> str:
    """The form a day action came from: its route's name, the ids in its address after the
    event's (a player, a match, a round), and its `action` button or field when it has one:
    "day-result:17", "day-table:2:remove"."""
    match = request.resolver_match
    assert match is not None
    ids = [str(v) for k, v in match.kwargs.items() if k != "event_id"]
    sub = [str(request.POST["action"])[:20]] if request.POST.get("action") else []
    return ":".join([str(match.url_name), *ids, *sub])


View = Callable[..., HttpResponse | None]


def day_action(*, shows: str = "") -> Callable[[View], Callable[..., HttpResponse]]:
    """A change to the day from the organisers' page, written once: logged in, POST only, on an
    event this user runs (a 404 to anyone else; the view is given the event, not its id). The
    rules and their locks are the services' (events.day, events.tools).

    What the rules refuse (day.TournamentError, Refused) is answered in place: to htmx, the
    reason alone (400), which the form shows beside itself, its input untouched; without
    JavaScript, the day's page again (400) with the reason beside the form and what was typed
    in it. Done, the day's page shows what changed: `shows` is the element to show, formatted
    with the address's ids ("match-{match_id}"), the page's top when empty."""

    def decorate(view: View) -> Callable[..., HttpResponse]:
        @login_required
        @require_POST
        @wraps(view)
        def action(request: AuthedRequest, event_id: int, **kwargs: Any) -> HttpResponse:
            event = run(request, event_id)
            try:
                answer = view(request, event, **kwargs)
            except (day.TournamentError, Refused) as exc:
                if request.htmx:
                    return render(request, "events/_refused.html", {"message": str(exc)}, status=400)
                # Here, not at the top: the day's page imports this module for its actions.
                from events.views.day import render_day

                return render_day(request, event, Refusal(form_key(request), str(exc), request.POST.copy()), 400)
            if answer is not None:
                return answer
            page = reverse("events:day", args=[event.pk])
            shown = shows.format(**kwargs)
            if request.htmx:
                # The whole page again, at what changed. Not by its #fragment: a browser sent to
                # its own address plus a fragment only scrolls, it does not load the page again.
                return HttpResponse(headers={"HX-Redirect": page + (f"?shown={shown}" if shown else "")})
            return redirect(page + (f"#{shown}" if shown else ""))

        return action

    return decorate
