"""Profiles and follows: what a user shows others, and whom they follow. A profile's name and
bio are writing for others: escaped where shown, counted in the hourly limit, reportable and
hideable by staff (moderation), like comments."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime
from typing import Any

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from moderation import registry, rules
from people import regions
from people.models import MAX_BIO, MAX_DISPLAY_NAME, Follow, Profile
from people.notices import KINDS
from webutil.urls import reverse_memo

KIND = "profile"


class ProfileError(rules.Refused):
    """A profile change or follow the rules refuse; `status` is the HTTP answer."""


def profile_of(user: Any) -> Profile:
    """The user's profile, or the defaults (unsaved) if they never changed it."""
    return Profile.objects.filter(user=user).first() or Profile(user=user)


def _text(value: Any, most: int, what: str) -> str:
    if not isinstance(value, str):
        raise ProfileError(_("%(what)s is text.") % {"what": what})
    cleaned = str(value).replace("\x00", "").strip()
    if len(cleaned) > most:
        raise ProfileError(_("%(what)s has at most %(n)d characters.") % {"what": what, "n": most})
    return cleaned


def update(user: Any, given: dict[str, Any]) -> Profile:
    """The user's profile as `given` names it (what it leaves out stays)."""
    profile = profile_of(user)
    name = _text(given.get("display_name", profile.display_name), MAX_DISPLAY_NAME, _("A display name"))
    bio = _text(given.get("bio", profile.bio), MAX_BIO, _("A bio"))
    wrote = (name, bio) != (profile.display_name, profile.bio)
    if wrote:
        try:
            rules.check_may_write(user)
        except rules.Refused as exc:
            raise ProfileError(str(exc), exc.status) from None
    for flag in ("hidden", "show_events", "on_leaderboard"):
        if flag in given:
            if type(given[flag]) is not bool:
                raise ProfileError(_("%(what)s is true or false.") % {"what": flag})
            setattr(profile, flag, given[flag])
    if "region" in given:
        if given["region"] != "" and given["region"] not in regions.regions():
            raise ProfileError(_("Choose a region from the list."))
        profile.region = given["region"]
    for field in ("muted", "emailed"):
        if field in given:
            kinds = given[field]
            if not isinstance(kinds, list) or any(k not in KINDS for k in kinds):
                raise ProfileError(_("Choose among: %(kinds)s.") % {"kinds": ", ".join(KINDS)})
            setattr(profile, field, sorted(set(kinds)))
    profile.display_name, profile.bio = name, bio
    if wrote:
        profile.written = timezone.now()
    profile.save()
    return profile


def shown(profile: Profile) -> tuple[str, str]:
    """The name and bio others see: none when staff hid them."""
    if profile.hidden_by_staff:
        return "", ""
    return profile.display_name, profile.bio


# Follows.


def follow(follower: Any, followed: Any) -> bool:
    if follower.pk == followed.pk:
        raise ProfileError(_("You cannot follow yourself."))
    try:
        with transaction.atomic():
            Follow.objects.get_or_create(follower=follower, followed=followed)
    except IntegrityError:  # two taps at once: the other made it
        pass
    return True


def unfollow(follower: Any, followed: Any) -> bool:
    Follow.objects.filter(follower=follower, followed=followed).delete()
    return False


def follows(follower: Any, followed: Any) -> bool:
    return bool(follower.is_authenticated and Follow.objects.filter(follower=follower, followed=followed).exists())


def followers_of(user_id: int) -> list[int]:
    return list(Follow.objects.filter(followed_id=user_id).values_list("follower_id", flat=True))


# Moderation: a profile's name and bio are one kind of writing for others.


def _items(ids: Iterable[int]) -> dict[int, registry.Item]:
    from django.utils.html import escape, linebreaks

    found = Profile.objects.filter(pk__in=list(ids)).select_related("user")
    return {
        p.pk: registry.Item(
            id=p.pk,
            author_id=p.user_id,
            author=p.user.username,
            html=f"<p><strong>{escape(p.display_name)}</strong></p>{linebreaks(escape(p.bio))}",
            link=reverse_memo("profile", p.user.username),
            hidden=p.hidden_by_staff,
            pending=False,
        )
        for p in found
    }


def _set_hidden(item: int, hidden: bool) -> None:
    Profile.objects.filter(pk=item).update(hidden_by_staff=hidden)


def _written_since(user_id: int, since: datetime) -> int:
    return Profile.objects.filter(user_id=user_id, written__gte=since).count()


def _hide_all_of(user_id: int) -> list[int]:
    ids = list(Profile.objects.filter(user_id=user_id).values_list("pk", flat=True))
    Profile.objects.filter(pk__in=ids).update(hidden_by_staff=True)
    return ids


def report(profile_owner: Any, reporter: Any, reason: str = "") -> None:
    profile = Profile.objects.filter(user=profile_owner).first()
    if profile is None or not (profile.display_name or profile.bio):
        raise ProfileError(_("There is nothing to report here."), 404)
    rules.report(KIND, profile.pk, reporter, reason)


registry.register(
    registry.Kind(
        slug=KIND,
        label=gettext_lazy("profile"),
        items=_items,
        pending=list,
        set_hidden=_set_hidden,
        written_since=_written_since,
        hide_all_of=_hide_all_of,
    )
)
