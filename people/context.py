from __future__ import annotations

from functools import cache
from typing import Any

from django.http import HttpRequest
from django.utils.functional import lazy


def notifications(request: HttpRequest) -> dict[str, Any]:
    """The bell's unread count, read only if the page shows it (a logged-in reader's header)."""
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return {}
    from people.notices import unread

    # Read once a page: the header's links are drawn twice (the wide nav and the phone's menu),
    # and a lazy value is computed again at each use.
    counted = cache(lambda: unread(user))
    return {"unread_notifications": lazy(counted, int)()}
