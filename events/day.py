"""The tournament day, on the pure `tournament` package: players and check-in, Swiss rounds,
results from the organiser or from both players, standings and the top cut.

Every write that two people can make at once (two reports of one match, a report racing the
organiser, two organiser tabs pairing) reads and writes under a row lock: the event's for
pairing, the match's for results.
"""

from __future__ import annotations

import secrets
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import timedelta
from functools import lru_cache, partial
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Max, Q, QuerySet
from django.utils import timezone
from django.utils.translation import gettext as _

from decks.legality import check_list
from events.models import (
    AGREED,
    CLOCK_MINUTES,
    LOSS,
    ORGANISER,
    PUBLIC_LISTS,
    SWISS,
    TOP,
    DayChange,
    Event,
    Match,
    Penalty,
    Player,
    Report,
    Round,
    Submission,
)
from events.models import BYE as BYE_RESULT
from events.tasks import schedule_card_wins, schedule_event_decks, schedule_ratings
from rules_check import DeckListError
from tournament import BYE, PairingError, Points, Standing, assign_tables, bracket_pairs, pair_round, standings
from tournament import Match as Result


class TournamentError(ValueError):
    """A step the tournament's state does not allow now; the message says why."""


# --- who may do what ---------------------------------------------------------------------------


def runs(event: Event, user: Any) -> bool:
    """The organiser and the co-organisers (judges) pair and enter results."""
    if not user.is_authenticated:
        return False
    return event.organiser_id == user.pk or event.judges.filter(pk=user.pk).exists()


def events_run_by(user: Any) -> QuerySet[Event]:
    if not user.is_authenticated:
        return Event.objects.none()
    return Event.objects.filter(Q(organiser=user) | Q(judges=user)).distinct()


def acting(user: Any) -> Any:
    """The user to record as having made a change: None for nobody (a script, a test)."""
    return user if user is not None and user.is_authenticated else None


def record(
    event: Event,
    by: Any,
    kind: str,
    *,
    round_number: int | None = None,
    table: int | None = None,
    players: Iterable[int] = (),
) -> DayChange:
    """A change made by hand on the day, in the day's log with who made it."""
    return DayChange.objects.create(
        event=event, kind=kind, round_number=round_number, table=table, players=list(players), by=acting(by)
    )


def _locked(event: Event) -> Event:
    return Event.objects.select_for_update().get(pk=event.pk)


# --- players ---------------------------------------------------------------------------------


def list_verdict(text: str, format_name: str) -> tuple[bool, str]:
    """(legal, general code) of a list; an unreadable list is not legal and has no general."""
    try:
        verdict = check_list(text, format_name)[1]
    except DeckListError:
        return False, ""
    return verdict.legal, verdict.general or ""


@transaction.atomic
def players_from_lists(event: Event) -> int:
    """A player for every list sent to the event that has none yet; returns how many were added."""
    current = _locked(event)
    new = Submission.objects.filter(event=current, tournament_player__isnull=True)
    # A user who is a player already (their list withdrawn, then sent again) stays that player.
    known = {p.user_id: p for p in Player.objects.filter(event=current, user__isnull=False, submission__isnull=True)}
    players = []
    for s in new:
        legal, general = list_verdict(s.text, current.format)
        again = known.pop(s.player_id, None) if s.player_id else None
        if again is not None:
            Player.objects.filter(pk=again.pk).update(submission=s, name=s.player_name, legal=legal, general=general)
            continue
        players.append(
            Player(event=current, name=s.player_name, user=s.player, submission=s, legal=legal, general=general)
        )
    Player.objects.bulk_create(players)
    return len(players)


@transaction.atomic
def add_player(event: Event, name: str, text: str, by: Any = None) -> Player:
    """A late player with a list brought on the day (checked in: they are at the venue). After
    round 1, as the event's setting says, a match loss for each Swiss round already paired."""
    current = _locked(event)
    try:
        verdict = check_list(text, current.format)[1]
    except DeckListError as exc:
        raise TournamentError(exc.message_en) from None
    submission = Submission.objects.create(event=current, player=None, player_name=name, text=text)
    player = Player.objects.create(
        event=current,
        name=name,
        submission=submission,
        legal=verdict.legal,
        general=verdict.general or "",
        checked_in=True,
    )
    missed = current.tournament_rounds.filter(kind=SWISS).annotate(last=Max("matches__table"))
    last_tables = list(missed.values_list("pk", "last"))
    if current.late_entry_losses and last_tables:
        Match.objects.bulk_create(
            Match(round_id=r, table=(last or 0) + 1, player_a=player, a_wins=0, b_wins=2, draws=0, decided_by=LOSS)
            for r, last in last_tables
        )
        record(current, by, "late", players=[player.pk])
    return player


