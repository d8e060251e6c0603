"""Small helpers for the contribution tests and the page harnesses."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import Group

from catalog import facts
from catalog.models import Card
from contributions import services
from contributions.models import Proposal

# A 五道 card whose cost, text and rarity the printed tables leave unknown.
WD_CARD = "五道·001"


def make_curator(user: Any) -> Any:
    group, _ = Group.objects.get_or_create(name=facts.CURATORS)
    user.groups.add(group)
    user.__dict__.pop("_is_curator", None)  # facts.is_curator keeps its answer on the object
    return user


def propose(user: Any, code: str = WD_CARD, note: str = "my copy, 2nd printing", **values: Any) -> Proposal:
    card = Card.objects.get(code=code)
    return services.propose(user, card, values or {"cost": 3}, note)
