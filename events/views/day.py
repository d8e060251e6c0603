"""The tournament day's pages: the organiser's (and co-organisers') page that runs it, the
players' part of the event link (check-in, their pairing, their report, drop), printable
pairings, standings as CSV, and the venue's public page of pairings and standings."""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import wraps
from typing import Any, TypeVar

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.core.cache import cache
from django.core.paginator import Page, Paginator
from django.db.models import QuerySet
from django.forms import BaseForm
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import translation
from django.utils.translation import get_language, pgettext
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from catalog.lookup import catalog_index
from catalog.models import Card
from catalog.textkeys import person_key
from events import day, meta, services, tools
from events.forms import (
    FixListForm,
    GamesForm,
    JudgeForm,
    LatePlayerForm,
    MetaForm,
    PenaltyForm,
    SeatingForm,
    TableForm,
    TournamentSettingsForm,
)
from events.models import DAY_CHANGES, DeckCheck, Event, Match, Player, Round
from events.preview import event_png
from tournament import tiebreakers
from webutil.confirm import unless_confirmed
from webutil.csv import csv_text
from webutil.i18n import colon
from webutil.numbers import whole_number
from webutil.qr import qr_svg
from webutil.requests import AuthedRequest, HtmxHttpRequest


def _run(request: AuthedRequest, event_id: int) -> Event:
    """An event this user runs (organiser or co-organiser); a 404 to everyone else."""
    return get_object_or_404(day.events_run_by(request.user), pk=event_id)


def _back(event: Event) -> HttpResponse:
    return redirect("events:day", event.pk)


def _form_message(form: Any) -> str:
    return " ".join(str(e) for errors in form.errors.values() for e in errors)


def _refused(request: HtmxHttpRequest, event: Event, message: str) -> HttpResponse:
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
        event = _run(request, event_id)
        try:
            answer = view(request, event, **kwargs)
        except (day.TournamentError, Refused) as exc:
            return _refused(request, event, str(exc))
        return _back(event) if answer is None else answer

    return action


def _names(event: Event) -> dict[int, str]:
    return dict(event.players.values_list("pk", "name"))


@dataclass(frozen=True)
class Reported:
    """One player's report of a disputed match, games from their own side."""

    name: str
    wins: int
    losses: int
    draws: int


def _with_names(round_: Round, names: dict[int, str]) -> Round:
    """The round with its matches loaded (and their reports: prefetch `matches__reports`), each
    named as `_name_matches` names them."""
    _name_matches(round_.matches.all(), names)
    return round_


def _name_matches(matches: Iterable[Match], names: dict[int, str]) -> None:
    """Each match (its reports prefetched) carrying its players' names (`name_a`, `name_b`) and,
    when the reports disagree, what each player reported (`reported`), so the organiser sees
    what to settle."""
    for match in matches:
        match.name_a = names[match.player_a_id]  # type: ignore[attr-defined]
        match.name_b = names.get(match.player_b_id, "") if match.player_b_id else ""  # type: ignore[attr-defined]
        match.reported = (  # type: ignore[attr-defined]
            [Reported(names[r.player_id], r.wins, r.losses, r.draws) for r in match.reports.all()]
            if match.disputed
            else []
        )


def tiebreaker_order() -> str:
    """The tie-breakers as the day page names them in a sentence: "opponents' match-win %
    (OMW), game-win % (GW), …" in the reader's language."""
    separator = "、" if get_language().startswith("zh") else ", "
    return separator.join(f"{_(t.label)} ({t.abbr})" for t in tiebreakers())


# Rows a page of the day shows at a time (players, tables, standings): a championship's 2,000
# players on one page cost seconds to draw and are no use on a phone.
ROWS = 100


def page_of(rows: Sequence[Any] | QuerySet[Any], pages: Mapping[str, str], param: str, size: int = ROWS) -> Page:
    """One page of `rows` (`?<param>=n`, the first by default; garbage reads as the first)."""
    return Paginator(rows, size).get_page(pages.get(param))


