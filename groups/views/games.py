"""A league game from the group's page: logged by one player, confirmed by the other, taken back
by a player before it is confirmed (or by the group's owner at any time)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from groups.forms import SeasonForm
from groups.models import Membership
from groups.views.groups import game_form, group_page, group_url, member_group
from league import services
from league.models import Game
from webutil.confirm import unless_confirmed
from webutil.requests import AuthedRequest


@login_required
@require_POST
def log_game(request: AuthedRequest, group_id: int) -> HttpResponse:
    group = member_group(request, group_id)
    members = list(Membership.objects.filter(group=group).select_related("user"))
    form = game_form(request, group, members, request.POST)
    if form.is_valid():
        data = form.cleaned_data
        me, them = request.user.username, data["opponent"]
        winner = {"me": me, "them": them, "draw": None}[data["result"]]
        sides = (
            services.Side(me, data["my_deck"].pk if data["my_deck"] else None),
            services.Side(them, data["their_deck"].pk if data["their_deck"] else None),
        )
        try:
            services.log_game(group, request.user, sides, winner, data["played_on"])
        except services.GameError as exc:
            form.add_error(None, str(exc))
        else:
            messages.success(request, _("Game logged: it counts once %(name)s confirms it.") % {"name": them})
            return redirect(group_url(group))
    return group_page(request, group.pk, form=form)


@login_required
@require_POST
def confirm_game(request: AuthedRequest, group_id: int, game_id: int) -> HttpResponse:
    group = member_group(request, group_id)
    game = get_object_or_404(Game, group=group, pk=game_id)
    try:
        counted = services.confirm(game, request.user)
    except services.GameError as exc:
        messages.error(request, str(exc))
    else:
        if counted:
            messages.success(request, _("Confirmed: the game counts in the league."))
    return redirect(group_url(group))


@login_required
@require_POST
def delete_game(request: AuthedRequest, group_id: int, game_id: int) -> HttpResponse:
    group = member_group(request, group_id)
    game = get_object_or_404(Game.objects.select_related("group"), group=group, pk=game_id)
    asked = unless_confirmed(
        request,
        title=_("Delete this game?"),
        message=_("It leaves the league's tables."),
        button=_("Delete the game"),
        back=group_url(group),
    )
    if asked:
        return asked
    try:
        services.delete_game(game, request.user)
    except services.GameError as exc:
        messages.error(request, str(exc))
    else:
        messages.success(request, _("The game is deleted."))
    return redirect(group_url(group))


@login_required
@require_POST
def add_season(request: AuthedRequest, group_id: int) -> HttpResponse:
    """The owner adds a season of the league; a refused one comes back on the group's page."""
    group = member_group(request, group_id)
    form = SeasonForm(request.POST)
    if form.is_valid():
        data = form.cleaned_data
        try:
            season = services.add_season(group, request.user, data["name"], data["starts_on"], data["ends_on"])
        except services.NotAllowed as exc:
            raise PermissionDenied(str(exc)) from None
        except services.GameError as exc:
            form.add_error(None, str(exc))
        except ValidationError as exc:
            for field, errors in exc.message_dict.items():
                form.add_error(field if field in form.fields else None, errors)
        else:
            messages.success(request, _("Season “%(name)s” added.") % {"name": season.name})
            return redirect(f"{group_url(group)}?season={season.pk}#league")
    return group_page(request, group.pk, season_form=form)
