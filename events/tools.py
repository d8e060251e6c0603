"""The organiser's tools of the day, by hand: edit a table of the newest round (pair two players,
give a bye, remove it), give a match loss, delete the newest round, and penalties. Each writes
under the event's row lock (as pairing does) and the table's, and each is recorded in the day's
log with who made it (`DayChange`).

A table can be changed while it has no result and no report; a match loss can be given to a
player whose match of the round has none. Players whose table is removed are not seated in the
round until the organiser pairs them (the day page lists them); the next round pairs them as usual.
"""

from __future__ import annotations

import random
import secrets
from datetime import timedelta
from typing import Any

from django.db import transaction
from django.db.models import Max
from django.utils import timezone
from django.utils.translation import gettext as _

from decks.legality import check_list
from events.day import TournamentError, _history, _locked, acting, list_verdict, record, within
from events.models import (
    BYE,
    DECK_CHECK_TABLES,
    LOSS,
    ORGANISER,
    SWISS,
    TABLE_NUMBERS,
    DeckCheck,
    Event,
    Match,
    Penalty,
    Player,
    Report,
    Round,
    Submission,
)
from rules_check import DeckListError


class RematchError(TournamentError):
    """Pairing these two by hand makes a rematch: asked about first (the message names them)."""


def _newest(event: Event, number: int, *, swiss: bool = True) -> Round:
    round_ = event.tournament_rounds.order_by("-number").first()
    if round_ is None or round_.number != number or (swiss and round_.kind != SWISS):
        raise TournamentError(_("Only the newest Swiss round can be changed by hand."))
    return round_


def _untouched(match: Match) -> bool:
    """No result (a bye aside) and no report: the table may still change."""
    if match.done and match.decided_by != BYE:
        return False
    return not Report.objects.filter(match=match).exists()


def _player(event: Event, pk: int | None) -> Player:
    player = event.players.filter(pk=pk, dropped=False).first() if pk else None
    if player is None:
        raise TournamentError(_("No such player in this event (or the player has dropped)."))
    return player


def _seats(matches: list[Match]) -> dict[int, Match]:
    seats = {}
    for m in matches:
        seats[m.player_a_id] = m
        if m.player_b_id:
            seats[m.player_b_id] = m
    return seats


def _next_table(round_: Round) -> int:
    return (round_.matches.aggregate(top=Max("table"))["top"] or 0) + 1


@transaction.atomic
def set_table(
    event: Event, number: int, table: int, player_a: int, player_b: int | None, by: Any, *, rematch: bool = False
) -> Match:
    """Seat two players at a table of the newest Swiss round by hand (`player_b` None: a bye). The
    table's present players, if any, are unseated; the two must not sit at another table."""
    within(TABLE_NUMBERS, table)
    current = _locked(event)
    round_ = _newest(current, number)
    matches = list(round_.matches.select_for_update(of=("self",)))
    existing = next((m for m in matches if m.table == table), None)
    if existing is not None and not _untouched(existing):
        raise TournamentError(
            _("Table %(table)s has a result or a report: it can no longer change.") % {"table": table}
        )
    a = _player(current, player_a)
    b = _player(current, player_b) if player_b is not None else None
    if b is not None and a.pk == b.pk:
        raise TournamentError(_("Choose two different players."))
    seats = _seats([m for m in matches if m is not existing])
    for p in (a, b):
        if p is not None and p.pk in seats:
            raise TournamentError(
                _("%(name)s sits at table %(table)s: remove that table first.")
                % {"name": p.name, "table": seats[p.pk].table}
            )
    history = _history(current, before=number)
    if b is None and a.pk in history.had_bye:
        raise TournamentError(_("That player has had a bye already: nobody gets a second one."))
    if b is not None and frozenset((a.pk, b.pk)) in history.met and not rematch:
        raise RematchError(_("%(a)s and %(b)s have met before: this would be a rematch.") % {"a": a.name, "b": b.name})
    if existing is not None:
        existing.delete()
    bye = b is None
    match = Match.objects.create(
        round=round_,
        table=table,
        player_a=a,
        player_b=b,
        a_wins=2 if bye else None,
        b_wins=0 if bye else None,
        draws=0 if bye else None,
        decided_by=BYE if bye else "",
    )
    record(
        current, by, "bye" if bye else "pair", round_number=number, table=table, players=[a.pk] + ([b.pk] if b else [])
    )
    return match