def _started(event: Event) -> bool:
    return event.tournament_rounds.exists()


@transaction.atomic
def set_checked_in(player: Player, checked_in: bool, *, by_player: bool = False) -> Player:
    event = _locked(player.event)
    current = Player.objects.select_for_update().get(pk=player.pk)
    if by_player and (not event.checkin_open or _started(event)):
        raise TournamentError(_("Check-in is not open."))
    current.checked_in = checked_in
    current.save(update_fields=["checked_in"])
    return current


@transaction.atomic
def check_in_everyone(event: Event) -> int:
    """Before round 1: every player who has not dropped is checked in (the organiser who counts
    heads at the door rather than waiting for phones). Returns how many were checked in now."""
    current = _locked(event)
    if _started(current):
        raise TournamentError(_("Round 1 has been paired: check-in is over."))
    return current.players.filter(checked_in=False, dropped=False).update(checked_in=True)


@transaction.atomic
def set_dropped(player: Player, dropped: bool, *, by_player: bool = False, by: Any = None) -> Player:
    """Drop (or reinstate, for an organiser) a player between rounds; they keep their record. An
    organiser's drop is recorded in the day's log: it is also how a player who cannot stay is
    left out of the top cut."""
    event = _locked(player.event)
    current = Player.objects.select_for_update().get(pk=player.pk)
    if by_player and not dropped:
        raise TournamentError(_("Only the organiser can reinstate a player."))
    changed = current.dropped != dropped
    current.dropped = dropped
    current.save(update_fields=["dropped"])
    if changed and not by_player:
        kind = "drop" if dropped else "reinstate"
        record(event, by, kind, players=[current.pk])
    return current


@transaction.atomic
def set_seating(player: Player, values: dict[str, Any]) -> Player:
    """A player's first-round bye (until round 1 is paired) and fixed table (None: none), with
    the model fields' bounds."""
    event = _locked(player.event)
    current = Player.objects.select_for_update().get(pk=player.pk)
    if "first_round_bye" in values and _started(event):
        raise TournamentError(_("Round 1 is paired: first-round byes can no longer change."))
    for name in ("first_round_bye", "fixed_table"):
        if name in values:
            setattr(current, name, values[name])
    fields = [name for name in ("first_round_bye", "fixed_table") if name in values]
    try:
        current.full_clean(
            exclude=[f.name for f in Player._meta.fields if f.name not in fields], validate_constraints=False
        )
    except ValidationError as exc:
        raise TournamentError(" ".join(exc.messages)) from None
    current.save(update_fields=fields)
    return current


# --- rounds ------------------------------------------------------------------------------------


@dataclass
class History:
    """What pairing needs from earlier rounds."""

    scores: dict[int, int]
    met: set[frozenset[int]]
    had_bye: set[int]


def _results(event: Event, *, before: int | None = None, published: bool = False) -> list[Result]:
    """Every Swiss result in so far (of the rounds before `before`; of published rounds only, a
    draft's byes aside), as plain rows (one query, no model instances)."""
    matches = Match.objects.filter(round__event=event, round__kind=SWISS, a_wins__isnull=False)
    if before is not None:
        matches = matches.filter(round__number__lt=before)
    if published:
        matches = matches.filter(round__published_at__isnull=False)
    rows = matches.order_by("pk").values_list("player_a", "player_b", "a_wins", "b_wins", "draws")
    return [Result(a, b, aw or 0, bw or 0, d or 0) for a, b, aw, bw, d in rows]


def _points(event: Event) -> Points:
    return Points(event.win_points, event.draw_points, event.loss_points)