def day_context(
    event: Event, number: str | None = None, *, drafts: bool = True, pages: Mapping[str, str] | None = None
) -> dict[str, Any]:
    """What the organiser's page and the venue's page show: rounds, names, standings (a draft
    round only where `drafts`: the organisers'), the round's tables and the standings a page at
    a time (`pages`: the request's query)."""
    pages = pages or {}
    names = _names(event)
    rounds = list(event.tournament_rounds.all() if drafts else event.tournament_rounds.published())
    # One round's tables at a time (`?round=`, the newest by default): a page of 9 rounds of 256
    # tables would be thousands of rows.
    shown = next((r for r in rounds if str(r.number) == str(number)), None) if number else None
    shown = shown or (rounds[-1] if rounds else None)
    tables: Page | None = None
    if shown is not None:
        # The round's counts from the database and one page of its tables with their reports:
        # a 1,000-table round is not loaded to show 100 of them.
        shown = Round.objects.with_table_counts().get(pk=shown.pk)
        tables = page_of(shown.matches.prefetch_related("reports"), pages, "tables")
        tables.object_list = list(tables.object_list)
        _name_matches(tables.object_list, names)
    table = day.standings_of(event)
    standings = page_of(table, pages, "standings")
    # Each row of the page with its tie-breakers as whole percentages, in TIEBREAKERS' order.
    standings.object_list = [
        (row, names[row.player], [round(100 * t.value(row)) for t in tiebreakers()]) for row in standings.object_list
    ]
    return {
        "event": event,
        "names": names,
        "rounds": rounds,
        "current": shown,
        "tables": tables if tables is not None else page_of([], pages, "tables"),
        "newest": rounds[-1] if rounds else None,
        "standings": standings,
        "tiebreakers": [(t.abbr, _(t.label)) for t in tiebreakers()],
        "tiebreaker_order": tiebreaker_order(),
        "table": table,
        "bracket": [r for r in _bracket(event, names) if drafts or r.published_at is not None],
    }


def _bracket(event: Event, names: dict[int, str]) -> list[Round]:
    """The top cut's rounds with their matches and names, for the bracket view (one query)."""
    top = event.tournament_rounds.filter(kind="top").prefetch_related("matches__reports")
    return [_with_names(r, names) for r in top]


@dataclass
class Placing:
    place: int
    name: str
    general: str  # the general's code, "" when the list has none
    general_name: str
    faction: str
    text: str | None  # the list, when the event's setting makes it public now


def results(event: Event, table: list[Any] | None = None) -> tuple[str, list[Placing]]:
    """The event's stage and its players in final order, each with the general and faction of
    their list, and the list itself where the event's setting shows it."""
    current = day.stage(event)
    shown = day.public_lists(event, current)
    players = {p.pk: p for p in event.players.select_related("submission")}
    factions = dict(
        Card.objects.filter(code__in={p.general for p in players.values() if p.general}).values_list("code", "faction")
    )
    index = catalog_index()
    out = []
    for place, pk in enumerate(day.placings(event, table), start=1):
        p = players[pk]
        text = p.submission.text if pk in shown and p.submission is not None else None
        name = index.by_code[p.general].name if p.general in index.by_code else ""
        out.append(Placing(place, p.name, p.general, name, factions.get(p.general, "") or "", text))
    return current, out


@dataclass(frozen=True)
class ChangeLine:
    """One change made by hand, as the day's log shows it: the sentence around the players'
    names (`before`, `names`, `after`), so the template marks each name's language."""

    at: Any
    by: str
    before: str
    names: list[str]
    after: str


NAMES_GO_HERE = "\x00"


