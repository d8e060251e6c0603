"""What the tournament day's pages show, read from the day's rules (events.day): where the day
stands and what comes next, the rounds and standings a page at a time with the players' names,
the final placings, the log of changes made by hand, a player's own match. Nothing here writes.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.core.paginator import Page, Paginator
from django.db.models import Q, QuerySet
from django.urls import reverse
from django.utils.translation import get_language, ngettext
from django.utils.translation import gettext as _

from catalog.lookup import catalog_index
from catalog.models import Card
from events import day
from events.models import CUT_ROUNDS, DAY_CHANGES, SWISS, TOP, Event, EventDeck, Match, Player, Round
from tournament import Standing, tiebreakers

# --- where the day stands ----------------------------------------------------------------------

BEFORE, PLAYING, TOP_CUT, FINISHED = "before", "swiss", "top_cut", "finished"


def stage(event: Event) -> str:
    """Before round 1, in the Swiss rounds, in the top cut, or finished (the last round decided)."""
    rounds = list(event.tournament_rounds.order_by("number").values_list("kind", flat=True))
    if not rounds:
        return BEFORE
    if day.open_round(event) is not None:
        return TOP_CUT if rounds[-1] == TOP else PLAYING
    if rounds[-1] == TOP:
        last = event.tournament_rounds.order_by("-number").first()
        return FINISHED if last is not None and last.matches.count() == 1 else TOP_CUT
    swiss_done = len(rounds) >= day.planned_rounds(event)
    return FINISHED if swiss_done and not event.top_cut else PLAYING


@dataclass(frozen=True)
class Step:
    """The one step the organiser's page offers next: `top_cut` says which pairing it is."""

    label: str
    top_cut: bool = False


