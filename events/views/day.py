"""The tournament day's pages: the organiser's (and co-organisers') page that runs it, the
players' part of the event link (check-in, their pairing, their report, drop), printable
pairings, standings as CSV, and the venue's public page of pairings and standings."""

from __future__ import annotations

import hashlib
from typing import Any

from django.contrib import messages
from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from catalog.textkeys import person_key
from events import claims, day, presenters, services, tools
from events.forms import (
    FixListForm,
    GamesForm,
    JudgeForm,
    LatePlayerForm,
    LinkPlayerForm,
    PenaltyForm,
    SeatingForm,
    TableForm,
    TournamentSettingsForm,
)
from events.models import DeckCheck, Event, Match
from events.views.action import Refusal, Refused, day_action, run, valid
from tournament import tiebreakers
from webutil.confirm import unless_confirmed
from webutil.csv import csv_text
from webutil.numbers import whole_number
from webutil.qr import qr_svg
from webutil.requests import AuthedRequest


@login_required
def day_page(request: AuthedRequest, event_id: int) -> HttpResponse:
    return render_day(request, run(request, event_id))


def render_day(request: AuthedRequest, event: Event, refusal: Refusal | None = None, status: int = 200) -> HttpResponse:
    """The organisers' page of the day; after a refused action (`refusal`), the same page with
    the reason beside the form it came from and what was typed in it (its Django form bound to
    the input, so each field's error shows beside the field)."""

    def bound(key: str, form: type[Any], **kwargs: Any) -> Any:
        if refusal is not None and refusal.key == key:
            made = form(refusal.data, **kwargs)
            made.is_valid()
            return made
        return form(**kwargs)

    context = presenters.day_context(event, request.GET.get("round"), pages=request.GET)
    players = list(event.players.all())
    checked = tools.checked_rounds(event)
    for p in players:
        p.deck_checked = checked.get(p.pk, [])  # type: ignore[attr-defined]
    active = len(day.active_players(event))
    context.update(
        {
            "refusal": refusal,
            "settings_form": bound("day-settings", TournamentSettingsForm, instance=event),
            "late_form": bound("day-add-player", LatePlayerForm),
            "judge_form": bound("day-judges", JudgeForm),
            "games_form": GamesForm(),
            "players": players,
            # what the cached list of player suggestions is drawn from
            "players_stamp": hashlib.sha1(
                repr([(p.pk, p.name) for p in players]).encode(), usedforsecurity=False
            ).hexdigest(),
            "players_page": presenters.page_of(players, request.GET, "players"),
            "active": active,
            "is_organiser": event.organiser_id == request.user.pk,
            "open_round": day.open_round(event),
            "next_step": presenters.next_step(event, active),
            "readiness": None if context["rounds"] else presenters.readiness(players),
            "repairable": day.repairable(event),
            "stage": presenters.stage(event),
            "public_url": request.build_absolute_uri(reverse("events:public", args=[event.public_token])),
            "swiss_rounds": day.planned_rounds(event),
            "unseated": tools.unseated(event, context["newest"]),
            "penalty_form": bound("day-penalty", PenaltyForm),  # its player comes from the shared picker
            "penalties": event.penalties.select_related("player", "match__player_a", "match__player_b", "by"),
            "changes": presenters.change_lines(event, context["names"]),
            "deck_checks": DeckCheck.objects.filter(round__event=event).select_related("round")[:50],
        }
    )
    return render(request, "events/day.html", context, status=status)


@day_action(shows="settings")
def day_settings(request: AuthedRequest, event: Event) -> HttpResponse | None:
    if event.organiser_id != request.user.pk:
        raise Http404(_("Only the organiser changes the event's settings."))
    form = valid(TournamentSettingsForm(request.POST, instance=event))
    services.change_settings(event, {name: form.cleaned_data[name] for name in form.Meta.fields})
    messages.success(request, _("Event settings saved."))
    return None


@day_action(shows="settings")
def add_judge(request: AuthedRequest, event: Event) -> HttpResponse | None:
    if event.organiser_id != request.user.pk:
        raise Http404(_("Only the organiser changes the event's settings."))
    form = JudgeForm(request.POST)
    user = get_user_model().objects.filter(username=form.data.get("username", "")[:150]).first()
    if not form.is_valid() or user is None:
        raise Refused(_("No such user."))
    event.judges.add(user)
    messages.success(request, _("%(name)s can now pair and enter results.") % {"name": user.get_username()})
    return None


