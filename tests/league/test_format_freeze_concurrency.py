"""The owner changing a house format's rules while the organiser locks an event that plays it:
either the change comes first (and the lists are locked under the new rules) or it is refused;
never a locked event whose rules changed after its lock. Real threads and transactions (SQLite
here, PostgreSQL in CI)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from events import services as event_services
from events.models import Event
from groups import services
from groups.models import HouseFormat
from tests.support.concurrency import at_once
from tests.support.group_helpers import make_group

RULES = {"name": "週五賽制", "min_cards": 40, "max_cards": 60, "copy_limit": 3}
TRIALS = 6


def _edit(pk: int, owner) -> str:
    try:
        services.update_format(HouseFormat.objects.get(pk=pk), owner, {"copy_limit": 2})
    except services.FormatInUse:
        return "refused"
    return "changed"


def _lock(pk: int) -> bool:
    return event_services.lock(Event.objects.get(pk=pk))  # its own transaction, as the pages call it


@pytest.mark.django_db(transaction=True)
def test_a_format_change_and_its_events_lock_at_once_never_change_a_locked_events_rules(alice, bob) -> None:
    group = make_group(alice, bob)
    outcomes = set()
    for trial in range(TRIALS):
        house = services.create_format(group, alice, RULES | {"name": f"賽制{trial}"})
        event = Event.objects.create(
            organiser=bob, name=f"賽{trial}", format=house.key, group=group, deadline=timezone.now() + timedelta(days=1)
        )
        edited, locked = at_once(lambda: _edit(house.pk, alice), lambda: _lock(event.pk))
        house.refresh_from_db()
        event.refresh_from_db()
        assert locked is True
        assert event.locked_at is not None
        if edited == "changed":
            assert house.copy_limit == 2
            assert house.updated <= event.locked_at  # the lock waited for the change
        else:
            assert house.copy_limit == 3
        outcomes.add(edited)
    assert outcomes <= {"changed", "refused"}
