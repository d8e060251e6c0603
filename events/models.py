"""Tournament events: an organiser collects the players' deck lists before a deadline.

A submission keeps the list as text, as it stood when it was sent: a saved deck that is edited
afterwards does not change what was registered. Verdicts are worked out when shown (the rules
module is fast and pure), so they always follow the event's format.
"""

from __future__ import annotations

import secrets
from datetime import datetime
from typing import Any

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.urls import reverse
from django.utils import timezone

from decks.i18n import format_label
from rules_check import DEFAULT_FORMAT


def new_token() -> str:
    return secrets.token_urlsafe(18)


class EventQuerySet(models.QuerySet["Event"]):
    def organised_by(self, user: Any) -> EventQuerySet:
        """An organiser's own events: the only ones they can see or change."""
        return self.filter(organiser=user) if user.is_authenticated else self.none()

    def with_counts(self) -> EventQuerySet:
        return self.annotate(submission_count=models.Count("submissions"))


class Event(models.Model):
    organiser = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="organised_events")
    name = models.CharField(max_length=100)
    format = models.CharField(max_length=20, default=DEFAULT_FORMAT)  # a name in formats.json
    deadline = models.DateTimeField(help_text="Lists are taken until this moment.")
    starts_on = models.DateField(null=True, blank=True)
    # Whoever holds the link can submit (after logging in): it is the invitation. A new token
    # shuts out an old link that went too far.
    token = models.CharField(max_length=32, unique=True, default=new_token)
    locked_at = models.DateTimeField(null=True, blank=True)
    created = models.DateTimeField(auto_now_add=True)

    objects = EventQuerySet.as_manager()

    class Meta:
        ordering = ["-deadline", "-pk"]

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("events:detail", args=[self.pk])

    @property
    def format_label(self) -> str:
        return format_label(self.format)

    def get_submit_url(self) -> str:
        return reverse("events:submit", args=[self.token])

    @property
    def locked(self) -> bool:
        return self.locked_at is not None

    def open_at(self, now: datetime | None = None) -> bool:
        return not self.locked and (now or timezone.now()) < self.deadline


class SubmissionQuerySet(models.QuerySet["Submission"]):
    def for_table(self) -> SubmissionQuerySet:
        return self.select_related("player", "deck").order_by("player_name", "pk")


class Submission(models.Model):
    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="submissions")
    # None for lists the organiser brought in from files (the batch check), not sent by a user.
    player = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="event_submissions"
    )
    player_name = models.CharField(max_length=100)
    text = models.TextField(help_text="The deck list as submitted")
    deck = models.ForeignKey(
        "decks.Deck",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        help_text="The saved deck it was taken from, if any",
    )
    file_name = models.CharField(max_length=200, blank=True)
    submitted_at = models.DateTimeField(default=timezone.now)

    objects = SubmissionQuerySet.as_manager()

    class Meta:
        ordering = ["player_name", "pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["event", "player"], condition=Q(player__isnull=False), name="one_submission_per_player"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.player_name} @ {self.event}"