def next_step(event: Event, paired: int) -> Step | None:
    """What comes next, if anything: pairing the next Swiss round, the top cut or its next round.
    None while a round is being played and once the event is over. `paired`: how many players
    a Swiss round would pair now (day.active_players, which the page has counted already)."""
    if day.open_round(event) is not None:
        return None
    tops = list(event.tournament_rounds.filter(kind=TOP).order_by("number").prefetch_related("matches"))
    if tops:
        tables = len(tops[-1].matches.all())
        if tables <= 1:
            return None
        named = CUT_ROUNDS.get(tables // 2)
        return Step(_("Pair the next top-cut round: %(stage)s") % {"stage": named}, top_cut=True)
    played = event.tournament_rounds.filter(kind=SWISS).count()
    if played < day.planned_rounds(event):
        if paired < 2:
            return None  # nothing to pair yet: Readiness says what to do
        # The button says what it will do: which round, and how many players it pairs.
        return Step(
            ngettext("Pair round %(n)s with %(players)s player", "Pair round %(n)s with %(players)s players", paired)
            % {"n": played + 1, "players": paired}
        )
    return Step(_("Pair the top cut"), top_cut=True) if event.top_cut else None


@dataclass(frozen=True)
class Readiness:
    """Before round 1: who will be paired and who not yet, so the organiser knows what to do."""

    total: int  # players who have not dropped
    paired: int  # checked in, a legal list, not dropped: round 1 pairs these
    not_checked_in: list[str]  # names, not dropped, not checked in
    illegal: list[str]  # names, checked in, whose list is not legal


def readiness(players: Sequence[Player]) -> Readiness:
    """Who round 1 would pair, and who not yet, from the event's players the page has loaded
    already (no query). Only before round 1: the caller knows when that is."""
    waiting = sorted((p for p in players if not p.dropped), key=lambda p: (p.name, p.pk))
    return Readiness(
        total=len(waiting),
        paired=sum(1 for p in waiting if p.checked_in and p.legal),
        not_checked_in=[p.name for p in waiting if not p.checked_in],
        illegal=[p.name for p in waiting if p.checked_in and not p.legal],
    )


def public_lists(event: Event, current_stage: str) -> set[int]:
    """The players whose lists the event's public page shows, as the event's setting says."""
    if event.lists_public == "after" and current_stage == FINISHED:
        return set(event.players.values_list("pk", flat=True))
    if event.lists_public in ("top_cut", "after") and current_stage in (TOP_CUT, FINISHED):
        top = event.tournament_rounds.filter(kind=TOP).order_by("number").first()
        if top is not None and event.lists_public == "top_cut":
            return {p for m in top.matches.all() for p in (m.player_a_id, m.player_b_id) if p}
    return set()


def placings(event: Event, table: list[Standing] | None = None) -> list[int]:
    """Final order of the players: the top cut by how far each went (the winner first), then
    everyone else in the standings' order (`table`: the standings, when already at hand)."""
    order = [row.player for row in (day.standings_of(event) if table is None else table)]
    tops = list(event.tournament_rounds.filter(kind=TOP).order_by("number").prefetch_related("matches"))
    if not tops:
        return order
    reached: dict[int, tuple[int, int]] = {}
    for depth, round_ in enumerate(tops, start=1):
        for m in round_.matches.all():
            won_a = m.done and (m.a_wins or 0) > (m.b_wins or 0)
            won_b = m.done and (m.b_wins or 0) > (m.a_wins or 0)
            reached[m.player_a_id] = (depth, int(won_a))
            if m.player_b_id:
                reached[m.player_b_id] = (depth, int(won_b))
    rank = {p: i for i, p in enumerate(order)}
    top = sorted(reached, key=lambda p: (-reached[p][0], -reached[p][1], rank[p]))
    return top + [p for p in order if p not in reached]


def _met_before(event: Event, round_: Round) -> set[frozenset[int]]:
    pairs = Match.objects.filter(round__event=event, round__number__lt=round_.number).values_list(
        "player_a", "player_b"
    )
    return {frozenset((a, b)) for a, b in pairs if b is not None}


def swap_rematches(event: Event, first: int, second: int) -> list[frozenset[int]]:
    """The rematches that swapping two players of the newest round would make (for a warning)."""
    round_ = event.tournament_rounds.order_by("-number").first()
    if round_ is None:
        return []
    pairs = {m.pk: [m.player_a_id, m.player_b_id] for m in round_.matches.all()}
    if first == second or any({first, second} <= set(seats) for seats in pairs.values()):
        return []  # no swap at all: swap() says why
    for seats in pairs.values():
        for i, p in enumerate(seats):
            seats[i] = second if p == first else first if p == second else p
    met = _met_before(event, round_)
    return [frozenset(s) for s in pairs.values() if None not in s and frozenset(s) in met]  # type: ignore[arg-type]


# --- a page's rows -------------------------------------------------------------------------


def player_names(event: Event) -> dict[int, str]:
    """Each player of the event by id: the names every page of the day writes."""
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
    names = player_names(event)
    every = event.tournament_rounds.with_table_counts()  # a top-cut round's tab says which it is
    rounds = list(every if drafts else every.published())
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
        "bracket": [r for r in _bracket(event, names, table) if drafts or r.published_at is not None],
        # A dropped player keeps their place in the standings, marked.
        "dropped": set(event.players.filter(dropped=True).values_list("pk", flat=True)),
    }


def _bracket(event: Event, names: dict[int, str], table: Sequence[Any]) -> list[Round]:
    """The top cut's rounds with their matches, names and seeds, for the bracket view (one
    query). A player's seed is their place in the Swiss standings among the players of the
    cut's first round: the cut's own order, unchanged by a later drop."""
    rounds = event.tournament_rounds.filter(kind="top").prefetch_related("matches__reports")
    top = [_with_names(r, names) for r in rounds]
    if top:
        cut = {p for m in top[0].matches.all() for p in (m.player_a_id, m.player_b_id) if p}
        seeds = {p: i for i, p in enumerate((row.player for row in table if row.player in cut), start=1)}
        for round_ in top:
            for match in round_.matches.all():
                match.seed_a = seeds.get(match.player_a_id)  # type: ignore[attr-defined]
                match.seed_b = seeds.get(match.player_b_id) if match.player_b_id else None  # type: ignore[attr-defined]
    return top


