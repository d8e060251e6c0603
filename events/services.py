"""Writes with rules for events: a submission only while the event is open, a lock that holds,
and the batch check's lists saved as an event. And the verdict table read by the pages and CSV."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from functools import partial
from typing import Any

from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _

from decks.batch import problem_lines
from decks.legality import check_list, remembered_verdict
from events.day import list_verdict, players_from_lists
from events.models import Event, Match, Player, Registration, Submission
from events.tasks import schedule_event_decks, schedule_ratings
from groups.services import FormatInUse
from people import notices
from rules_check import DEFAULT_FORMAT, DeckListError, Verdict
from webutil.csv import csv_text


class EventClosed(Exception):
    """The event takes no more lists: locked, or past its deadline."""


def closed_reason(event: Event, now: datetime | None = None) -> str | None:
    if event.open_at(now):
        return None
    if event.locked:
        return _("The organiser has locked this event: lists can no longer be changed.")
    return _("The deadline has passed: lists can no longer be submitted or changed.")


def frozen_reason(event: Event, user: Any) -> str | None:
    """Once a player has been paired, their list is the one they play: they can no longer change
    or withdraw it (the organiser still can)."""
    if user is None or not getattr(user, "is_authenticated", False):
        return None
    if Match.objects.filter(round__event=event).filter(Q(player_a__user=user) | Q(player_b__user=user)).exists():
        return _("You have been paired: your list is the one you play and can no longer be changed or withdrawn.")
    return None


# What the players' lists were sent under: fixed once the organiser locks the event.
LIST_SETTINGS = frozenset({"name", "format", "deadline", "starts_at"})


@transaction.atomic
def change_settings(event: Event, values: dict[str, Any]) -> Event:
    """Change an event's settings under its row lock, with the model fields' bounds checked
    (`full_clean`: `save()` runs no validator). The page and the API both write through here.
    Once locked, the settings the lists were sent under stay as they were (EventClosed)."""
    current = Event.objects.select_for_update().get(pk=event.pk)
    if current.locked and LIST_SETTINGS & set(values):
        raise EventClosed(closed_reason(current) or "")
    before = (current.rated, current.day)
    before_lists = current.lists_public
    for name, value in values.items():
        setattr(current, name, value)
    current.full_clean(
        exclude=[f.name for f in Event._meta.fields if f.name not in values],
        validate_unique=False,
        validate_constraints=False,
    )
    current.save(update_fields=list(values))
    if "cap" in values:  # a larger cap lets the waiting in
        _promote(current)
    if before_lists != current.lists_public:  # its lists become event decks, or stop being
        transaction.on_commit(partial(schedule_event_decks, current.pk))
    after = (current.rated, current.day)
    if before != after and (before[0] or after[0]):  # its matches enter or leave the ratings, or move
        day = min(before[1], after[1])
        transaction.on_commit(lambda: schedule_ratings(day))
    return current


@transaction.atomic
def submit(event: Event, player: Any, player_name: str, text: str, deck: Any = None) -> Submission:
    """Save (or replace) a player's list. The event row is locked for the check, so a submission
    and the organiser's lock cannot cross: after the lock commits, nothing changes."""
    current = Event.objects.select_for_update().get(pk=event.pk)
    reason = closed_reason(current) or frozen_reason(current, player)
    if reason:
        raise EventClosed(reason)
    check_list(text, current.format)  # a list that is no list at all (DeckListError) is not stored
    if player is not None and current.takes_registrations:
        _list_needs_place(current, player)
    submission, _created = Submission.objects.update_or_create(
        event=current,
        player=player,
        defaults={"player_name": player_name, "text": text, "deck": deck, "submitted_at": timezone.now()},
    )
    # A player of the tournament day already made from this list follows the new one; so does
    # one whose list was withdrawn and is now sent again (a second player of one user would be
    # refused by the database, and every page of the day with it).
    legal, general = list_verdict(text, current.format)
    if player is not None:
        Player.objects.filter(event=current, user=player, submission__isnull=True).update(submission=submission)
    Player.objects.filter(submission=submission).update(name=player_name, legal=legal, general=general)
    players_from_lists(current)  # a new list becomes a player of the day as it is sent
    return submission


