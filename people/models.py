"""People on the site: their profiles, whom they follow, and what the site tells them."""

from __future__ import annotations

from django.conf import settings
from django.core.validators import MaxLengthValidator
from django.db import models
from django.utils import timezone

from people import regions

MAX_DISPLAY_NAME = 40
MAX_BIO = 500


class Profile(models.Model):
    """What a user shows others at /u/<username>/ (made on first edit; none: the defaults)."""

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="profile")
    display_name = models.CharField(max_length=MAX_DISPLAY_NAME, blank=True)
    bio = models.TextField(blank=True, max_length=MAX_BIO, validators=[MaxLengthValidator(MAX_BIO)])
    # The user hid their profile: others get a 404, as for a user who does not exist.
    hidden = models.BooleanField(default=False)
    show_events = models.BooleanField(default=True)
    # Where the user plays (people.regions): the events directory's "near me", the regional
    # leaderboards. Blank: not said.
    region = models.CharField(max_length=regions.SLUG_LENGTH, choices=regions.choices, blank=True)
    # Listed on the public leaderboard (/ratings/): a player may leave it and keep their rating.
    on_leaderboard = models.BooleanField(default=True)
    # Staff hid what the user wrote here (moderation): name and bio are not shown.
    hidden_by_staff = models.BooleanField(default=False)
    # When the name or bio last changed: counted among what the user wrote this hour.
    written = models.DateTimeField(null=True, blank=True)
    # Kinds of notification (people.notices.KINDS) the user turned off, and those also e-mailed.
    muted = models.JSONField(default=list, blank=True)
    emailed = models.JSONField(default=list, blank=True)

    def __str__(self) -> str:
        return f"profile of {self.user_id}"


class Follow(models.Model):
    follower = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    followed = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    at = models.DateTimeField(default=timezone.now)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["follower", "followed"], name="follow_once"),
            models.CheckConstraint(condition=~models.Q(follower=models.F("followed")), name="follow_not_self"),
        ]
        indexes = [models.Index(fields=["followed", "follower"], name="follow_followers")]

    def __str__(self) -> str:
        return f"{self.follower_id} follows {self.followed_id}"


class Notification(models.Model):
    """Something the site tells a user, in the bell. Likes of one deck gather in one unread
    notification ("新兵流 got 5 likes"): `count` grows, `updated` moves."""

    recipient = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="notifications")
    kind = models.CharField(max_length=20)
    actor = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")
    subject = models.CharField(max_length=100)  # the deck's name
    url = models.CharField(max_length=200)
    count = models.PositiveIntegerField(default=1)
    read = models.BooleanField(default=False)
    created = models.DateTimeField(default=timezone.now)
    updated = models.DateTimeField(default=timezone.now)

    class Meta:
        indexes = [
            models.Index(fields=["recipient", "-updated"], name="notification_newest"),
            models.Index(fields=["recipient", "read"], name="notification_unread"),
        ]

    def __str__(self) -> str:
        return f"{self.kind} for {self.recipient_id}"
