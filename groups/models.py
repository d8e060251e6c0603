"""Play groups: the people who play together, and who may read the decks shared with them.

A group has one owner (who invites, removes and deletes) and members, who join by the group's
invite link or are added by the owner by username. Decks are shared with a group from the deck
(decks.Deck.groups); the league's games live above, in the league app.
"""

from __future__ import annotations

import secrets
from typing import Any

from django.conf import settings
from django.core.validators import MaxLengthValidator, MinLengthValidator
from django.db import models
from django.db.models import Count, Exists, OuterRef
from django.utils.translation import gettext_lazy as _

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