@day_action(shows="player-{player_id}")
def player_action(request: AuthedRequest, event: Event, player_id: int) -> HttpResponse | None:
    player = get_object_or_404(event.players, pk=player_id)
    action = request.POST.get("action")
    if action in ("check_in", "check_out"):
        day.set_checked_in(player, action == "check_in")
    elif action == "drop" and (
        asked := unless_confirmed(
            request,
            title=_("Drop %(name)s from the event?") % {"name": player.name},
            message=_(
                "They will not be paired in any later round; their results so far stay in the "
                "standings. You can reinstate them before the next round."
            ),
            button=_("Drop"),
            back=reverse("events:day", args=[event.pk]) + f"#player-{player.pk}",
        )
    ):
        return asked
    elif action in ("drop", "reinstate"):
        day.set_dropped(player, action == "drop", by=request.user)
    else:
        raise Refused(_("Unknown action."))
    return None


@day_action(shows="rounds")
def check_in_everyone(request: AuthedRequest, event: Event) -> HttpResponse | None:
    checked = day.check_in_everyone(event)
    messages.success(
        request,
        ngettext("%(n)d player checked in.", "%(n)d players checked in.", checked) % {"n": checked},
    )
    return None


@day_action(shows="players")
def seating(request: AuthedRequest, event: Event) -> HttpResponse | None:
    """A player's first-round bye (before round 1) and fixed table."""
    form = valid(SeatingForm(request.POST))
    player = event.players.filter(pk=form.cleaned_data["player"]).first()
    if player is None:
        raise Refused(_("No such player in this event."))
    values: dict[str, Any] = {"fixed_table": form.cleaned_data["fixed_table"]}
    if not event.tournament_rounds.exists():
        values["first_round_bye"] = form.cleaned_data["first_round_bye"]
    day.set_seating(player, values)
    return None


@day_action(shows="players")
def link_player(request: AuthedRequest, event: Event) -> HttpResponse | None:
    """A typed-in player's account: its holder is asked to confirm, in their notifications."""
    form = valid(LinkPlayerForm(request.POST))
    try:
        claim = claims.ask(event, form.cleaned_data["player"], form.cleaned_data["username"], request.user)
    except claims.ClaimError as exc:
        raise Refused(str(exc)) from None
    messages.success(
        request,
        _("%(user)s is asked to confirm they are %(name)s.") % {"user": claim.user.username, "name": claim.player.name},
    )
    return None


@day_action(shows="players")
def fix_list(request: AuthedRequest, event: Event) -> HttpResponse | None:
    """The organiser replaces a player's list; recorded in the day's log."""
    form = valid(FixListForm(request.POST))
    player = tools.fix_list(event, form.cleaned_data["player"], form.cleaned_data["text"], request.user)
    messages.success(request, _("The list of %(name)s is replaced.") % {"name": player.name})
    return None


@day_action(shows="players")
def add_late_player(request: AuthedRequest, event: Event) -> HttpResponse | None:
    form = valid(LatePlayerForm(request.POST))
    day.add_player(event, form.cleaned_data["name"], form.cleaned_data["text"], request.user)
    return None


@day_action(shows="round")
def pair(request: AuthedRequest, event: Event) -> HttpResponse | None:
    try:
        if request.POST.get("top_cut"):
            day.pair_top_cut(event)
        elif request.POST.get("again"):
            day.repair_round(event, whole_number(request.POST.get("again", ""), max_digits=4) or 0)
        else:
            day.pair_next_round(event)
    except ValueError as exc:  # a round number that is no number
        raise Refused(str(exc)) from None
    return None


@day_action(shows="round")
def swap(request: AuthedRequest, event: Event) -> HttpResponse | None:
    """Swap two players of the newest round by hand: a rematch is asked about first."""
    first, second = whole_number(request.POST.get("first")), whole_number(request.POST.get("second"))
    if first is None or second is None:
        raise Refused(_("Choose two different players of this round."))
    rematches = presenters.swap_rematches(event, first, second)
    if rematches:
        names = presenters.player_names(event)
        asked = unless_confirmed(
            request,
            title=_("Make a rematch?"),
            message=_("After this swap these players would meet again: %(pairs)s.")
            % {"pairs": "; ".join(" – ".join(names.get(p, "?") for p in sorted(pair)) for pair in rematches)},
            button=_("Swap anyway"),
            back=reverse("events:day", args=[event.pk]),
        )
        if asked:
            return asked
    day.swap(event, first, second, request.user)
    return None


@day_action(shows="match-{match_id}")
def enter_result(request: AuthedRequest, event: Event, match_id: int) -> HttpResponse | None:
    match = get_object_or_404(Match, round__event=event, pk=match_id)
    form = valid(GamesForm(request.POST))
    day.enter_result(match, form.cleaned_data["wins"], form.cleaned_data["losses"], form.cleaned_data["draws"])
    return None


@day_action(shows="round")
def round_clock(request: AuthedRequest, event: Event, number: int) -> HttpResponse | None:
    """Pause, resume, add minutes to or end the newest round's clock."""
    round_ = get_object_or_404(event.tournament_rounds, number=number)
    minutes = whole_number(request.POST.get("minutes") or "0", max_digits=4)
    day.clock(round_, request.POST.get("action", ""), minutes or 0)
    return None


