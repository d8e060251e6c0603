"""The player's side of the tournament day, behind the event's link: check in, drop, report."""

from __future__ import annotations

from types import SimpleNamespace

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import pgettext
from django.views.decorators.http import require_POST

from events import claims, day, presenters
from events.forms import (
    GamesForm,
)
from events.models import Event, Player, PlayerClaim
from events.views.action import refused
from events.views.lists import player_page
from webutil.confirm import unless_confirmed
from webutil.i18n import colon
from webutil.requests import AuthedRequest


def _my_player(request: AuthedRequest, token: str) -> tuple[Event, Player]:
    event = get_object_or_404(Event, token=token)
    player = Player.objects.filter(event=event, user=request.user).first()
    if player is None:
        raise Http404(_("You have no list in this event."))
    return event, player


@login_required
@require_POST
def player_check_in(request: AuthedRequest, token: str) -> HttpResponse:
    event, player = _my_player(request, token)
    try:
        day.set_checked_in(player, True, by_player=True)
    except day.TournamentError as exc:
        return refused(request, event, str(exc))
    messages.success(request, _("You are checked in."))
    return redirect("events:submit", token=token)


@login_required
@require_POST
def player_drop(request: AuthedRequest, token: str) -> HttpResponse:
    _event, player = _my_player(request, token)
    # One tap where "Report" sat must not end someone's event: the second step says what it does.
    asked = unless_confirmed(
        request,
        title=_("Drop from the event?"),
        message=_(
            "You will not be paired in any later round, and only the organiser can bring you back. "
            "Your results so far stay in the standings."
        ),
        button=_("Drop from the event"),
        back=reverse("events:submit", args=[token]),
    )
    if asked:
        return asked
    day.set_dropped(player, True, by_player=True)
    messages.success(request, _("You have dropped from the event. Your results stay in the standings."))
    return redirect("events:submit", token=token)


@login_required
@require_POST
def player_report(request: AuthedRequest, token: str) -> HttpResponse:
    event, player = _my_player(request, token)
    match = presenters.my_match(event, player)
    form = GamesForm(request.POST)
    if match is None:
        return refused(request, event, _("There is no match of yours to report."))
    if not form.is_valid():
        after_label = colon()
        wrong = pgettext("between two sentences", "; ").join(
            f"{form.fields[name].label}{after_label}{' '.join(str(e) for e in errors)}"
            for name, errors in form.errors.items()
        )
        return _report_refused(request, event, _("The result could not be read: %(wrong)s") % {"wrong": wrong})
    try:
        result = day.report(
            match, player, form.cleaned_data["wins"], form.cleaned_data["losses"], form.cleaned_data["draws"]
        )
    except day.TournamentError as exc:
        return _report_refused(request, event, str(exc))
    if result.disputed:
        messages.warning(request, _("Your opponent reported another result: the organiser will settle it."))
    elif result.done:
        messages.success(request, _("Both reports agree: the result stands."))
    else:
        messages.success(request, _("Reported. The result stands when your opponent reports the same."))
    return redirect("events:submit", token=token)


def _report_refused(request: AuthedRequest, event: Event, message: str) -> HttpResponse:
    """A refused report: the player's page again, the reason in the report form and the score
    as it was typed (not a separate page that loses it)."""
    typed = SimpleNamespace(**{name: request.POST.get(name, "")[:10] for name in ("wins", "losses", "draws")})
    return player_page(request, event, status=400, report_refused=message, reported=typed)


@login_required
def claim(request: AuthedRequest, claim_id: int) -> HttpResponse:
    """An organiser's request to confirm that the reader played their event as a typed-in
    player: the reader's alone (a 404 to anyone else)."""
    found = get_object_or_404(
        PlayerClaim.objects.select_related("player__event", "asked_by"), pk=claim_id, user=request.user
    )
    if request.method == "POST":
        try:
            claims.answer(found.pk, request.user, request.POST.get("action") == "accept")
        except claims.ClaimError as exc:
            return render(request, "error.html", {"message": str(exc)}, status=exc.status)
        return redirect("events:claim", found.pk)
    return render(request, "events/claim.html", {"claim": found})