def _history(event: Event, *, before: int | None = None) -> History:
    """Scores, who met and who had a bye, from the Swiss rounds (those before round `before`)."""
    results = _results(event, before=before)
    swiss = Match.objects.filter(round__event=event, round__kind=SWISS)
    if before is not None:
        swiss = swiss.filter(round__number__lt=before)
    pairs = swiss.values_list("player_a", "player_b", "decided_by")
    table = standings(list(event.players.values_list("pk", flat=True)), results, _points(event), event.standings_seed)
    return History(
        scores={row.player: row.points for row in table},
        met={frozenset((a, b)) for a, b, _how in pairs if b is not None},
        # A match loss has no opponent either, but it is no bye: its player may still get one.
        had_bye={a for a, b, how in pairs if b is None and how != LOSS},
    )


def open_round(event: Event) -> Round | None:
    """The newest round while a table of it has no result."""
    last = event.tournament_rounds.order_by("-number").first()
    if last is not None and last.matches.filter(a_wins__isnull=True).exists():
        return last
    return None


def _new_round(event: Event, kind: str, seed: int | None = None) -> Round:
    number = (event.tournament_rounds.order_by("-number").values_list("number", flat=True).first() or 0) + 1
    now = timezone.now()
    return Round.objects.create(
        event=event,
        number=number,
        kind=kind,
        seed=secrets.randbelow(2**31) if seed is None else seed,
        started=now,
        ends=now + timedelta(minutes=event.round_minutes),
        # A draft only the organisers see while the event holds its pairings (tools.publish).
        published_at=None if event.hold_pairings else now,
    )


def _create_matches(round_: Round, pairs: list[tuple[int, int | None]], fixed: dict[int, int] | None = None) -> None:
    """The round's tables: players with a fixed table seated there (`fixed`), the rest in order."""
    Match.objects.bulk_create(
        [
            Match(round=round_, table=table, player_a_id=a, player_b_id=b)
            if b is not BYE
            else Match(round=round_, table=table, player_a_id=a, a_wins=2, b_wins=0, draws=0, decided_by=BYE_RESULT)
            for table, a, b in assign_tables(pairs, fixed or {})
        ]
    )


def _fixed_tables(event: Event) -> dict[int, int]:
    rows = event.players.filter(fixed_table__isnull=False, dropped=False).values_list("pk", "fixed_table")
    return {pk: table for pk, table in rows if table}


def _swiss_pairs(
    event: Event, players: list[int], history: History, seed: int, *, first: bool
) -> list[tuple[int, int | None]]:
    """A Swiss round's pairs; in round 1 the byes the organiser awarded come first and their
    players are left out of the pairing."""
    awarded = set(event.players.filter(first_round_bye=True).values_list("pk", flat=True)) if first else set()
    pool = [p for p in players if p not in awarded]
    pairs = _pairs(pool, history, seed) if len(pool) > 1 or not awarded else [(p, BYE) for p in pool]
    return pairs + [(p, BYE) for p in players if p in awarded]


def active_players(event: Event) -> list[int]:
    return list(
        event.players.filter(checked_in=True, legal=True, dropped=False).order_by("pk").values_list("pk", flat=True)
    )


# Pairing is computed from a snapshot, outside any lock (a championship round takes a few
# milliseconds, but a small event's exact matching up to a quarter of a second), and written under
# the event's row lock only if nothing it read changed meanwhile; otherwise it is computed again.
PAIRING_ATTEMPTS = 3


def _fingerprint(event: Event) -> int:
    """What a pairing is computed from: the players who may be paired, every match and its
    result, and the reports (a report can change a result)."""
    matches = Match.objects.filter(round__event=event).order_by("pk")
    rows = tuple(matches.values_list("pk", "player_a", "player_b", "a_wins", "b_wins", "draws"))
    reports = Report.objects.filter(match__round__event=event).count()
    return hash((tuple(active_players(event)), rows, reports))


def planned_rounds(event: Event) -> int:
    """The number of Swiss rounds: the organiser's, or the one fixed when round 1 was paired;
    before that, ⌈log2 n⌉ of the players expected (checked in, once check-in has begun; else
    those with a legal list)."""
    if event.rounds:
        return event.rounds
    expected = event.players.filter(legal=True, dropped=False)
    if expected.filter(checked_in=True).exists():
        expected = expected.filter(checked_in=True)
    return event.swiss_rounds(expected.count())