@transaction.atomic
def remove_table(event: Event, number: int, table: int, by: Any) -> None:
    """Take a table out of the newest Swiss round: its players are not seated until paired."""
    current = _locked(event)
    round_ = _newest(current, number)
    match = round_.matches.select_for_update(of=("self",)).filter(table=table).first()
    if match is None:
        raise TournamentError(_("No such table."))
    if not _untouched(match):
        raise TournamentError(
            _("Table %(table)s has a result or a report: it can no longer change.") % {"table": table}
        )
    players = [p for p in (match.player_a_id, match.player_b_id) if p]
    match.delete()
    record(current, by, "remove", round_number=number, table=table, players=players)


def _apply_match_loss(round_: Round, player: Player) -> Match:
    """The player's match of the round lost 0–2: against their opponent (who wins it), or alone
    (a match loss with no opponent; a bye becomes one). Not seated: a new table of their own."""
    locked = round_.matches.select_for_update(of=("self",))
    match = locked.filter(player_a=player).first() or locked.filter(player_b=player).first()
    if match is None:
        if round_.kind != SWISS:
            raise TournamentError(_("That player has no match in this round."))
        return Match.objects.create(
            round=round_,
            table=_next_table(round_),
            player_a=player,
            a_wins=0,
            b_wins=2,
            draws=0,
            decided_by=LOSS,
        )
    if match.player_b_id is None:
        if match.decided_by == LOSS:
            raise TournamentError(_("That player has a match loss in this round already."))
        match.a_wins, match.b_wins, match.draws, match.decided_by = 0, 2, 0, LOSS
    else:
        if match.done:
            raise TournamentError(_("That match has a result: correct the result instead."))
        lost_a = match.player_a_id == player.pk
        match.a_wins, match.b_wins, match.draws = (0, 2, 0) if lost_a else (2, 0, 0)
        match.decided_by, match.disputed = ORGANISER, False
    match.save(update_fields=["a_wins", "b_wins", "draws", "decided_by", "disputed"])
    return match


@transaction.atomic
def match_loss(event: Event, number: int, player_id: int, by: Any) -> Match:
    """A match loss in the newest round (a late player, a penalty), recorded with who gave it."""
    current = _locked(event)
    round_ = _newest(current, number, swiss=False)
    player = _player(current, player_id)
    match = _apply_match_loss(round_, player)
    record(current, by, "loss", round_number=number, table=match.table, players=[player.pk])
    return match


@transaction.atomic
def delete_round(event: Event, number: int, by: Any) -> None:
    """Delete the newest round while no result is in (a bye aside), to pair it again."""
    current = _locked(event)
    round_ = _newest(current, number, swiss=False)
    matches = list(round_.matches.select_for_update(of=("self",)))
    if not all(_untouched(m) for m in matches):
        raise TournamentError(_("A result is in: the round can no longer be deleted."))
    round_.delete()
    record(current, by, "delete_round", round_number=number)


def unseated(event: Event, round_: Round | None) -> list[Player]:
    """Players who may be paired but have no table in the round (their table was removed)."""
    if round_ is None or round_.kind != SWISS:
        return []
    seated = set(round_.matches.values_list("player_a", flat=True))
    seated |= set(round_.matches.filter(player_b__isnull=False).values_list("player_b", flat=True))
    active = event.players.filter(checked_in=True, legal=True, dropped=False)
    # Ids first: a championship's 2,000 players are not made into objects to find the few left.
    missing = set(active.values_list("pk", flat=True)) - seated
    return list(event.players.filter(pk__in=missing).order_by("name", "pk")) if missing else []


# --- penalties ---------------------------------------------------------------------------------


@transaction.atomic
def give_penalty(event: Event, player_id: int, kind: str, note: str, by: Any) -> Penalty:
    """A penalty in the player's log. A match loss (and a disqualification, which also drops the
    player) loses their match of the newest round, if it has no result yet; a game loss is a game
    their opponent has won, which that match's result must count (in best of 1, the match)."""
    current = _locked(event)
    player = current.players.filter(pk=player_id).first()
    if player is None:
        raise TournamentError(_("No such player in this event."))
    round_ = current.tournament_rounds.order_by("-number").first()
    mine = None
    if round_ is not None:
        mine = round_.matches.filter(player_a=player).first() or round_.matches.filter(player_b=player).first()
    open_match = mine if mine is not None and not mine.done and mine.player_b_id is not None else None
    applied: Match | None = None
    loses_match = kind in ("match_loss", "disqualification") or (kind == "game_loss" and current.best_of == 1)
    if loses_match and open_match is not None and round_ is not None:
        applied = _apply_match_loss(round_, player)
    elif kind == "game_loss" and open_match is not None:
        applied = open_match
        # Reports sent before the penalty may not count it: the players report again.
        Report.objects.filter(match=open_match).delete()
        Match.objects.filter(pk=open_match.pk).update(disputed=False)
    if kind == "disqualification":
        Player.objects.filter(pk=player.pk).update(dropped=True)
    penalty = Penalty.objects.create(
        event=current,
        player=player,
        kind=kind,
        note=note,
        round_number=round_.number if round_ is not None else None,
        match=applied,
        by=acting(by),
    )
    record(current, by, "penalty", round_number=penalty.round_number, players=[player.pk])
    return penalty


