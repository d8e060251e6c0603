"""The header's counts: a contributor's proposals reviewed since they last looked, and for a
curator the proposals waiting in the review queue."""

from __future__ import annotations

from functools import cached_property
from typing import Any

from django.http import HttpRequest

from contributions.models import Proposal

# Set in the session when someone proposes or logs in with proposals: only contributors' pages
# count their reviewed proposals.
CONTRIBUTOR = "contributor"
# Set in the session at log-in for a member of the curators' group (staff are curators without
# it): their header links to the review queue (a curator named while logged in sees it at the
# next log-in; the queue itself checks the group on every request).
CURATOR = "curator"


class _Unseen:
    """Counted only if the page shows it (one query, for contributors only)."""

    def __init__(self, user: Any) -> None:
        self.user = user

    @cached_property
    def count(self) -> int:
        return Proposal.objects.of(self.user).filter(seen=False).count()

    def __bool__(self) -> bool:
        return self.count > 0

    def __str__(self) -> str:
        return str(self.count)


class _Waiting:
    """Open proposals by others, for a curator's header (one query, only if the page shows it)."""

    def __init__(self, user: Any) -> None:
        self.user = user

    @cached_property
    def count(self) -> int:
        return Proposal.objects.open().exclude(author=self.user).count()

    def __bool__(self) -> bool:
        return self.count > 0

    def __str__(self) -> str:
        return str(self.count)


def contributions(request: HttpRequest) -> dict[str, Any]:
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return {}
    found: dict[str, Any] = {}
    if request.session.get(CONTRIBUTOR):
        found |= {"contributor": True, "contributions_unseen": _Unseen(user)}
    if user.is_staff or request.session.get(CURATOR):
        found |= {"curator": True, "review_waiting": _Waiting(user)}
    return found
