"""Proposed changes of card facts (修訂提案), with photos, waiting for a curator's review; and
players' reviews of cards, with the readers who found them helpful."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.validators import MaxLengthValidator
from django.db import models
from django.urls import reverse
from django.utils import timezone

from catalog.images import refusal
from catalog.models import Card, CardChange
from scanning.pictures import PictureError
from webutil.leases import Leased, States
from webutil.storage import private_storage

# At most this many open proposals per person: a queue curators can get through.
MAX_OPEN = 20
MAX_NOTE = 500


class ProposalQuerySet(models.QuerySet["Proposal"]):
    def open(self) -> ProposalQuerySet:
        return self.filter(status=Proposal.Status.OPEN)

    def of(self, user: Any) -> ProposalQuerySet:
        return self.filter(author=user)

    def for_lists(self) -> ProposalQuerySet:
        return self.select_related("card", "author", "reviewer").prefetch_related("photos").order_by("-created_at")

    def visible_to(self, user: Any, curator: bool) -> ProposalQuerySet:
        """A proposal is its author's and the curators' business only."""
        return self if curator else self.filter(author=user)


class Proposal(models.Model):
    """A proposed change of a card's facts (with photos), or a proposed ruling on it."""

    class Kind(models.TextChoices):
        FACTS = "facts", "facts"
        RULING = "ruling", "ruling"

    class Status(models.TextChoices):
        OPEN = "open", "open"
        APPROVED = "approved", "approved"
        REJECTED = "rejected", "rejected"
        WITHDRAWN = "withdrawn", "withdrawn"

    card = models.ForeignKey(Card, on_delete=models.CASCADE, related_name="proposals")
    author = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="proposals")
    # The proposed facts ({"cost": 3, "text": "…"}) and the card's values for them when proposed,
    # so that a reviewer sees what changed since.
    kind = models.CharField(max_length=6, choices=Kind.choices, default=Kind.FACTS)
    facts = models.JSONField(default=dict)
    base = models.JSONField(default=dict)
    # A proposed ruling as catalog.rulings.check returns it (question, answer, source, date,
    # cards, the ruling it replaces); empty for facts.
    ruling = models.JSONField(default=dict, blank=True)
    note = models.CharField(max_length=MAX_NOTE)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.OPEN)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)
    reviewer = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    reviewed_at = models.DateTimeField(null=True, blank=True)
    reason = models.CharField(max_length=MAX_NOTE, blank=True)
    change = models.ForeignKey(CardChange, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    # False from the review until the author has seen it (the header counts these).
    seen = models.BooleanField(default=True)

    objects = ProposalQuerySet.as_manager()

    class Meta:
        indexes = [
            models.Index(fields=["author", "status"]),
            models.Index(fields=["status", "created_at"]),
            models.Index(fields=["author", "seen"]),
        ]

    def __str__(self) -> str:
        return f"#{self.pk} {self.card_id} {self.status}"

    def get_absolute_url(self) -> str:
        return reverse("contributions:detail", args=[self.pk])

    @property
    def photo_sides(self) -> list[str]:
        """The sides with a photo (read from the prefetched photos of a list)."""
        return [photo.side for photo in self.photos.all()]

    @property
    def is_ruling(self) -> bool:
        return self.kind == self.Kind.RULING

    @property
    def ruling_or_none(self) -> dict[str, Any] | None:
        return self.ruling if self.is_ruling else None

    @property
    def is_open(self) -> bool:
        return self.status == self.Status.OPEN

    def rows(self) -> list[tuple[str, Any, Any, Any]]:
        """Each proposed fact: (name, when proposed, now, proposed)."""
        return [(name, self.base.get(name), getattr(self.card, name), value) for name, value in self.facts.items()]

    @property
    def is_stale(self) -> bool:
        return any(then != now for _name, then, now, _value in self.rows())


class ProposalPhoto(Leased):
    """A photo of the proposed card's front or back. The request keeps the file as it was sent
    (`source`) and the worker decodes it into the clean picture (`image`), under a lease
    (contributions.tasks.prepare_photo); until then the photo is waiting."""

    class Side(models.TextChoices):
        FRONT = "front", "front"
        BACK = "back", "back"

    class Status(models.TextChoices):
        QUEUED = "queued", "queued"
        RUNNING = "running", "running"
        READY = "ready", "ready"
        FAILED = "failed", "failed"

    STATES = States("status", Status.QUEUED, Status.RUNNING, Status.FAILED)

    proposal = models.ForeignKey(Proposal, on_delete=models.CASCADE, related_name="photos")
    side = models.CharField(max_length=5, choices=Side.choices)
    image = models.FileField(storage=private_storage, max_length=200, editable=False)
    source = models.FileField(storage=private_storage, max_length=200, blank=True, editable=False)
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.READY)
    # Why it could not be decoded: a code of scanning.pictures (catalog.images.refusal words it).
    error = models.CharField(max_length=40, blank=True)
    width = models.PositiveIntegerField(default=0)
    height = models.PositiveIntegerField(default=0)
    digest = models.CharField(max_length=16, default="")

    class Meta:
        ordering = ["proposal", "side"]
        constraints = [models.UniqueConstraint(fields=["proposal", "side"], name="one_photo_per_proposal_side")]

    @property
    def ready(self) -> bool:
        return self.status == self.Status.READY and bool(self.image.name)

    @property
    def waiting(self) -> bool:
        return self.status in (self.Status.QUEUED, self.Status.RUNNING)

    def refusal(self) -> str:
        return refusal(PictureError(self.error or "corrupt"))

    def __str__(self) -> str:
        return f"{self.proposal_id} {self.side}"

    def get_absolute_url(self) -> str:
        return reverse("contributions:photo", args=[self.proposal_id, self.side])