def _can_pair_next(event: Event) -> None:
    if open_round(event) is not None:
        raise TournamentError(_("The current round still has tables without a result."))
    if event.tournament_rounds.filter(kind=TOP).exists():
        raise TournamentError(_("The top cut has begun: the Swiss rounds are over."))
    if event.tournament_rounds.filter(kind=SWISS).count() >= planned_rounds(event):
        raise TournamentError(_("Every Swiss round has been played."))
    if len(active_players(event)) < 2:
        raise TournamentError(
            _(
                "Fewer than two players can be paired: a player is paired once checked in, with a "
                "legal list, and not dropped. Check players in first."
            )
        )


def _pairs(players: list[int], history: History, seed: int) -> list[tuple[int, int | None]]:
    try:
        return pair_round(players, history.scores, history.met, history.had_bye, seed)
    except PairingError:
        raise TournamentError(_("These players cannot be paired without a rematch.")) from None


def _changed_meanwhile() -> TournamentError:
    return TournamentError(_("The event kept changing while the round was being paired: pair it again."))


def pair_next_round(event: Event) -> Round:
    """Pair the next Swiss round: checked-in players with a legal list who have not dropped.
    Computed outside any lock, written under the event's row lock if nothing changed meanwhile,
    so two organiser tabs never pair the same round twice and no page waits for a pairing."""
    for _attempt in range(PAIRING_ATTEMPTS):
        _can_pair_next(event)
        seen = _fingerprint(event)
        players = active_players(event)
        seed = secrets.randbelow(2**31)
        first = not event.tournament_rounds.exists()
        pairs = _swiss_pairs(event, players, _history(event), seed, first=first)
        with transaction.atomic():
            current = _locked(event)
            if _fingerprint(current) != seen:
                continue
            _can_pair_next(current)
            first = not current.tournament_rounds.exists()
            round_ = _new_round(current, SWISS, seed)
            if first:
                # Check-in ends, and the number of Swiss rounds is fixed from the players now.
                current.checkin_open = False
                current.rounds = current.rounds or current.swiss_rounds(len(players))
                current.save(update_fields=["checkin_open", "rounds"])
            _create_matches(round_, pairs, _fixed_tables(current))
            return round_
    raise _changed_meanwhile()


def _newest_swiss(event: Event, number: int) -> Round:
    round_ = event.tournament_rounds.order_by("-number").first()
    if round_ is None or round_.number != number or round_.kind != SWISS:
        raise TournamentError(_("Only the newest Swiss round can be paired again."))
    return round_


def repairable(event: Event) -> bool:
    """Whether the newest round can be paired again: a Swiss round with no result in."""
    newest = event.tournament_rounds.order_by("-number").first()
    return newest is not None and newest.kind == SWISS and not _has_results(newest)


def _has_results(round_: Round) -> bool:
    return (
        round_.matches.exclude(decided_by=BYE_RESULT).filter(a_wins__isnull=False).exists()
        or Report.objects.filter(match__round=round_).exists()
    )


def repair_round(event: Event, number: int) -> Round:
    """Pair the newest round again (a late arrival, a mistake) while no result is in."""
    for _attempt in range(PAIRING_ATTEMPTS):
        round_ = _newest_swiss(event, number)
        if _has_results(round_):
            raise TournamentError(_("A result is in: the round can no longer be paired again."))
        seen = _fingerprint(event)
        seed = secrets.randbelow(2**31)
        history = _history(event, before=number)
        pairs = _swiss_pairs(event, active_players(event), history, seed, first=number == 1)
        with transaction.atomic():
            current = _locked(event)
            round_ = _newest_swiss(current, number)
            # The round's matches under their row locks, as a report takes them: a report in
            # progress is waited for and then seen, and one that comes after finds its match gone.
            list(round_.matches.select_for_update(of=("self",)))
            if _has_results(round_):
                raise TournamentError(_("A result is in: the round can no longer be paired again."))
            if _fingerprint(current) != seen:
                continue
            # A game loss given in this round belongs to the player's match, whichever it is:
            # it moves to their new table (the pairing's deletion would leave it nowhere).
            carried = list(Penalty.objects.filter(match__round=round_).values_list("pk", "player_id"))
            round_.delete()
            again = _new_round(current, SWISS, seed)
            _create_matches(again, pairs, _fixed_tables(current))
            for penalty, player in carried:
                table = again.matches.filter(Q(player_a=player) | Q(player_b=player), player_b__isnull=False).first()
                Penalty.objects.filter(pk=penalty).update(match=table)
            return again
    raise _changed_meanwhile()


