from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.urls import reverse

from catalog.models import Card
from decks.i18n import format_label
from rules_check import DEFAULT_FORMAT

# Counts are stored as the player gave them (illegal ones included); beyond this it is a typo.
MAX_ENTRY_COUNT = 999
# A description is a few paragraphs; bounded where it is stored (forms and the API say so too).
MAX_DESCRIPTION = 10_000
MAIN = "main"
REINFORCEMENTS = "reinforcements"
SECTIONS = [(MAIN, "main"), (REINFORCEMENTS, "reinforcements")]


class DeckQuerySet(models.QuerySet["Deck"]):
    def visible_to(self, user: Any) -> DeckQuerySet:
        """Public decks, and the user's own."""
        if user.is_authenticated:
            return self.filter(Q(public=True) | Q(owner=user))
        return self.filter(public=True)

    def owned_by(self, user: Any) -> DeckQuerySet:
        return self.filter(owner=user) if user.is_authenticated else self.none()

    def with_entries(self) -> DeckQuerySet:
        """A list of decks with their entries in one more query, whatever its length."""
        return self.select_related("owner").prefetch_related("entries")


class Deck(models.Model):
    owner = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="decks")
    name = models.CharField(max_length=100)
    # A name in rules_check/formats.json: formats are data, checked by forms and serializers, so
    # adding one needs no migration.
    format = models.CharField(max_length=20, default=DEFAULT_FORMAT)
    general = models.ForeignKey(Card, null=True, blank=True, on_delete=models.PROTECT, related_name="+")
    description = models.TextField(blank=True, max_length=MAX_DESCRIPTION)
    # The description rendered once, when it is saved: a view never runs the Markdown parser.
    description_html = models.TextField(blank=True, editable=False)
    public = models.BooleanField(default=False)
    created = models.DateTimeField(auto_now_add=True)
    updated = models.DateTimeField(auto_now=True)
    # The verdict at the last save, kept for the public list's "legal only" filter.
    is_legal = models.BooleanField(default=False)
    main_count = models.PositiveIntegerField(default=0)

    objects = DeckQuerySet.as_manager()

    class Meta:
        ordering = ["-updated"]
        # The public list sorts by update or by creation, the owner's by update: each an index
        # range scan, whatever the number of decks.
        indexes = [
            models.Index(fields=["public", "-updated", "-id"]),
            models.Index(fields=["public", "-created", "-id"]),
            models.Index(fields=["owner", "-updated"]),
        ]

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("decks:detail", args=[self.pk])

    @property
    def format_label(self) -> str:
        return format_label(self.format)


class DeckEntry(models.Model):
    deck = models.ForeignKey(Deck, on_delete=models.CASCADE, related_name="entries")
    card = models.ForeignKey(Card, on_delete=models.PROTECT, related_name="+")
    section = models.CharField(max_length=16, choices=SECTIONS, default=MAIN)
    count = models.PositiveIntegerField()

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["deck", "card", "section"], name="deck_entry_once"),
            models.CheckConstraint(condition=Q(count__gte=1, count__lte=MAX_ENTRY_COUNT), name="deck_entry_count"),
        ]

    def __str__(self) -> str:
        return f"{self.count} {self.card_id}"


class DeckVersion(models.Model):
    """A saved state of a deck: restorable, and compared with any other version."""

    deck = models.ForeignKey(Deck, on_delete=models.CASCADE, related_name="versions")
    number = models.PositiveIntegerField()
    created = models.DateTimeField(auto_now_add=True)
    snapshot = models.JSONField()
    note = models.CharField(max_length=40, blank=True)
    # Saved while the deck was public (or published later by its owner): only these are shown
    # to others, so making a deck public does not publish what it was while private.
    public = models.BooleanField(default=False)

    class Meta:
        ordering = ["-number"]
        constraints = [models.UniqueConstraint(fields=["deck", "number"], name="deck_version_number")]

    def __str__(self) -> str:
        return f"{self.deck_id} v{self.number}"


class VerdictState(models.Model):
    """One row: the catalogue version that every deck's stored verdict (is_legal, main_count)
    was last checked against. The catalogue does not reach into decks: when decks see a newer
    version, they check themselves again (decks.services.refresh_verdicts)."""

    id = models.PositiveSmallIntegerField(primary_key=True, default=1)
    catalog_version = models.CharField(max_length=32, blank=True)

    def __str__(self) -> str:
        return self.catalog_version