@dataclass
class Placing:
    place: int
    name: str
    general: str  # the general's code, "" when the list has none
    general_name: str
    faction: str
    text: str | None  # the list, when the event's setting makes it public now
    player: int = 0  # the player's id
    user: int | None = None  # their account's, if any


def results(event: Event, table: list[Any] | None = None) -> tuple[str, list[Placing]]:
    """The event's stage and its players in final order, each with the general and faction of
    their list, and the list itself where the event's setting shows it."""
    current = stage(event)
    shown = public_lists(event, current)
    players = {p.pk: p for p in event.players.select_related("submission")}
    factions = dict(
        Card.objects.filter(code__in={p.general for p in players.values() if p.general}).values_list("code", "faction")
    )
    index = catalog_index()
    out = []
    for place, pk in enumerate(placings(event, table), start=1):
        p = players[pk]
        text = p.submission.text if pk in shown and p.submission is not None else None
        name = index.by_code[p.general].name if p.general in index.by_code else ""
        out.append(Placing(place, p.name, p.general, name, factions.get(p.general, "") or "", text, p.pk, p.user_id))
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


def clock_text(seconds: int) -> str:
    """The time left as a screen shows it: "12:05", "+1:30" once over."""
    whole = abs(seconds)
    return f"{'+' if seconds < 0 else ''}{whole // 60}:{whole % 60:02d}"


def my_match(event: Event, player: Player) -> Match | None:
    """The player's match of the newest published round (a draft is the organisers' alone)."""
    last = event.tournament_rounds.published().order_by("-number").first()
    if last is None:
        return None
    return last.matches.filter(player_a=player).first() or last.matches.filter(player_b=player).first()


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


def records(player_ids: list[int]) -> dict[int, tuple[int, int, int]]:
    """Each player's matches against an opponent: (won, lost, drawn), decided ones only (byes
    and match losses without an opponent left out). One query, however many players."""
    out: dict[int, list[int]] = {pk: [0, 0, 0] for pk in player_ids}
    decided = Match.objects.filter(a_wins__isnull=False, b_wins__isnull=False, player_b__isnull=False)
    rows = decided.filter(Q(player_a__in=player_ids) | Q(player_b__in=player_ids)).values_list(
        "player_a", "player_b", "a_wins", "b_wins"
    )
    for a, b, aw, bw in rows:
        assert aw is not None and bw is not None  # the query keeps decided matches
        for me, mine, theirs in ((a, aw, bw), (b, bw, aw)):
            if me in out:
                out[me][0 if mine > theirs else 1 if mine < theirs else 2] += 1
    return {pk: (w, lost, d) for pk, (w, lost, d) in out.items()}


def played(user: Any, most: int) -> list[dict[str, Any]]:
    """The user's finished events whose lists are public, newest first, with their place, record
    and the general played: read from the event decks those events left (events.event_decks),
    whose placings were worked out once, when the event finished. Three queries."""
    decks = list(EventDeck.objects.filter(user=user).select_related("event").order_by("-day", "-event_id")[:most])
    shown = [
        {
            "event": deck.event,
            "place": deck.placing,
            "of": deck.players,
            "general": deck.general or None,
            "pk": deck.player_id,
            "url": deck.event.get_absolute_url()
            if deck.event.listed
            else reverse("events:public", args=[deck.event.public_token]),
            "list_url": deck.get_absolute_url() if deck.text else None,  # the deck they played
        }
        for deck in decks
    ]
    won_lost_drawn = records([deck.player_id for deck in decks if deck.player_id is not None])
    for row, deck in zip(shown, decks, strict=True):
        row["won"], row["lost"], row["drawn"] = won_lost_drawn.get(deck.player_id or 0, (0, 0, 0))
    return shown