def change_lines(event: Event, names: dict[int, str], limit: int = 50) -> list[ChangeLine]:
    """The newest changes made by hand, each as a sentence in the reader's language."""
    lines = []
    for change in event.day_changes.select_related("by")[:limit]:
        values = {"round": change.round_number or "", "table": change.table or "", "players": NAMES_GO_HERE}
        before, _mark, after = (str(DAY_CHANGES[change.kind]) % values).partition(NAMES_GO_HERE)
        who = [names.get(p, "?") for p in change.players if isinstance(p, int)]
        lines.append(ChangeLine(change.at, change.by.username if change.by else "", before, who, after))
    return lines


@login_required
def day_page(request: AuthedRequest, event_id: int) -> HttpResponse:
    event = _run(request, event_id)
    context = day_context(event, request.GET.get("round"), pages=request.GET)
    players = list(event.players.all())
    checked = tools.checked_rounds(event)
    for p in players:
        p.deck_checked = checked.get(p.pk, [])  # type: ignore[attr-defined]
    active = len(day.active_players(event))
    context.update(
        {
            "settings_form": TournamentSettingsForm(instance=event),
            "late_form": LatePlayerForm(),
            "judge_form": JudgeForm(),
            "games_form": GamesForm(),
            "players": players,
            # what the cached list of player suggestions is drawn from
            "players_stamp": hashlib.sha1(
                repr([(p.pk, p.name) for p in players]).encode(), usedforsecurity=False
            ).hexdigest(),
            "players_page": page_of(players, request.GET, "players"),
            "active": active,
            "is_organiser": event.organiser_id == request.user.pk,
            "open_round": day.open_round(event),
            "next_step": day.next_step(event),
            "repairable": day.repairable(event),
            "stage": day.stage(event),
            "public_url": request.build_absolute_uri(reverse("events:public", args=[event.public_token])),
            "swiss_rounds": day.planned_rounds(event),
            "unseated": tools.unseated(event, context["newest"]),
            "penalty_form": PenaltyForm(),  # its player comes from the shared picker
            "penalties": event.penalties.select_related("player", "match", "by"),
            "changes": change_lines(event, context["names"]),
            "deck_checks": DeckCheck.objects.filter(round__event=event).select_related("round")[:50],
        }
    )
    return render(request, "events/day.html", context)


@day_action
def day_settings(request: AuthedRequest, event: Event) -> HttpResponse | None:
    if event.organiser_id != request.user.pk:
        raise Http404(_("Only the organiser changes the event's settings."))
    form = valid(TournamentSettingsForm(request.POST, instance=event))
    services.change_settings(event, {name: form.cleaned_data[name] for name in form.Meta.fields})
    messages.success(request, _("Event settings saved."))
    return None


@day_action
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


@day_action
def player_action(request: AuthedRequest, event: Event, player_id: int) -> HttpResponse | None:
    player = get_object_or_404(event.players, pk=player_id)
    action = request.POST.get("action")
    if action in ("check_in", "check_out"):
        day.set_checked_in(player, action == "check_in")
    elif action in ("drop", "reinstate"):
        day.set_dropped(player, action == "drop", by=request.user)
    else:
        raise Refused(_("Unknown action."))
    return None


@day_action
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


@day_action
def fix_list(request: AuthedRequest, event: Event) -> HttpResponse | None:
    """The organiser replaces a player's list; recorded in the day's log."""
    form = valid(FixListForm(request.POST))
    player = tools.fix_list(event, form.cleaned_data["player"], form.cleaned_data["text"], request.user)
    messages.success(request, _("The list of %(name)s is replaced.") % {"name": player.name})
    return None


@day_action
def add_late_player(request: AuthedRequest, event: Event) -> HttpResponse | None:
    form = valid(LatePlayerForm(request.POST))
    day.add_player(event, form.cleaned_data["name"], form.cleaned_data["text"], request.user)
    return None


@day_action
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


@day_action
def swap(request: AuthedRequest, event: Event) -> HttpResponse | None:
    """Swap two players of the newest round by hand: a rematch is asked about first."""
    first, second = whole_number(request.POST.get("first")), whole_number(request.POST.get("second"))
    if first is None or second is None:
        raise Refused(_("Choose two different players of this round."))
    rematches = day.swap_rematches(event, first, second)
    if rematches:
        names = _names(event)
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


