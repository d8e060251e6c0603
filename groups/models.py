"""Play groups: the people who play together, and who may read the decks shared with them.

A group has one owner (who invites, removes and deletes) and members, who join by the group's
invite link or are added by the owner by username. Decks are shared with a group from the deck
(decks.Deck.groups); the league's games live above, in the league app.
"""

from __future__ import annotations

import re
import secrets
from typing import Any

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.validators import MaxLengthValidator, MaxValueValidator, MinLengthValidator, MinValueValidator
from django.db import models
from django.db.models import Count, Exists, F, OuterRef, Q
from django.db.models.functions import Lower
from django.utils.deconstruct import deconstructible
from django.utils.translation import gettext_lazy as _

from rules_check import Format
from rules_check.formats import build_format

# A name is what the group calls itself on every page: a line, not a paragraph.
MAX_NAME = 60
# A play group is a club, not a city: beyond this, an invite link passed around too widely.
MAX_MEMBERS = 500
# Groups one user owns: enough for every club and league of one organiser.
MAX_OWNED = 50


def new_invite() -> str:
    return secrets.token_urlsafe(18)


class GroupQuerySet(models.QuerySet["Group"]):
    def of(self, user: Any) -> GroupQuerySet:
        """The groups the user belongs to (as owner or member)."""
        if not user.is_authenticated:
            return self.none()
        return self.filter(Exists(Membership.objects.filter(group=OuterRef("pk"), user=user)))

    def with_member_count(self) -> GroupQuerySet:
        return self.annotate(member_count=Count("memberships", distinct=True))


class Group(models.Model):
    name = models.CharField(max_length=MAX_NAME, validators=[MinLengthValidator(1), MaxLengthValidator(MAX_NAME)])
    owner = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="owned_groups")
    # Whoever holds the link may join (after logging in): it is the invitation. The owner can
    # replace it, and the old link stops working at once.
    invite = models.CharField(max_length=32, unique=True, default=new_invite)
    created = models.DateTimeField(auto_now_add=True)

    objects = GroupQuerySet.as_manager()

    class Meta:
        ordering = ["name", "pk"]
        constraints = [
            # Two groups of one owner with the same name cannot be told apart in a menu: the name
            # is unique per owner, letters in either case counting as one.
            models.UniqueConstraint(Lower("name"), "owner", name="group_name_once_per_owner"),
        ]

    def __str__(self) -> str:
        return self.name


class Role(models.TextChoices):
    OWNER = "owner", _("owner")
    MEMBER = "member", _("member")


class Membership(models.Model):
    group = models.ForeignKey(Group, on_delete=models.CASCADE, related_name="memberships")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="memberships")
    role = models.CharField(max_length=8, choices=Role.choices, default=Role.MEMBER)
    joined = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["joined", "pk"]
        constraints = [models.UniqueConstraint(fields=["group", "user"], name="membership_once")]
        indexes = [models.Index(fields=["user", "group"])]

    def __str__(self) -> str:
        return f"{self.user_id} in {self.group_id}"


# A house format's bounds. A deck of more than 200 cards is no deck anyone shuffles; a copy limit
# past rules_check's largest count means no limit at all.
MAX_DECK_SIZE = 200
MAX_COPY_LIMIT = 99
# The catalogue has about 215 cards: a list of exceptions longer than this is not a format.
MAX_EXCEPTIONS = 300
MAX_SETS = 10
# House formats one group keeps: a few variants per season, not a history.
MAX_FORMATS = 20
MAX_FORMAT_NAME = 40
# A format's key is what decks and events store in their `format` (20 characters):
# g<group id>-<slug>.
MAX_KEY = 20
HOUSE_KEY = re.compile(r"^g(?P<group>[1-9][0-9]{0,9})-(?P<slug>[a-z0-9]{1,18})$")


@deconstructible
class JsonNames:
    """A JSON list of at most `limit` strings."""

    def __init__(self, limit: int) -> None:
        self.limit = limit

    def __call__(self, value: Any) -> None:
        if not isinstance(value, list) or len(value) > self.limit or not all(isinstance(v, str) for v in value):
            raise ValidationError(_("A list of at most %(n)d names.") % {"n": self.limit})

    def __eq__(self, other: object) -> bool:
        return isinstance(other, JsonNames) and other.limit == self.limit

    def __hash__(self) -> int:
        return hash(self.limit)


def json_limits(value: Any) -> None:
    if not isinstance(value, dict) or len(value) > MAX_EXCEPTIONS:
        raise ValidationError(_("At most %(n)d cards with a limit of their own.") % {"n": MAX_EXCEPTIONS})
    if not all(type(n) is int and 0 <= n <= MAX_COPY_LIMIT for n in value.values()):
        raise ValidationError(_("A card's limit is a whole number from 0 to %(n)d.") % {"n": MAX_COPY_LIMIT})


class HouseFormat(models.Model):
    """A play group's own format: the fields of rules_check/formats.json, kept as data and checked
    by rules_check like the official formats (as_format). Card references are kept as
    rules_check reads them: a code (`YXJQ-003`) or a same-name key."""

    group = models.ForeignKey(Group, on_delete=models.CASCADE, related_name="formats")
    slug = models.CharField(max_length=18)
    name = models.CharField(
        max_length=MAX_FORMAT_NAME, validators=[MinLengthValidator(1), MaxLengthValidator(MAX_FORMAT_NAME)]
    )
    min_cards = models.PositiveSmallIntegerField(validators=[MaxValueValidator(MAX_DECK_SIZE)])
    max_cards = models.PositiveSmallIntegerField(validators=[MinValueValidator(1), MaxValueValidator(MAX_DECK_SIZE)])
    copy_limit = models.PositiveSmallIntegerField(validators=[MaxValueValidator(MAX_COPY_LIMIT)])
    copy_limits = models.JSONField(default=dict, blank=True, validators=[json_limits])
    banned = models.JSONField(default=list, blank=True, validators=[JsonNames(MAX_EXCEPTIONS)])
    sets = models.JSONField(default=list, blank=True, validators=[JsonNames(MAX_SETS)])
    updated = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["name", "pk"]
        constraints = [
            models.UniqueConstraint(fields=["group", "slug"], name="house_format_slug_once"),
            models.CheckConstraint(condition=Q(min_cards__lte=F("max_cards")), name="house_format_sizes"),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def key(self) -> str:
        return f"g{self.group_id}-{self.slug}"

    def clean(self) -> None:
        if self.min_cards is not None and self.max_cards is not None and self.min_cards > self.max_cards:
            raise ValidationError({"min_cards": _("The smallest deck is larger than the largest.")})

    def as_format(self) -> Format:
        """The rules_check Format of these rules: the one checker reads it like formats.json."""
        return build_format(
            self.key,
            {
                "label": self.name,
                "label_en": self.name,
                "min_cards": self.min_cards,
                "max_cards": self.max_cards,
                "copy_limit": self.copy_limit,
                "copy_limits": self.copy_limits,
                "banned": self.banned,
                "sets": self.sets,
            },
        )
