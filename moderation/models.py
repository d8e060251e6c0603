"""What staff keep on people's writing for others: reports, and bans."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone

# A reporter says why in a line; the queue shows it beside the writing.
MAX_REASON = 200


class Ban(models.Model):
    """A user who may no longer write for others (comments, reviews) nor like: their writing is
    hidden when the ban is given (moderation.rules.ban)."""

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="ban")
    by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")
    reason = models.CharField(max_length=MAX_REASON, blank=True)
    at = models.DateTimeField(default=timezone.now)

    def __str__(self) -> str:
        return f"ban of {self.user_id}"


class Report(models.Model):
    """One reader's report of one piece of writing: `kind` names its sort in the registry
    (moderation.registry), `item` its id there. One report per reader and item."""

    class Outcome(models.TextChoices):
        OPEN = "open"
        HIDDEN = "hidden"
        KEPT = "kept"  # staff looked and left it shown (or restored it)
        BANNED = "banned"  # its author was banned

    kind = models.CharField(max_length=30)
    item = models.PositiveBigIntegerField()
    reporter = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    reason = models.CharField(max_length=MAX_REASON, blank=True)
    at = models.DateTimeField(default=timezone.now)
    outcome = models.CharField(max_length=10, choices=Outcome.choices, default=Outcome.OPEN)
    decided_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")
    decided_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["kind", "item", "reporter"], name="report_once")]
        indexes = [models.Index(fields=["outcome", "at"], name="report_queue")]

    def __str__(self) -> str:
        return f"report of {self.kind} {self.item}"
