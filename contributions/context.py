"""The header's count of a contributor's proposals reviewed since they last looked."""

from __future__ import annotations

from functools import cached_property
from typing import Any

from django.http import HttpRequest

from contributions.models import Proposal

# Set in the session when someone proposes or logs in with proposals: only contributors' pages
# count their reviewed proposals.
CONTRIBUTOR = "contributor"


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


def contributions(request: HttpRequest) -> dict[str, Any]:
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated or not request.session.get(CONTRIBUTOR):
        return {}
    return {"contributor": True, "contributions_unseen": _Unseen(user)}