def event_freezing_format(key: str) -> Event | None:
    """An event whose lists are closed and that plays the house format `key`: while there is one,
    the format's rules cannot change (events.apps refuses it; the format's page says so first)."""
    return Event.objects.filter(format=key).lists_closed().only("name").first()


def house_format_gone(key: str) -> None:
    """A house format deleted (alone, or with its group): its events play the default format from
    now on, in the same transaction (an event's lists are checked on every view of it)."""
    Event.objects.filter(format=key).update(format=DEFAULT_FORMAT)


def house_format_changing(key: str) -> None:
    """An event whose lists are closed (locked, or past its deadline) was judged by the format's
    rules as they are, and its pairings and results stand on that: they may not change under it.
    The format's events are locked as rows, so that an event locking meanwhile waits for the
    change (and is then judged by the new rules) instead of slipping between look and write."""
    list(Event.objects.select_for_update().filter(format=key).values_list("pk", flat=True))
    closed = event_freezing_format(key)
    if closed is not None:
        raise FormatInUse(format_frozen_by(closed))


def format_frozen_by(event: Event) -> str:
    return _(
        "“%(event)s” plays this format and its lists are closed: its rules stay as they are. "
        "Make a new format for later games."
    ) % {"event": event.name}


@transaction.atomic
def lock(event: Event) -> bool:
    """Lock once; True when this call did it. The deadline no longer matters after this.

    The time is read after the row lock is held: a submission that held the lock first is
    stamped earlier than the lock that shut out the rest."""
    current = Event.objects.select_for_update().get(pk=event.pk)
    if current.locked:
        return False
    current.locked_at = timezone.now()
    current.save(update_fields=["locked_at"])
    return True


@transaction.atomic
def remove_submission(event: Event, submission_id: int) -> None:
    """The organiser removes a list (a duplicate, a withdrawn player): until the lock."""
    current = Event.objects.select_for_update().get(pk=event.pk)
    if current.locked:
        raise EventClosed(closed_reason(current))
    Submission.objects.filter(event=current, pk=submission_id).delete()


@transaction.atomic
def withdraw(event: Event, player: Any) -> bool:
    """A player takes their own list back: only while they could still send one."""
    current = Event.objects.select_for_update().get(pk=event.pk)
    reason = closed_reason(current) or frozen_reason(current, player)
    if reason:
        raise EventClosed(reason)
    deleted, _by_model = Submission.objects.filter(event=current, player=player).delete()
    return bool(deleted)


# Registration: a player's place at a listed or unlisted event, or on its waiting list.