# --- the round's clock --------------------------------------------------------------------------

PAUSE, RESUME, ADD, END = "pause", "resume", "add", "end"
CLOCK_ACTIONS = (PAUSE, RESUME, ADD, END)


def within(bounds: list[Any], value: int) -> None:
    """A number checked against a model field's bounds (events.models), refused as a
    TournamentError with the validators' own messages."""
    try:
        for validator in bounds:
            validator(value)
    except ValidationError as exc:
        raise TournamentError(" ".join(exc.messages)) from None


@transaction.atomic
def clock(round_: Round, action: str, minutes: int = 0) -> Round:
    """Pause, resume, add minutes to or end the newest round's clock, under the round's row lock
    (two organisers' taps apply one after the other). Every screen counts down to `ends`."""
    current = Round.objects.select_for_update().filter(pk=round_.pk).first()
    if current is None:
        raise TournamentError(_("This round was paired again: look at the new pairing."))
    newest = Round.objects.filter(event_id=current.event_id).order_by("-number").values_list("pk", flat=True)
    if current.pk != newest.first():
        raise TournamentError(_("Only the newest round's clock can be changed."))
    now = timezone.now()
    if action == PAUSE:
        if current.paused_at is not None:
            raise TournamentError(_("The clock is paused already."))
        current.paused_at = now
    elif action == RESUME:
        if current.paused_at is None:
            raise TournamentError(_("The clock is running."))
        current.ends += now - current.paused_at
        current.paused_at = None
    elif action == ADD:
        within(CLOCK_MINUTES, minutes)
        current.ends += timedelta(minutes=minutes)
    elif action == END:
        current.ends, current.paused_at = now, None
    else:
        raise TournamentError(_("Unknown action."))
    current.save(update_fields=["ends", "paused_at"])
    return current


# --- results ---------------------------------------------------------------------------------


def check_games(event: Event, wins: int, losses: int, draws: int) -> None:
    """A match's games as the event's format allows them: in best of 1, 1–0, 0–1 or 0–0–1."""
    values = (wins, losses, draws)
    if any(type(v) is not int or v < 0 for v in values):
        raise TournamentError(_("Games are whole numbers from 0."))
    if event.best_of == 1:
        if values not in ((1, 0, 0), (0, 1, 0), (0, 0, 1)):
            raise TournamentError(_("In best of 1 a match is 1–0, 0–1 or a draw (0–0–1)."))
        return
    if wins > 2 or losses > 2 or wins + losses + draws > 3 or wins + losses + draws == 0:
        raise TournamentError(_("In best of 3 a player wins at most 2 games, of at most 3."))


def check_game_losses(match: Match, a_wins: int, b_wins: int) -> None:
    """A game loss given at this table (a penalty) is a game the opponent has won: a result
    must count it."""
    given = Penalty.objects.filter(match=match, kind="game_loss").values_list("player_id", flat=True)
    lost_by_a = sum(1 for p in given if p == match.player_a_id)
    lost_by_b = sum(1 for p in given if p == match.player_b_id)
    if b_wins < lost_by_a or a_wins < lost_by_b:
        raise TournamentError(
            _("A game loss was given at this table: the result must count it as a game won by the opponent.")
        )


def _locked_match(match: Match) -> Match:
    """The match under its row lock, and only its row (`of`): a lock on the joined event row too
    made a report and a round paired again wait for each other, and PostgreSQL ended one of them
    as a deadlock. A round paired again meanwhile took the match with it: said, not a 500."""
    found = Match.objects.select_for_update(of=("self",)).select_related("round__event").filter(pk=match.pk).first()
    if found is None:
        raise TournamentError(_("This round was paired again: look at the new pairing."))
    return found


