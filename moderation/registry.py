"""The kinds of writing people do for others (comments on decks today, reviews and rulings
later), each registered once by the app that keeps it. Moderation reads and acts on them only
through these functions: it stands below those apps and never imports them."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.utils.functional import Promise


@dataclass(frozen=True)
class Item:
    """One piece of writing as the queue shows it."""

    id: int
    author_id: int | None
    author: str  # the username, or "" when the account is gone
    html: str  # sanitised when it was written
    link: str  # where it is read
    hidden: bool  # hidden by staff
    pending: bool  # waiting for approval


@dataclass(frozen=True)
class Kind:
    slug: str  # stable: reports and URLs name it
    label: str | Promise
    items: Callable[[Iterable[int]], dict[int, Item]]  # the given ids that exist, in one query
    pending: Callable[[], list[int]]  # ids waiting for approval, oldest first
    set_hidden: Callable[[int, bool], None]  # staff hide (True) or restore/approve (False)
    written_since: Callable[[int, datetime], int]  # how many a user wrote since then
    hide_all_of: Callable[[int], list[int]]  # a ban: every piece by the user hidden; their ids


_KINDS: dict[str, Kind] = {}


def register(kind: Kind) -> None:
    if kind.slug in _KINDS and _KINDS[kind.slug] != kind:
        raise ValueError(f"the kind of writing {kind.slug!r} is registered twice")
    _KINDS[kind.slug] = kind


def kind(slug: str) -> Kind | None:
    return _KINDS.get(slug)


def kinds() -> list[Kind]:
    return list(_KINDS.values())


def any_item(slug: str, item: int) -> Any:
    """The item of that kind and id, or None."""
    found = _KINDS.get(slug)
    return found.items([item]).get(item) if found else None
