from __future__ import annotations

import secrets
from typing import Any

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy

from catalog.models import Card

# What one row may hold: a count beyond this is a typo, not a collection.
MAX_COPIES = 9_999


class EntryQuerySet(models.QuerySet["CollectionEntry"]):
    def owned_by(self, user: Any) -> EntryQuerySet:
        return self.filter(user=user).filter(Q(quantity__gt=0) | Q(foil_quantity__gt=0))


class CollectionEntry(models.Model):
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="collection")
    card = models.ForeignKey(Card, on_delete=models.CASCADE, related_name="+")
    quantity = models.PositiveIntegerField(default=0)
    foil_quantity = models.PositiveIntegerField(default=0)

    objects = EntryQuerySet.as_manager()

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["user", "card"], name="collection_one_row_per_card"),
            models.CheckConstraint(
                condition=Q(quantity__gte=0, quantity__lte=MAX_COPIES), name="collection_quantity_range"
            ),
            models.CheckConstraint(
                condition=Q(foil_quantity__gte=0, foil_quantity__lte=MAX_COPIES), name="collection_foil_range"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.user} {self.card.code}: {self.quantity} + {self.foil_quantity} foil"

    @property
    def total(self) -> int:
        return self.quantity + self.foil_quantity


class CollectionChange(models.Model):
    """One change of a count: who, when, which card, before and after. Undo applies the reverse.
    The changes made in one step (the cards of a photo, an imported file, their undo) share a
    `batch`: one history entry, undone together."""

    class Source(models.TextChoices):
        WEB = "web", gettext_lazy("this site")
        API = "api", gettext_lazy("API")
        IMPORT = "import", gettext_lazy("CSV import")
        SCAN = "scan", gettext_lazy("photo")
        UNDO = "undo", gettext_lazy("undo")

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="collection_changes")
    card = models.ForeignKey(Card, on_delete=models.CASCADE, related_name="+")
    at = models.DateTimeField(auto_now_add=True, db_index=True)
    quantity_before = models.PositiveIntegerField()
    quantity_after = models.PositiveIntegerField()
    foil_before = models.PositiveIntegerField()
    foil_after = models.PositiveIntegerField()
    source = models.CharField(max_length=12, choices=Source.choices, default=Source.WEB)
    undone = models.BooleanField(default=False)
    batch = models.UUIDField(null=True, blank=True, editable=False, db_index=True)

    class Meta:
        ordering = ["-at", "-id"]
        indexes = [models.Index(fields=["user", "-at"])]

    def __str__(self) -> str:
        return f"{self.card.code} {self.quantity_before}→{self.quantity_after}"


class WishlistEntry(models.Model):
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="wishlist")
    card = models.ForeignKey(Card, on_delete=models.CASCADE, related_name="+")
    wanted = models.PositiveIntegerField(default=1)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["user", "card"], name="wishlist_one_row_per_card"),
            models.CheckConstraint(condition=Q(wanted__gte=1, wanted__lte=MAX_COPIES), name="wishlist_wanted_range"),
        ]

    def __str__(self) -> str:
        return f"{self.user} wants {self.wanted} {self.card_id}"


def new_share_token() -> str:
    return secrets.token_urlsafe(16)


class ShareLink(models.Model):
    """The owner's public, read-only link to their trade list and wishlist; off until turned on."""

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="share_link")
    token = models.CharField(max_length=32, unique=True, default=new_share_token)
    enabled = models.BooleanField(default=False)

    def __str__(self) -> str:
        return f"{self.user} sharing {'on' if self.enabled else 'off'}"


class Allocation(models.Model):
    """Copies of the owner's cards set aside in one place: a built (sleeved) deck. The collection
    counts them against what is owned; the layer above (decks) creates and fills them, so this
    app knows them only by name."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="allocations")
    name = models.CharField(max_length=100)

    def __str__(self) -> str:
        return f"{self.user}: {self.name}"


class AllocatedCard(models.Model):
    allocation = models.ForeignKey(Allocation, on_delete=models.CASCADE, related_name="cards")
    card = models.ForeignKey(Card, on_delete=models.CASCADE, related_name="+")
    copies = models.PositiveIntegerField()

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["allocation", "card"], name="allocated_card_once"),
            models.CheckConstraint(condition=Q(copies__gte=1), name="allocated_copies_positive"),
        ]

    def __str__(self) -> str:
        return f"{self.copies} {self.card_id} in {self.allocation_id}"
