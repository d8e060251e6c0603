"""What the accounts app keeps beside Django's users: the answers to writes sent with an
Idempotency-Key, so that a retried write is answered again instead of done again."""

from __future__ import annotations

from django.conf import settings
from django.db import models


class IdempotentAnswer(models.Model):
    """A write a user sent with a key, and the answer it got (accounts.idempotency): kept a day."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    key = models.CharField(max_length=64)
    # The request it answered (method, path, body or fields): the same key with another request
    # is refused, never answered with this.
    fingerprint = models.CharField(max_length=64)
    status = models.PositiveSmallIntegerField(default=0)  # 0: the write is still being done
    content_type = models.CharField(max_length=100, blank=True)
    location = models.CharField(max_length=2000, blank=True)
    body = models.BinaryField(blank=True, default=b"")
    created = models.DateTimeField(auto_now_add=True, db_index=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["user", "key"], name="idempotency_key_once_per_user")]

    def __str__(self) -> str:
        return f"{self.user_id}:{self.key} → {self.status}"
