from __future__ import annotations

from typing import Any

from django.http import HttpRequest
from django.utils.functional import lazy


def notifications(request: HttpRequest) -> dict[str, Any]:
    """The bell's unread count, read only if the page shows it (a logged-in reader's header)."""
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return {}
    from people.notices import unread

    return {"unread_notifications": lazy(lambda: unread(user), int)()}
