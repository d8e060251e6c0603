"""Two tabs adding a house format of the same name at once: both are kept, each with its own key,
and the group's bound holds (the group's row lock orders them). Real threads and transactions
(SQLite here, PostgreSQL in CI)."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

from groups import services
from groups.models import MAX_FORMATS, Group, HouseFormat
from tests.support.concurrency import at_once
from tests.support.group_helpers import make_group

RULES = {"name": "週五賽制", "min_cards": 40, "max_cards": 60, "copy_limit": 3}


def _add(group_id: int, owner) -> str:
    try:
        return services.create_format(Group.objects.get(pk=group_id), owner, RULES).key
    except services.GroupError:
        return "refused"


@pytest.mark.django_db(transaction=True)
def test_formats_added_at_once_get_their_own_keys_within_the_bound() -> None:
    alice = get_user_model().objects.create_user("alice", password="x-very-long-password-1")
    group = make_group(alice)
    for _ in range(MAX_FORMATS - 2):
        services.create_format(group, alice, RULES)
    keys = at_once(*[lambda: _add(group.pk, alice) for _ in range(4)])
    assert keys.count("refused") == 2
    stored = list(HouseFormat.objects.filter(group=group).values_list("slug", flat=True))
    assert len(stored) == len(set(stored)) == MAX_FORMATS