class RegistrationRefused(Exception):
    """A registration the event does not take; `status` is the HTTP answer."""

    def __init__(self, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.status = status


def _list_needs_place(event: Event, player: Any) -> None:
    """A list sent to an event that takes registrations registers its player; when the event is
    full, only a player who has a place sends one (the waiting send theirs once moved up)."""
    place = Registration.objects.filter(event=event, user=player).first()
    if place is None:
        place = _take_place(event, player)
    if place.waiting:
        raise EventClosed(
            _("The event is full and you are on its waiting list: you can send a list once you have a place.")
        )


def _take_place(event: Event, user: Any) -> Registration:
    """A place if the cap allows, else the end of the waiting list (the event's row is locked)."""
    taken = Registration.objects.filter(event=event, waiting=False).count()
    full = event.cap is not None and taken >= event.cap
    return Registration.objects.create(event=event, user=user, waiting=full)


@transaction.atomic
def register(event: Event, user: Any) -> Registration:
    """Register `user` for a listed or unlisted event while it takes lists: a place, or the
    waiting list past the cap. Registering again changes nothing. Under the event's row lock, so
    two players cannot both take its last place."""
    current = Event.objects.select_for_update().get(pk=event.pk)
    if not current.takes_registrations:
        raise RegistrationRefused(_("This event takes no registrations: its organiser hands out its link."), 404)
    reason = closed_reason(current)
    if reason:
        raise RegistrationRefused(reason, 403)
    existing = Registration.objects.filter(event=current, user=user).first()
    return existing or _take_place(current, user)


@transaction.atomic
def unregister(event: Event, user: Any) -> bool:
    """A player gives up their place (and their list with it) or leaves the waiting list, while
    the event takes lists; the first waiting players move up and are told. False: not registered."""
    current = Event.objects.select_for_update().get(pk=event.pk)
    place = Registration.objects.filter(event=current, user=user).first()
    if place is None:
        return False
    reason = closed_reason(current) or frozen_reason(current, user)
    if reason:
        raise RegistrationRefused(reason, 403)
    place.delete()
    Submission.objects.filter(event=current, player=user).delete()
    _promote(current)
    return True


def _promote(event: Event) -> None:
    """Move the waiting up, in the order they came, while the cap has room; each is told once
    the change commits. The caller holds the event's row lock."""
    if not event.takes_registrations:
        return
    taken = Registration.objects.filter(event=event, waiting=False).count()
    room = None if event.cap is None else max(0, event.cap - taken)
    waiting = Registration.objects.filter(event=event, waiting=True).in_order().values_list("pk", "user_id")
    moving = list(waiting if room is None else waiting[:room])
    if not moving:
        return
    Registration.objects.filter(pk__in=[pk for pk, _user in moving]).update(waiting=False)
    url, name = event.get_absolute_url() if event.listed else event.get_submit_url(), event.name
    for _pk, user_id in moving:
        transaction.on_commit(partial(notices.notify, user_id, "promoted", None, name, url))


def place_of(event: Event, user: Any) -> tuple[Registration | None, int | None]:
    """The user's registration and, when waiting, their place in the queue (1: next to move up)."""
    if not getattr(user, "is_authenticated", False):
        return None, None
    place = Registration.objects.filter(event=event, user=user).first()
    if place is None or not place.waiting:
        return place, None
    ahead = (
        Registration.objects.filter(event=event, waiting=True)
        .filter(Q(created__lt=place.created) | Q(created=place.created, pk__lt=place.pk))
        .count()
    )
    return place, ahead + 1


@transaction.atomic
def save_batch(organiser: Any, name: str, format_name: str, lists: list[tuple[str, str, str | None]]) -> Event:
    """An event made from the batch check's files (file name, text, player), already past its
    deadline: these lists came in by hand, not through the link."""
    event = Event.objects.create(organiser=organiser, name=name, format=format_name, deadline=timezone.now())
    Submission.objects.bulk_create(
        [
            Submission(event=event, player_name=(player or file_name)[:100], text=text, file_name=file_name[:200])
            for file_name, text, player in lists
        ]
    )
    players_from_lists(event)
    return event


@dataclass
class Row:
    submission: Submission
    verdict: Verdict | None
    general: str | None = None
    count: int = 0
    error: str | None = None

    @property
    def legal(self) -> bool:
        return self.verdict is not None and self.verdict.legal


def checked(event: Event, submissions: list[Submission]) -> list[Row]:
    """Each submission with its verdict in the event's format (no query per list)."""
    rows = []
    for submission in submissions:
        try:
            verdict = remembered_verdict(submission.text, event.format)
        except DeckListError as exc:  # stored before a parser change, say: shown, not a 500
            rows.append(Row(submission, None, error=str(exc)))
        else:
            rows.append(Row(submission, verdict, verdict.general, verdict.main_deck_count))
    return rows


def to_csv(rows: list[Row]) -> str:
    header = ["player", "user", "file", "submitted_at", "general", "count", "legal", "problems", "list"]
    return csv_text(
        header,
        (
            [
                row.submission.player_name,
                row.submission.player.username if row.submission.player else "",
                row.submission.file_name,
                timezone.localtime(row.submission.submitted_at).isoformat(timespec="seconds"),
                row.general or "",
                row.count,
                "yes" if row.legal else "no",
                row.error or " | ".join(problem_lines(row.verdict.problems) if row.verdict else []),
                row.submission.text,
            ]
            for row in rows
        ),
    )


@transaction.atomic
def release_user(user: Any, heir: Any = None) -> None:
    """Before an account is deleted: the events it organised go to `heir` (or are deleted with
    their lists), and the lists it sent to other events are deleted: nothing of it stays."""
    organised = Event.objects.select_for_update().filter(organiser=user)
    held = Event.objects.select_for_update().filter(registrations__user=user, registrations__waiting=False)
    freed = list(held.exclude(organiser=user).order_by("pk"))
    Registration.objects.filter(user=user).delete()
    for event in freed:  # its place goes to the first who waits
        _promote(event)
    if heir is not None:
        organised.update(organiser=heir)
    else:
        organised.delete()
    Submission.objects.filter(player=user).delete()
