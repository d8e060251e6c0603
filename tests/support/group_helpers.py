"""Play groups for tests in one line."""

from __future__ import annotations

from typing import Any

from groups import services
from groups.models import Group


def make_group(owner: Any, *members: Any, name: str = "週五牌局") -> Group:
    """A group of `owner`, with `members` joined by its invite link."""
    group = services.create_group(owner, name)
    for member in members:
        services.join(member, group.invite)
    return group
