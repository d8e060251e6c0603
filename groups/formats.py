"""What a format key means and who may choose it: the official formats (rules_check/formats.json)
and the house formats of play groups (HouseFormat), both rules_check Formats checked by the one
checker.

A house format's key is `g<group id>-<slug>`. Any member of its group may choose it for a deck,
a check or an event; once chosen, the deck keeps it even if its owner leaves the group (its
rules are still read from the group). A house format that no longer exists (its group deleted)
reads as the default format, and decks and events that had it are moved to the default (decks.apps,
events.apps).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

from groups.models import HOUSE_KEY, MAX_KEY, HouseFormat, Membership
from rules_check import DEFAULT_FORMAT, FORMATS, Format, FormatError

# Every format key, as the API's schema describes it: an official format or a house format's.
# (JSON Schema's regular expressions have no Python-named groups: plain groups instead.)
KEY_PATTERN = f"^({'|'.join(FORMATS)}|{re.sub(r'[(][?]P<[a-z]+>', '(', HOUSE_KEY.pattern).strip('^$')})$"


def _house_match(key: object) -> re.Match[str] | None:
    """The parts of a house format's key (g<group id>-<slug>, at most MAX_KEY characters)."""
    if not isinstance(key, str) or len(key) > MAX_KEY:
        return None
    return HOUSE_KEY.match(key)


def is_house_key(key: str) -> bool:
    return _house_match(key) is not None


def house_format(key: str) -> HouseFormat | None:
    """The house format a key names, or None (one indexed query, none for an official key)."""
    match = _house_match(key)
    if match is None:
        return None
    return HouseFormat.objects.filter(group_id=int(match["group"]), slug=match["slug"]).first()


def resolve(key: str) -> Format:
    """The Format of a key; FormatError when it names none."""
    if key in FORMATS:
        return FORMATS[key]
    found = house_format(key)
    if found is None:
        raise FormatError(f"unknown format {str(key)[:40]!r}")
    return found.as_format()


def stored(key: str) -> Format:
    """The Format a stored deck or event is checked in: a house format that is gone reads as the
    default, so that no page fails on it before the deck is moved."""
    try:
        return resolve(key)
    except FormatError:
        return FORMATS[DEFAULT_FORMAT]


def may_use(user: Any, key: str) -> bool:
    """An official format, or a house format of a group the user belongs to."""
    if key in FORMATS:
        return True
    match = _house_match(key)
    if match is None or not getattr(user, "is_authenticated", False):
        return False
    return HouseFormat.objects.filter(
        group_id=int(match["group"]),
        slug=match["slug"],
        group__memberships__user=user,
    ).exists()


def for_user(user: Any, key: str) -> Format:
    """The Format a user asks for; FormatError when it is unknown or not theirs to choose."""
    if not may_use(user, key):
        raise FormatError(f"unknown format {str(key)[:40]!r}")
    return resolve(key)


def house_formats_of(user: Any) -> list[HouseFormat]:
    """The house formats of every group the user belongs to, by group then name (one query)."""
    if not getattr(user, "is_authenticated", False):
        return []
    groups = Membership.objects.filter(user=user).values("group")
    return list(HouseFormat.objects.filter(group__in=groups).select_related("group").order_by("group__name", "name"))


def available(user: Any) -> dict[str, Format]:
    """Every format the user may choose: the official ones first, then their groups' own."""
    return dict(FORMATS) | {house.key: house.as_format() for house in house_formats_of(user)}


def names_of(keys: Iterable[str]) -> dict[str, str]:
    """The names of the house formats among `keys`, in one query (for a list of decks or events)."""
    wanted: dict[tuple[int, str], str] = {}
    for key in set(keys):
        match = _house_match(key)
        if match is not None:
            wanted[(int(match["group"]), match["slug"])] = key
    if not wanted:
        return {}
    rows = HouseFormat.objects.filter(group_id__in={g for g, _ in wanted}).values_list("group_id", "slug", "name")
    return {wanted[(g, s)]: name for g, s, name in rows if (g, s) in wanted}