@day_action
def enter_result(request: AuthedRequest, event: Event, match_id: int) -> HttpResponse | None:
    match = get_object_or_404(Match, round__event=event, pk=match_id)
    form = valid(GamesForm(request.POST))
    day.enter_result(match, form.cleaned_data["wins"], form.cleaned_data["losses"], form.cleaned_data["draws"])
    return None


@day_action
def round_clock(request: AuthedRequest, event: Event, number: int) -> HttpResponse | None:
    """Pause, resume, add minutes to or end the newest round's clock."""
    round_ = get_object_or_404(event.tournament_rounds, number=number)
    minutes = whole_number(request.POST.get("minutes") or "0", max_digits=4)
    day.clock(round_, request.POST.get("action", ""), minutes or 0)
    return None


@day_action
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


@day_action
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


@day_action
def give_penalty(request: AuthedRequest, event: Event) -> HttpResponse | None:
    data = valid(PenaltyForm(request.POST, players=event.players.all())).cleaned_data
    tools.give_penalty(event, data["player"], data["kind"], data["note"], request.user)
    messages.success(request, _("The penalty is recorded."))
    return None


@day_action
def new_deck_check(request: AuthedRequest, event: Event, number: int) -> HttpResponse | None:
    """Pick tables of the newest round at random for a deck check, then show their lists."""
    count = whole_number(request.POST.get("tables") or "", max_digits=4)
    check = tools.deck_check(event, number, count or 0, request.user)
    return redirect("events:day-deck-check", event.pk, check.pk)


@login_required
def deck_check_page(request: AuthedRequest, event_id: int, check_id: int) -> HttpResponse:
    """A deck check: the tables picked and each player's list as sent."""
    event = _run(request, event_id)
    check = get_object_or_404(DeckCheck.objects.select_related("round", "by"), round__event=event, pk=check_id)
    return render(request, "events/deck_check.html", {"event": event, "check": tools.with_players(check)})


@day_action
def publish_round(request: AuthedRequest, event: Event, number: int) -> HttpResponse | None:
    """Publish a draft round to the players and the venue; its clock starts now."""
    tools.publish(event, number, request.user)
    messages.success(request, _("Round %(n)s is published: its clock is running.") % {"n": number})
    return None


def clock_text(seconds: int) -> str:
    """The time left as a screen shows it: "12:05", "+1:30" once over."""
    whole = abs(seconds)
    return f"{'+' if seconds < 0 else ''}{whole // 60}:{whole % 60:02d}"


def clock_page(request: HtmxHttpRequest, token: str) -> HttpResponse:
    """The round's clock for a screen at the venue: large type, the round, the time left from the
    server's end time, the tables still playing. htmx refreshes it; without JavaScript the page
    reloads itself."""
    event = get_object_or_404(Event, public_token=token)
    round_ = event.tournament_rounds.published().order_by("-number").prefetch_related("matches").first()
    playing = [m.table for m in round_.matches.all() if not m.done] if round_ is not None else []
    seconds = round_.seconds_left() if round_ is not None else 0
    context = {"event": event, "round": round_, "playing": playing, "left": clock_text(seconds)}
    return render(request, "events/clock.html", context)


@login_required
def standings_csv(request: AuthedRequest, event_id: int) -> HttpResponse:
    event = _run(request, event_id)
    names = _names(event)
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
    event = _run(request, event_id)
    context = day_context(event, request.GET.get("round"), pages=request.GET)
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
            "by_name": page_of(
                sorted(by_name, key=lambda row: (person_key(row[0]), row[0], row[1])), request.GET, "names", 200
            ),
            "qr": qr_svg(request.build_absolute_uri(reverse("events:public", args=[event.public_token]))),
        }
    )
    return render(request, "events/pairings_print.html", context)


