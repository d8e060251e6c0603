"""Every change to a group and its members: the rules (who may do what, the bounds) and the
locks, in one place for the pages and the API."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.dispatch import Signal
from django.utils.translation import gettext as _
from pypinyin import lazy_pinyin

from catalog.lookup import catalog_index
from catalog.models import CardSet
from groups.models import (
    MAX_FORMATS,
    MAX_KEY,
    MAX_MEMBERS,
    MAX_OWNED,
    Group,
    HouseFormat,
    Membership,
    Role,
    new_invite,
)
from rules_check import normalize_code

# Sent after a house format's rules changed (key=…): decks.apps checks its decks again.
format_changed = Signal()
# Sent before a house format's rules change or it is deleted (key=…), in the transaction that
# holds its row lock: a receiver refuses by raising FormatInUse (events.apps: an event whose
# lists are closed was judged by these rules, and its results stand on them).
format_changing = Signal()
# The fields that decide a verdict: a new name alone changes none.
RULES = ("min_cards", "max_cards", "copy_limit", "copy_limits", "banned", "sets")


class GroupError(ValueError):
    """A change the rules refuse, with the sentence that says why."""


class NotAllowed(GroupError):
    """The caller is a member, but this is the owner's to do (a 403 in the API)."""


class FormatInUse(GroupError):
    """The format's rules judged lists that are closed now: they stay as they are (a 409)."""


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


def _checked_name(group: Group, name: str) -> None:
    """The group named `name` (its spaces tidied), within the field's bounds; else GroupError."""
    group.name = " ".join(str(name).split())
    try:
        group.full_clean(exclude=["owner", "invite"])
    except ValidationError as exc:
        raise GroupError(" ".join(exc.messages)) from None


def _name_free(group: Group) -> None:
    """Called under the owner's row lock: no other group of the owner has this name (in either
    case). The database's constraint holds it too; this says so in words."""
    taken = Group.objects.filter(owner_id=group.owner_id, name__iexact=group.name).exclude(pk=group.pk)
    if taken.exists():
        raise GroupError(
            _("You already have a group named “%(name)s”: give this one another name.") % {"name": group.name}
        )


def _lock_owner(owner_id: int) -> None:
    # The owner's row orders two changes to their groups at once: the bound on how many, and
    # the name checked free is the name written.
    get_user_model().objects.select_for_update().filter(pk=owner_id).first()


def create_group(owner: Any, name: str) -> Group:
    group = Group(owner=owner)
    _checked_name(group, name)
    with transaction.atomic():
        _lock_owner(owner.pk)
        if Group.objects.filter(owner=owner).count() >= MAX_OWNED:
            raise GroupError(_("You own %(n)d groups already, the most one player may.") % {"n": MAX_OWNED})
        _name_free(group)
        group.save()
        Membership.objects.create(group=group, user=owner, role=Role.OWNER)
    return group


def rename(group: Group, actor: Any, name: str) -> Group:
    _owner_only(group, actor)
    _checked_name(group, name)
    with transaction.atomic():
        _lock_owner(group.owner_id)
        _name_free(group)
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


def remove_member(group: Group, actor: Any, username: str, *, replace_invite: bool = False) -> None:
    """A member leaves (`username` is their own), or the owner removes one. The owner cannot
    leave a group they own: they delete it. The member's decks stop being shared with it
    (decks.apps); the games they played and that were confirmed stay in the league, those not
    yet confirmed are void (league.apps). `replace_invite`: the owner also replaces the invite
    link, so that the removed member cannot join again with the one they had."""
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
        locked = _locked(group)
        membership.delete()
        if replace_invite and not leaving:
            locked.invite = new_invite()
            locked.save(update_fields=["invite"])


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


# --- house formats -----------------------------------------------------------------------------


def _slug_for(group: Group, name: str, taken: set[str]) -> str:
    """A short ASCII slug from the name's pinyin (`家庭賽` → `jiatingsai`), fitting the key's 20
    characters, made unique in the group with a number."""
    room = MAX_KEY - len(f"g{group.pk}-")
    base = "".join(ch for ch in "".join(lazy_pinyin(name)).lower() if ch.isascii() and ch.isalnum())[:room] or "f"
    slug, n = base, 1
    while slug in taken:
        n += 1
        slug = f"{base[: room - len(str(n))]}{n}"
    return slug