@day_action(shows="round")
def edit_table(request: AuthedRequest, event: Event, number: int) -> HttpResponse | None:
    """A table of the newest round by hand: two players paired (a rematch asked about first), a
    bye, a match loss, or the table removed."""
    data = valid(TableForm(request.POST)).cleaned_data
    try:
        if data["action"] == "loss":
            tools.match_loss(event, number, data["player_a"], request.user)
        elif data["action"] == "remove":
            tools.remove_table(event, number, data["table"], request.user)
        else:
            rematch = request.POST.get("confirm") == "yes"
            tools.set_table(
                event, number, data["table"], data["player_a"], data["player_b"], request.user, rematch=rematch
            )
    except tools.RematchError as exc:
        return unless_confirmed(
            request,
            title=_("Make a rematch?"),
            message=str(exc),
            button=_("Pair them anyway"),
            back=reverse("events:day", args=[event.pk]),
        )
    return None


@day_action(shows="rounds")
def delete_round(request: AuthedRequest, event: Event, number: int) -> HttpResponse | None:
    asked = unless_confirmed(
        request,
        title=_("Delete round %(n)s?") % {"n": number},
        message=_("Its pairings are deleted; pair the round again afterwards. This is recorded in the day's log."),
        button=_("Delete the round"),
        back=reverse("events:day", args=[event.pk]),
    )
    if asked:
        return asked
    tools.delete_round(event, number, request.user)
    return None


@day_action(shows="penalties")
def give_penalty(request: AuthedRequest, event: Event) -> HttpResponse | None:
    data = valid(PenaltyForm(request.POST, players=event.players.all())).cleaned_data
    tools.give_penalty(event, data["player"], data["kind"], data["note"], request.user)
    messages.success(request, _("The penalty is recorded."))
    return None


@day_action(shows="deck-checks")
def new_deck_check(request: AuthedRequest, event: Event, number: int) -> HttpResponse | None:
    """Pick tables of the newest round at random for a deck check, then show their lists."""
    count = whole_number(request.POST.get("tables") or "", max_digits=4)
    check = tools.deck_check(event, number, count or 0, request.user)
    return redirect("events:day-deck-check", event.pk, check.pk)


@login_required
def deck_check_page(request: AuthedRequest, event_id: int, check_id: int) -> HttpResponse:
    """A deck check: the tables picked and each player's list as sent."""
    event = run(request, event_id)
    check = get_object_or_404(DeckCheck.objects.select_related("round", "by"), round__event=event, pk=check_id)
    return render(request, "events/deck_check.html", {"event": event, "check": tools.with_players(check)})


@day_action(shows="round")
def publish_round(request: AuthedRequest, event: Event, number: int) -> HttpResponse | None:
    """Publish a draft round to the players and the venue; its clock starts now."""
    tools.publish(event, number, request.user)
    messages.success(request, _("Round %(n)s is published: its clock is running.") % {"n": number})
    return None


@login_required
def standings_csv(request: AuthedRequest, event_id: int) -> HttpResponse:
    event = run(request, event_id)
    names = presenters.player_names(event)
    rows = (
        [row.rank, names[row.player], row.points, *(f"{float(t.value(row)):.4f}" for t in tiebreakers())]
        for row in day.standings_of(event)
    )
    header = ["rank", "player", "points", *(t.key for t in tiebreakers())]
    response = HttpResponse(csv_text(header, rows), content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="standings-{event.pk}.csv"'
    return response


@login_required
def pairings_print(request: AuthedRequest, event_id: int) -> HttpResponse:
    """A round's pairings to print (`?round=`, the newest by default): by table, by name A–Z for
    the wall (Chinese names by their pinyin), and a match slip per table; with a QR code of the
    venue's page."""
    event = run(request, event_id)
    context = presenters.day_context(event, request.GET.get("round"), pages=request.GET)
    names = context["names"]
    current = context["current"]
    # (name, table, opponent): the opponent "" for the bye, None for a match loss with none.
    by_name: list[tuple[str, int, str | None]] = []
    if current is not None:
        for m in current.matches.all():
            alone = None if m.is_loss else ""
            by_name.append((names[m.player_a_id], m.table, names[m.player_b_id] if m.player_b_id else alone))
            if m.player_b_id:
                by_name.append((names[m.player_b_id], m.table, names[m.player_a_id]))
    context.update(
        {
            # The wall's list a part at a time (`?names=`): 200 names a printed part.
            "by_name": presenters.page_of(
                sorted(by_name, key=lambda row: (person_key(row[0]), row[0], row[1])), request.GET, "names", 200
            ),
            "qr": qr_svg(request.build_absolute_uri(reverse("events:public", args=[event.public_token]))),
        }
    )
    return render(request, "events/pairings_print.html", context)
