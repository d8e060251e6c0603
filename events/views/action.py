"""A change to the tournament day from the organisers' page, written once: who may make it, the
answer when the day's rules refuse it, and where the page goes afterwards. A new day action is
one function under `day_action` and its form in the day's template."""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any, TypeVar

from django.contrib.auth.decorators import login_required
from django.forms import BaseForm
from django.http import HttpResponse
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


def _back(event: Event) -> HttpResponse:
    return redirect("events:day", event.pk)


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


def day_action(view: Callable[..., HttpResponse | None]) -> Callable[..., HttpResponse]:
    """A change to the day from the organisers' page, written once: logged in, POST only, on an
    event this user runs (a 404 to anyone else; the view is given the event, not its id). What
    the day's rules refuse (day.TournamentError, Refused) is answered with its reason (400) and
    the way back; an action that answers nothing goes back to the day's page. The rules and
    their locks are the services' (events.day, events.tools)."""

    @login_required
    @require_POST
    @wraps(view)
    def action(request: AuthedRequest, event_id: int, **kwargs: Any) -> HttpResponse:
        event = run(request, event_id)
        try:
            answer = view(request, event, **kwargs)
        except (day.TournamentError, Refused) as exc:
            return refused(request, event, str(exc))
        return _back(event) if answer is None else answer

    return action