@transaction.atomic
def enter_result(match: Match, wins: int, losses: int, draws: int, *, side: Player | None = None) -> Match:
    """The organiser's result, games from `side` (player A when None): it stands, and settles a
    disagreement. Also corrects a result afterwards; the standings follow."""
    current = _locked_match(match)
    if current.player_b_id is None:
        raise TournamentError(_("A bye needs no result."))
    check_games(current.round.event, wins, losses, draws)
    if side is not None and side.pk == current.player_b_id:
        wins, losses = losses, wins
    elif side is not None and side.pk != current.player_a_id:
        raise TournamentError(_("That player is not at this table."))
    check_game_losses(current, wins, losses)
    current.a_wins, current.b_wins, current.draws = wins, losses, draws
    current.decided_by, current.disputed = ORGANISER, False
    current.save(update_fields=["a_wins", "b_wins", "draws", "decided_by", "disputed"])
    _recount_after_result(current)
    return current


def _recount_after_result(match: Match) -> None:
    """A result at an event whose lists are public moves the cards' win rates, and at a rated
    event the players' ratings: both counted again in the background, a minute on, with the other
    results of that minute."""
    event = match.round.event
    if event.lists_public in PUBLIC_LISTS:
        transaction.on_commit(schedule_card_wins)
        transaction.on_commit(partial(schedule_event_decks, event.pk))
    if event.rated and match.player_b_id is not None:
        transaction.on_commit(lambda: schedule_ratings(event.day))


@transaction.atomic
def report(match: Match, player: Player, wins: int, losses: int, draws: int) -> Match:
    """A player's own report. It stands when the opponent's agrees; a disagreement is flagged for
    the organiser. A result the organiser entered, or both players agreed, stands: only the
    organiser changes it (the same report again changes nothing). A round that is not the
    newest takes no reports."""
    current = _locked_match(match)
    if player.pk not in (current.player_a_id, current.player_b_id) or current.player_b_id is None:
        raise TournamentError(_("You can report only your own match."))
    newest = Round.objects.filter(event_id=current.round.event_id).order_by("-number").values_list("number", flat=True)
    if current.round.published_at is None:
        raise TournamentError(_("This round is not published yet."))
    if current.round.number != newest.first():
        raise TournamentError(
            _("Round %(n)s is over: ask the organiser to correct its result.") % {"n": current.round.number}
        )
    if current.decided_by == ORGANISER:
        raise TournamentError(_("The organiser has entered this result."))
    if current.decided_by == AGREED:
        as_agreed = (current.a_wins, current.b_wins, current.draws)
        if player.pk == current.player_b_id:
            as_agreed = (current.b_wins, current.a_wins, current.draws)
        if as_agreed == (wins, losses, draws):
            return current  # the same report again (a second tap): nothing changes
        raise TournamentError(_("Both players reported this result: only the organiser can change it now."))
    check_games(current.round.event, wins, losses, draws)
    mine_a = player.pk == current.player_a_id
    check_game_losses(current, wins if mine_a else losses, losses if mine_a else wins)
    Report.objects.update_or_create(
        match=current, player=player, defaults={"wins": wins, "losses": losses, "draws": draws}
    )
    reports = {r.player_id: r for r in current.reports.all()}
    mine = reports[player.pk]
    other_id = current.player_b_id if player.pk == current.player_a_id else current.player_a_id
    theirs = reports.get(other_id)
    if theirs is None:
        return current
    if (mine.wins, mine.losses, mine.draws) == (theirs.losses, theirs.wins, theirs.draws):
        a = reports[current.player_a_id]
        current.a_wins, current.b_wins, current.draws = a.wins, a.losses, a.draws
        current.decided_by, current.disputed = AGREED, False
        _recount_after_result(current)
    else:
        current.a_wins = current.b_wins = current.draws = None
        current.decided_by, current.disputed = "", True
    current.save(update_fields=["a_wins", "b_wins", "draws", "decided_by", "disputed"])
    return current


# --- standings and the top cut ----------------------------------------------------------------


@lru_cache(maxsize=16)
def _standings(
    players: tuple[int, ...], results: tuple[Result, ...], points: Points, seed: int
) -> tuple[Standing, ...]:
    """`standings()` kept for the inputs seen lately. The key is the whole input, so a kept
    answer is the answer: a page of 2,000 players read again with no new result costs two
    queries and a lookup, not a quarter of a second of exact fractions. Read-only to callers."""
    return tuple(standings(players, results, points, seed))