# --- deck checks ---------------------------------------------------------------------------------


@transaction.atomic
def deck_check(event: Event, number: int, count: int, by: Any) -> DeckCheck:
    """Pick `count` tables of the newest round at random (a recorded seed) for a deck check:
    tables with two players first, a table of one only when there are not enough."""
    within(DECK_CHECK_TABLES, count)
    current = _locked(event)
    round_ = _newest(current, number, swiss=False)
    matches = list(round_.matches.order_by("table"))
    if not matches:
        raise TournamentError(_("This round has no table."))
    seed = secrets.randbelow(2**31)
    rng = random.Random(seed)  # noqa: S311 (a recorded, reproducible draw, not a secret)
    pairs = [m for m in matches if m.player_b_id]
    alone = [m for m in matches if not m.player_b_id]
    picked = rng.sample(pairs, min(count, len(pairs)))
    picked += rng.sample(alone, min(count - len(picked), len(alone)))
    picked.sort(key=lambda m: m.table)
    players = [p for m in picked for p in (m.player_a_id, m.player_b_id) if p]
    check = DeckCheck.objects.create(
        round=round_, seed=seed, tables=[m.table for m in picked], players=players, by=acting(by)
    )
    record(current, by, "deck_check", round_number=number, players=players)
    return check


def checked_rounds(event: Event) -> dict[int, list[int]]:
    """Each player's rounds with a deck check, for the day page's players."""
    out: dict[int, list[int]] = {}
    rows = (
        DeckCheck.objects.filter(round__event=event).order_by("round__number").values_list("round__number", "players")
    )
    for number, players in rows:
        for p in players:
            if isinstance(p, int) and number not in out.setdefault(p, []):
                out[p].append(number)
    return out


def with_players(check: DeckCheck) -> DeckCheck:
    """The check with its players and their lists loaded (`checked`, in table order)."""
    found = {p.pk: p for p in Player.objects.filter(pk__in=check.players).select_related("submission")}
    check.checked = [found[p] for p in check.players if p in found]  # type: ignore[attr-defined]
    return check


# --- a player's list, fixed by the organiser ---------------------------------------------------------


@transaction.atomic
def fix_list(event: Event, player_id: int, text: str, by: Any) -> Player:
    """The organiser replaces a player's list (a paired player can no longer): the list as it
    now stands, its verdict and general; recorded with who made the change. An unreadable list
    is refused and nothing changes."""
    current = _locked(event)
    player = Player.objects.select_for_update().filter(event=current, pk=player_id).first()
    if player is None:
        raise TournamentError(_("No such player in this event."))
    try:
        check_list(text, current.format)
    except DeckListError as exc:
        raise TournamentError(exc.message_en) from None
    legal, general = list_verdict(text, current.format)
    if player.submission_id is not None:
        Submission.objects.filter(pk=player.submission_id).update(text=text, deck=None)
    else:
        player.submission = Submission.objects.create(
            event=current, player=player.user, player_name=player.name, text=text
        )
    player.legal, player.general = legal, general
    player.save(update_fields=["submission", "legal", "general"])
    record(current, by, "list_fixed", players=[player.pk])
    return player


# --- held pairings -----------------------------------------------------------------------------------


@transaction.atomic
def publish(event: Event, number: int, by: Any) -> Round:
    """Publish a draft round to the players and the venue: its clock starts now."""
    current = _locked(event)
    round_ = current.tournament_rounds.select_for_update().filter(number=number).first()
    if round_ is None:
        raise TournamentError(_("No such round."))
    if round_.published_at is not None:
        raise TournamentError(_("Round %(n)s is published already.") % {"n": number})
    now = timezone.now()
    round_.published_at = round_.started = now
    round_.ends = now + timedelta(minutes=current.round_minutes)
    round_.paused_at = None
    round_.save(update_fields=["published_at", "started", "ends", "paused_at"])
    record(current, by, "publish", round_number=number)
    return round_