def public_page(request: HtmxHttpRequest, token: str) -> HttpResponse:
    """The venue's page: the current round's pairings and the standings, for anyone with the link."""
    event = get_object_or_404(Event, public_token=token)
    context = day_context(event, request.GET.get("round"), drafts=False, pages=request.GET)
    context["stage"], context["placings"] = results(event, context["table"])
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
            stage, placings = results(event)
            address = request.build_absolute_uri(reverse("events:public", args=[token]))
            png = event_png(event, address, stage, placings)
        cache.set(key, png, PREVIEW_SECONDS)
    response = HttpResponse(png, content_type="image/png")
    response["Cache-Control"] = f"public, max-age={PREVIEW_SECONDS}"
    return response


# --- the player's side, behind the event's link ---------------------------------------------------


def _my_player(request: AuthedRequest, token: str) -> tuple[Event, Player]:
    event = get_object_or_404(Event, token=token)
    player = Player.objects.filter(event=event, user=request.user).first()
    if player is None:
        raise Http404(_("You have no list in this event."))
    return event, player


def my_match(event: Event, player: Player) -> Match | None:
    """The player's match of the newest published round (a draft is the organisers' alone)."""
    last = event.tournament_rounds.published().order_by("-number").first()
    if last is None:
        return None
    return last.matches.filter(player_a=player).first() or last.matches.filter(player_b=player).first()


@login_required
@require_POST
def player_check_in(request: AuthedRequest, token: str) -> HttpResponse:
    event, player = _my_player(request, token)
    try:
        day.set_checked_in(player, True, by_player=True)
    except day.TournamentError as exc:
        return _refused(request, event, str(exc))
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
    match = my_match(event, player)
    form = GamesForm(request.POST)
    if match is None:
        return _refused(request, event, _("There is no match of yours to report."))
    if not form.is_valid():
        after_label = colon()
        wrong = pgettext("between two sentences", "; ").join(
            f"{form.fields[name].label}{after_label}{' '.join(str(e) for e in errors)}"
            for name, errors in form.errors.items()
        )
        return _refused(request, event, _("The result could not be read: %(wrong)s") % {"wrong": wrong})
    try:
        result = day.report(
            match, player, form.cleaned_data["wins"], form.cleaned_data["losses"], form.cleaned_data["draws"]
        )
    except day.TournamentError as exc:
        return _refused(request, event, str(exc))
    if result.disputed:
        messages.warning(request, _("Your opponent reported another result: the organiser will settle it."))
    elif result.done:
        messages.success(request, _("Both reports agree: the result stands."))
    else:
        messages.success(request, _("Reported. The result stands when your opponent reports the same."))
    return redirect("events:submit", token=token)


def player_context(event: Event, user: Any) -> dict[str, Any]:
    """The tournament part of a player's event page: their player, their match, who they face."""
    player = Player.objects.filter(event=event, user=user).first() if user.is_authenticated else None
    match = my_match(event, player) if player else None
    opponent = None
    if match is not None and match.player_b_id:
        other = match.player_b_id if match.player_a_id == player.pk else match.player_a_id  # type: ignore[union-attr]
        opponent = Player.objects.filter(pk=other).values_list("name", flat=True).first()
    reported = match.reports.filter(player=player).first() if match is not None and player else None
    return {
        "player": player,
        "match": match,
        "opponent": opponent,
        "reported": reported,
        "penalties": list(player.penalties.all()) if player else [],
        "can_check_in": bool(player and event.checkin_open and not event.tournament_rounds.exists()),
    }


def meta_page(request: HtmxHttpRequest) -> HttpResponse:
    """Generals and factions across public events: share of lists, match-win rate, top-cut
    conversion; filtered by format and date range."""
    form = MetaForm(request.GET or None)
    data = form.cleaned_data if form.is_valid() else {}
    events = meta.public_events(data.get("format") or "", data.get("since"), data.get("until"))
    context = {"form": form, **meta.meta(events)}
    return render(request, "events/meta.html", context, status=400 if form.errors else 200)
