"""Every change to a group and its members: the rules (who may do what, the bounds) and the
locks, in one place for the pages and the API."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from groups.models import MAX_MEMBERS, MAX_OWNED, Group, Membership, Role, new_invite


class GroupError(ValueError):
    """A change the rules refuse, with the sentence that says why."""


class NotAllowed(GroupError):
    """The caller is a member, but this is the owner's to do (a 403 in the API)."""


class NotFound(LookupError):
    """No such group, member or user for this caller: as a 404, never telling which."""


def _locked(group: Group) -> Group:
    # The group's row lock orders joins, removals and the invite's replacement: the member
    # count checked is the count written.
    return Group.objects.select_for_update().get(pk=group.pk)


def role_of(group: Group, user: Any) -> str | None:
    if not user.is_authenticated:
        return None
    return Membership.objects.filter(group=group, user=user).values_list("role", flat=True).first()


def create_group(owner: Any, name: str) -> Group:
    name = " ".join(str(name).split())
    group = Group(owner=owner, name=name)
    try:
        group.full_clean(exclude=["owner", "invite"])
    except ValidationError as exc:
        raise GroupError(" ".join(exc.messages)) from None
    with transaction.atomic():
        # The owner's row orders two groups made at once, so the bound holds.
        get_user_model().objects.select_for_update().filter(pk=owner.pk).first()
        if Group.objects.filter(owner=owner).count() >= MAX_OWNED:
            raise GroupError(_("You own %(n)d groups already, the most one player may.") % {"n": MAX_OWNED})
        group.save()
        Membership.objects.create(group=group, user=owner, role=Role.OWNER)
    return group


def rename(group: Group, actor: Any, name: str) -> Group:
    _owner_only(group, actor)
    group.name = " ".join(str(name).split())
    try:
        group.full_clean(exclude=["owner", "invite"])
    except ValidationError as exc:
        raise GroupError(" ".join(exc.messages)) from None
    group.save(update_fields=["name"])
    return group


def _owner_only(group: Group, actor: Any) -> None:
    if group.owner_id != actor.pk:
        raise NotAllowed(_("Only the group's owner may do this."))


def _add(group: Group, user: Any) -> bool:
    """Add `user` under the group's lock; False when they were a member already."""
    with transaction.atomic():
        group = _locked(group)
        if Membership.objects.filter(group=group, user=user).exists():
            return False
        if Membership.objects.filter(group=group).count() >= MAX_MEMBERS:
            raise GroupError(_("The group has %(n)d members, the most a group may have.") % {"n": MAX_MEMBERS})
        try:
            with transaction.atomic():
                Membership.objects.create(group=group, user=user, role=Role.MEMBER)
        except IntegrityError:
            return False
    return True


def join(user: Any, invite: str) -> tuple[Group, bool]:
    """Join by invite link: (the group, whether the user is new to it). An unknown or replaced
    link is NotFound; joining twice changes nothing."""
    group = Group.objects.filter(invite=str(invite)[:32]).first() if invite else None
    if group is None:
        raise NotFound(
            _("This invite link is not valid: it may have been replaced. Ask the group's owner for the new one.")
        )
    return group, _add(group, user)


def add_member(group: Group, actor: Any, username: str) -> Any:
    """The owner adds a player by username."""
    _owner_only(group, actor)
    user = get_user_model().objects.filter(username=str(username)[:150]).first()
    if user is None or not user.is_active:
        raise GroupError(_("No player “%(name)s”.") % {"name": str(username)[:40]})
    if not _add(group, user):
        raise GroupError(_("%(name)s is a member already.") % {"name": user.username})
    return user


def remove_member(group: Group, actor: Any, username: str) -> None:
    """A member leaves (`username` is their own), or the owner removes one. The owner cannot
    leave a group they own: they delete it. The member's decks stop being shared with it
    (decks.apps); the games they played stay in the league."""
    membership = (
        Membership.objects.filter(group=group, user__username=str(username)[:150]).select_related("user").first()
    )
    if membership is None:
        raise NotFound(_("No such member."))
    leaving = membership.user_id == actor.pk
    if not leaving:
        _owner_only(group, actor)
    if membership.role == Role.OWNER:
        raise GroupError(_("The owner cannot leave the group; delete it instead."))
    with transaction.atomic():
        _locked(group)
        membership.delete()


def delete_group(group: Group, actor: Any) -> None:
    _owner_only(group, actor)
    group.delete()


def replace_invite(group: Group, actor: Any) -> Group:
    _owner_only(group, actor)
    with transaction.atomic():
        group = _locked(group)
        group.invite = new_invite()
        group.save(update_fields=["invite"])
    return group