# A review is a few paragraphs, as a comment is.
MAX_REVIEW = 5_000


class ReviewQuerySet(models.QuerySet["Review"]):
    def shown(self) -> ReviewQuerySet:
        return self.filter(state=Review.State.SHOWN)

    def for_card_page(self, card: Card, reader: Any) -> ReviewQuerySet:
        """The card's reviews a reader sees, the most helpful first: those shown, and the reader's
        own while it waits for staff; each with whether the reader found it helpful."""
        seen = models.Q(state=Review.State.SHOWN)
        if getattr(reader, "is_authenticated", False):
            seen |= models.Q(state=Review.State.PENDING, author=reader)
            helped = Helpful.objects.filter(review=models.OuterRef("pk"), user=reader)
            marked = self.annotate(reader_helped=models.Exists(helped))
        else:
            marked = self.annotate(reader_helped=models.Value(False))
        found = marked.filter(seen, card=card).select_related("author", "card")
        return found.order_by("-helpful_count", "-created", "-id")


class Review(models.Model):
    """A player's review of a card: one per card and author, Markdown with card links. Written,
    changed and hidden only through contributions.reviews; its author's account takes it away."""

    class State(models.TextChoices):
        SHOWN = "shown"
        PENDING = "pending"  # waiting for staff: a new account's writing with many links
        HIDDEN = "hidden"  # hidden by staff (moderation)

    card = models.ForeignKey(Card, on_delete=models.CASCADE, related_name="+")
    author = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    body = models.TextField(max_length=MAX_REVIEW, validators=[MaxLengthValidator(MAX_REVIEW)])
    # Rendered once, when written (webutil.markup, with card links): a page never parses Markdown.
    body_html = models.TextField(editable=False)
    state = models.CharField(max_length=10, choices=State.choices, default=State.SHOWN)
    # How many readers found it helpful, kept with it under its row lock: the card page sorts by it.
    helpful_count = models.PositiveIntegerField(default=0)
    created = models.DateTimeField(default=timezone.now)
    edited = models.DateTimeField(null=True, blank=True)

    objects = ReviewQuerySet.as_manager()

    class Meta:
        constraints = [models.UniqueConstraint(fields=["card", "author"], name="one_review_a_card")]
        indexes = [
            models.Index(fields=["card", "-helpful_count", "-created"], name="review_most_helpful"),
            models.Index(fields=["author", "created"], name="review_by_author"),
            models.Index(fields=["state"], condition=models.Q(state="pending"), name="review_pending"),
        ]

    def __str__(self) -> str:
        return f"review {self.pk} of {self.card_id}"


class Helpful(models.Model):
    """A reader found a review helpful (once: pressed again, nothing changes)."""

    review = models.ForeignKey(Review, on_delete=models.CASCADE, related_name="+")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    at = models.DateTimeField(default=timezone.now)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["review", "user"], name="helpful_once")]

    def __str__(self) -> str:
        return f"{self.user_id} found {self.review_id} helpful"