def standings_of(event: Event) -> list[Standing]:
    """The standings after the results in so far (Swiss rounds only, published). Two queries."""
    results = tuple(_results(event, published=True))
    players = tuple(event.players.order_by("pk").values_list("pk", flat=True))
    return list(_standings(players, results, _points(event), event.standings_seed))


@transaction.atomic
def pair_top_cut(event: Event) -> Round:
    """The top cut's next round: the first seeded by the standings (dropped players left out),
    then the winners of the round before, in bracket order."""
    current = _locked(event)
    if not current.top_cut:
        raise TournamentError(_("This event has no top cut."))
    if open_round(current) is not None:
        raise TournamentError(_("The current round still has tables without a result."))
    tops = list(current.tournament_rounds.filter(kind=TOP).order_by("number"))
    if not tops:
        if current.tournament_rounds.filter(kind=SWISS).count() < planned_rounds(current):
            raise TournamentError(_("The Swiss rounds are not over."))
        dropped = set(current.players.filter(dropped=True).values_list("pk", flat=True))
        ranked = [row.player for row in standings_of(current) if row.player not in dropped]
        if len(ranked) < current.top_cut:
            raise TournamentError(_("Fewer players than the top cut."))
        pairs: list[tuple[int, int | None]] = list(bracket_pairs(ranked[: current.top_cut]))
    else:
        last = list(tops[-1].matches.order_by("table"))
        if len(last) == 1:
            raise TournamentError(_("The final has been played."))
        winners = [m.player_a_id if (m.a_wins or 0) > (m.b_wins or 0) else m.player_b_id for m in last]
        if any(w is None for w in winners) or any(m.a_wins == m.b_wins for m in last):
            raise TournamentError(_("A top-cut match needs a winner."))
        if current.top_cut_reseed:
            # Re-seeded: the best remaining seed (by the Swiss standings) against the lowest.
            seed = {row.player: row.rank for row in standings_of(current)}
            ranked = sorted((w for w in winners if w is not None), key=lambda p: seed.get(p, 0))
            pairs = [(ranked[i], ranked[-1 - i]) for i in range(len(ranked) // 2)]
        else:
            pairs = [(winners[i], winners[i + 1]) for i in range(0, len(winners), 2)]  # type: ignore[misc]
    round_ = _new_round(current, TOP)
    _create_matches(round_, pairs)
    return round_


@transaction.atomic
def swap(event: Event, first: int, second: int, by: Any = None) -> Round:
    """Swap two players between tables of the newest Swiss round, before any result is in. A
    player never sits at two tables: the two change places, and a bye moves with its seat."""
    current = _locked(event)
    round_ = current.tournament_rounds.order_by("-number").first()
    if round_ is None or round_.kind != SWISS:
        raise TournamentError(_("Only the newest Swiss round can be changed."))
    matches = list(round_.matches.select_for_update())
    if (
        any(m.done and m.decided_by != BYE_RESULT for m in matches)
        or Report.objects.filter(match__round=round_).exists()
    ):
        raise TournamentError(_("A result is in: the round can no longer be changed."))
    seat = {}
    for m in matches:
        seat[m.player_a_id] = (m, "player_a_id")
        if m.player_b_id:
            seat[m.player_b_id] = (m, "player_b_id")
    if first == second or first not in seat or second not in seat:
        raise TournamentError(_("Choose two different players of this round."))
    (m1, f1), (m2, f2) = seat[first], seat[second]
    if m1.pk == m2.pk:
        raise TournamentError(_("These two already play each other."))
    setattr(m1, f1, second)
    setattr(m2, f2, first)
    had_bye = _history(current, before=round_.number).had_bye
    for m in (m1, m2):
        if m.player_b_id is None and m.player_a_id in had_bye:
            raise TournamentError(_("That player has had a bye already: nobody gets a second one."))
    for m in (m1, m2):
        bye = m.player_b_id is None
        m.a_wins, m.b_wins, m.draws = (2, 0, 0) if bye else (None, None, None)
        m.decided_by = BYE_RESULT if bye else ""
        m.save(update_fields=["player_a_id", "player_b_id", "a_wins", "b_wins", "draws", "decided_by"])
    record(current, by, "swap", round_number=round_.number, players=[first, second])
    return round_
