"""Players sending lists while the organiser locks: once the lock is committed, the lists are
what they were at that moment. Real threads and transactions (SQLite here, PostgreSQL in CI):
without the row lock in events.services, a submission that read "open" just before the lock
would still be written after it."""

from __future__ import annotations

import threading
from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.db import connections
from django.utils import timezone

from catalog.loading import load_catalog
from events import services
from events.models import Event, Submission
from tests.support.decklists import LEGAL_40

PLAYERS = 12


@pytest.mark.django_db(transaction=True)
def test_nothing_is_written_after_the_lock_commits() -> None:
    load_catalog()  # real transactions: this test brings its own committed catalogue
    users = get_user_model().objects
    organiser = users.create_user("organiser", password="x-very-long-password-1")
    players = [users.create_user(f"player{i}", password="x-very-long-password-1") for i in range(PLAYERS)]
    event = Event.objects.create(organiser=organiser, name="race", deadline=timezone.now() + timedelta(hours=1))
    barrier = threading.Barrier(PLAYERS + 1)
    outcomes: dict[str, str] = {}
    at_lock: set[str] = set()

    def player(user) -> None:
        barrier.wait()
        try:
            for attempt in range(5):  # keep sending (and replacing) while the lock lands
                services.submit(event, user, f"{user.username} #{attempt}", LEGAL_40)
                outcomes[user.username] = f"#{attempt}"
        except services.EventClosed:
            pass
        finally:
            connections.close_all()

    def organiser_locks() -> None:
        barrier.wait()
        try:
            assert services.lock(event)
            at_lock.update(Submission.objects.filter(event=event).values_list("player_name", flat=True))
        finally:
            connections.close_all()

    threads = [threading.Thread(target=player, args=(p,)) for p in players]
    threads.append(threading.Thread(target=organiser_locks))
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)

    final = set(Submission.objects.filter(event=event).values_list("player_name", flat=True))
    assert final == at_lock  # nothing added or replaced once the lock was committed
    assert final == {f"{name} {attempt}" for name, attempt in outcomes.items()}  # every accepted send is the one kept
    locked_at = Event.objects.get(pk=event.pk).locked_at
    assert all(s.submitted_at <= locked_at for s in Submission.objects.filter(event=event))  # stamped in order
    with pytest.raises(services.EventClosed):
        services.submit(event, players[0], "late", LEGAL_40)


@pytest.mark.django_db(transaction=True)
def test_a_paper_list_confirmed_twice_at_once_is_added_once() -> None:
    """Two organiser's tabs (or a double tap) add the same sheet: one list, the other told."""
    from catalog.models import Scan
    from events import paper
    from events.models import PaperList

    load_catalog()
    organiser = get_user_model().objects.create_user("organiser", password="x-very-long-password-1")
    event = Event.objects.create(organiser=organiser, name="paper", deadline=timezone.now() + timedelta(hours=1))
    scan = Scan.objects.create(user=organiser, purpose=Scan.Purpose.SHEET, status=Scan.Status.DONE, result={})
    sheet = PaperList.objects.create(event=event, scan=scan)
    barrier = threading.Barrier(4)
    outcomes: list[str] = []

    def confirm(n: int) -> None:
        barrier.wait()
        try:
            paper.confirm(event, sheet.pk, f"tab {n}", LEGAL_40)
            outcomes.append("added")
        except paper.PaperError as exc:
            outcomes.append(str(exc.status))
        finally:
            connections.close_all()

    threads = [threading.Thread(target=confirm, args=(n,)) for n in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert sorted(outcomes) == ["409", "409", "409", "added"]
    assert Submission.objects.filter(event=event).count() == 1
    assert PaperList.objects.get(pk=sheet.pk).submission == Submission.objects.get(event=event)