def _card_refs(refs: list[Any], field: str) -> list[str]:
    """Cards as typed (code, name in either script, pinyin) as rules_check reads them: a code stays a
    code (one printing), a name becomes the card's same-name key (every printing of that name)."""
    index = catalog_index()
    out: list[str] = []
    for ref in refs:
        text = str(ref)
        card = index.lookup(text)
        if card is None:
            raise ValidationError({field: [_("No card “%(name)s”.") % {"name": text[:40]}]})
        out.append(card.code if normalize_code(text) else card.same_name_key)
    return list(dict.fromkeys(out))


def _rules(data: dict[str, Any], current: HouseFormat) -> None:
    """What `data` names of the format's rules, written on `current`, checked."""
    for key in ("name", "min_cards", "max_cards", "copy_limit"):
        if key in data:
            setattr(current, key, " ".join(str(data[key]).split()) if key == "name" else data[key])
    if "copy_limits" in data:
        limits = data["copy_limits"]
        if not isinstance(limits, dict):
            raise ValidationError({"copy_limits": [_("Cards with their limits.")]})
        refs = _card_refs(list(limits), "copy_limits")
        current.copy_limits = dict(zip(refs, limits.values(), strict=False))
    if "banned" in data:
        current.banned = _card_refs(list(data["banned"]), "banned")
    if "sets" in data:
        known = set(CardSet.objects.values_list("code", flat=True))
        wanted = list(dict.fromkeys(str(code).upper() for code in data["sets"]))
        unknown = [code for code in wanted if code not in known]
        if unknown:
            raise ValidationError({"sets": [_("No set “%(code)s”.") % {"code": unknown[0][:10]}]})
        current.sets = wanted
    current.full_clean(exclude=["group", "slug"])


def _format_changed(key: str) -> None:
    """Tell the layers above once the change is committed: decks of the format are checked again."""
    transaction.on_commit(lambda: format_changed.send(HouseFormat, key=key))


def create_format(group: Group, actor: Any, data: dict[str, Any]) -> HouseFormat:
    """The owner adds a house format. Raises NotAllowed for a member, ValidationError (by field)
    for rules the model refuses, GroupError past MAX_FORMATS."""
    _owner_only(group, actor)
    house = HouseFormat(group=group, min_cards=0, max_cards=1, copy_limit=0)
    missing = [key for key in ("name", "min_cards", "max_cards", "copy_limit") if key not in data]
    if missing:
        raise ValidationError({key: [_("This field is required.")] for key in missing})
    _rules(data, house)
    with transaction.atomic():
        group = _locked(group)
        taken = set(HouseFormat.objects.filter(group=group).values_list("slug", flat=True))
        if len(taken) >= MAX_FORMATS:
            raise GroupError(_("The group has %(n)d formats, the most a group may have.") % {"n": MAX_FORMATS})
        house.slug = _slug_for(group, house.name, taken)
        house.save()
    return house


def update_format(house: HouseFormat, actor: Any, data: dict[str, Any]) -> HouseFormat:
    """The owner changes a house format's rules (its key stays): every deck and event of it is
    checked again after the commit."""
    _owner_only(house.group, actor)
    with transaction.atomic():
        current = HouseFormat.objects.select_for_update().get(pk=house.pk)
        before = [getattr(current, field) for field in RULES]
        _rules(data, current)
        if [getattr(current, field) for field in RULES] != before:
            format_changing.send(HouseFormat, key=current.key)
        current.save()
        _format_changed(current.key)
    return current


def delete_format(house: HouseFormat, actor: Any) -> None:
    """The owner deletes a house format: its decks and events move to the default format (a
    post_delete receiver in decks.apps and events.apps, which also sees a group deleted with its
    owner's account). Refused (FormatInUse) while an event whose lists are closed plays it."""
    _owner_only(house.group, actor)
    with transaction.atomic():
        current = HouseFormat.objects.select_for_update().get(pk=house.pk)
        format_changing.send(HouseFormat, key=current.key)
        current.delete()
