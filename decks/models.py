from __future__ import annotations

import secrets
from typing import Any

from django.conf import settings
from django.core.validators import MaxLengthValidator
from django.db import models
from django.db.models import Case, Exists, F, FloatField, IntegerField, OuterRef, Q, Value, When
from django.db.models.functions import Cast, NullIf
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from catalog.models import Card
from collection.models import Allocation
from collection.queries import Availability, availability
from decks import needs
from decks.i18n import format_label
from decks.needs import MissingCopies, NeedsField
from groups.models import Membership
from rules_check import DEFAULT_FORMAT
from webutil import bounds
from webutil.urls import reverse_memo

# Counts are stored as the player gave them (illegal ones included); beyond this it is a typo.
MAX_ENTRY_COUNT = 999
# A description is a few paragraphs; bounded where it is stored (forms and the API say so too).
MAX_DESCRIPTION = 10_000
MAIN = "main"
REINFORCEMENTS = "reinforcements"
SECTIONS = [(MAIN, "main"), (REINFORCEMENTS, "reinforcements")]


class Visibility(models.TextChoices):
    """Who reads a deck: its owner (and the groups it is shared with), also whoever has its
    link (/d/<token>/: never listed nor searched), or everyone."""

    PRIVATE = "private", gettext_lazy("Private")
    UNLISTED = "unlisted", gettext_lazy("Unlisted: anyone with its link")
    PUBLIC = "public", gettext_lazy("Public")


PUBLIC = Q(visibility=Visibility.PUBLIC)


def new_link_token() -> str:
    """An unlisted deck's link: 128 random bits, not guessable as deck numbers are."""
    return secrets.token_urlsafe(16)


class DeckQuerySet(models.QuerySet["Deck"]):
    def visible_to(self, user: Any) -> DeckQuerySet:
        """Public decks, the user's own, and those shared with a group the user belongs to. An
        unlisted deck is read by its link alone (Deck.link_token), never by its number."""
        if user.is_authenticated:
            return self.filter(PUBLIC | Q(owner=user) | Q(Exists(self._shared_with_member(user))))
        return self.filter(PUBLIC)

    def listed(self) -> DeckQuerySet:
        """The public decks: the ones lists and searches show."""
        return self.filter(PUBLIC)

    @staticmethod
    def _shared_with_member(user: Any) -> models.QuerySet[Any]:
        memberships = Membership.objects.filter(user=user).values("group")
        return Deck.groups.through.objects.filter(deck=OuterRef("pk"), group__in=memberships)

    def shared_with(self, group: Any) -> DeckQuerySet:
        """The decks shared with `group` (each deck once, whoever reads them)."""
        return self.filter(Exists(Deck.groups.through.objects.filter(deck=OuterRef("pk"), group=group)))

    def with_reader_marks(self, user: Any) -> DeckQuerySet:
        """Each deck with whether the reader liked it and keeps it (`reader_liked`,
        `reader_bookmarked`): two subqueries in the same query, however many decks."""
        if not user.is_authenticated:
            return self
        return self.annotate(
            reader_liked=Exists(DeckLike.objects.filter(deck=OuterRef("pk"), user=user)),
            reader_bookmarked=Exists(DeckBookmark.objects.filter(deck=OuterRef("pk"), user=user)),
        )

    def saved_by(self, user: Any) -> DeckQuerySet:
        """The decks the user keeps for later and may still read (one kept deck made private
        by its owner drops out)."""
        return self.visible_to(user).filter(Exists(DeckBookmark.objects.filter(user=user, deck=OuterRef("pk"))))

    def owned_by(self, user: Any) -> DeckQuerySet:
        return self.filter(owner=user) if user.is_authenticated else self.none()

    def shared_in_groups_of(self, user: Any) -> models.QuerySet[Any]:
        """Rows (deck, group) of the decks others share with the user's groups, the group's name
        and the deck's owner loaded: one query, in the groups' order."""
        if not user.is_authenticated:
            return Deck.groups.through.objects.none()
        memberships = Membership.objects.filter(user=user).values("group")
        return (
            Deck.groups.through.objects.filter(group__in=memberships)
            .exclude(deck__owner=user)
            .select_related("group", "deck__owner")
            .order_by("group__name", "group_id", "deck__name", "deck_id")
        )

    def with_ownership(self, user: Any) -> DeckQuerySet:
        """Each deck with `missing` (copies the user lacks to build it) and `owned` (the copies it
        takes that the user has), counting available copies: owned, foils too, minus those in
        the user's other built decks. None for anonymous readers. Three queries (four when the
        reader has built decks), however many decks: the bits kept with each deck do the work in
        the database (decks.needs)."""
        if not user.is_authenticated:
            none = Value(None, IntegerField())
            return self.annotate(missing=none, owned=none, owned_share=Value(None, FloatField()))
        found = availability(user)
        available = {pk: item.available for pk, item in found.items()}
        missing: Any = MissingCopies(needs.lack_mask(available))
        own_built = Q(owner=user, allocation__isnull=False)
        # Decks needing more copies of a card than the bits say: the bits plus what their
        # `needs_more` adds, in the same pass.
        missing = missing + Case(
            When(needs_over=True, then=needs.BeyondBits(available)), default=Value(0), output_field=IntegerField()
        )
        if exact := _by_count(_exact_missing(self.filter(own_built), found)):
            missing = Case(*exact, default=missing, output_field=IntegerField())
        return self.annotate(missing=missing).annotate(
            owned=F("needs_total") - F("missing"),
            owned_share=Cast(F("needs_total") - F("missing"), FloatField()) / NullIf(F("needs_total"), 0),
        )


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
    visibility = models.CharField(max_length=10, choices=Visibility.choices, default=Visibility.PRIVATE)
    # The unlisted deck's link (/d/<token>/); its owner may replace it (decks.services.new_link).
    link_token = models.CharField(max_length=32, unique=True, null=True, blank=True, editable=False)
    # The card names its main deck plays, "|"-joined (the keys of its DeckName rows): on
    # PostgreSQL a GIN index on their array finds the decks that play several cards in one scan
    # (decks.search.plays).
    card_names = models.TextField(blank=True, default="", editable=False)
    # Its owner's followers were told when it first became public (decks.services.save_deck).
    announced = models.BooleanField(default=False, editable=False)
    created = models.DateTimeField(auto_now_add=True)
    updated = models.DateTimeField(auto_now=True)
    # The verdict at the last save, kept for the public list's "legal only" filter.
    is_legal = models.BooleanField(default=False)
    main_count = models.PositiveIntegerField(default=0)
    # Built (sleeved): its copies are set aside in the owner's collection, kept equal to the
    # deck's cards on every save. None when the deck is not built.
    allocation = models.OneToOneField(Allocation, null=True, blank=True, on_delete=models.SET_NULL, related_name="deck")
    archived = models.BooleanField(default=False)
    # Shared with these play groups: their members read it (and clone and compare it) without
    # its being public. Only groups the owner belongs to (decks.services.set_groups); leaving a
    # group takes the owner's decks out of it (decks.apps).
    groups = models.ManyToManyField("groups.Group", blank=True, related_name="decks")
    # What the deck needs, kept on save for "buildable from my collection" (decks.needs): one
    # bit per card and copy, so the filter is one pass over the public decks in the database.
    needs = NeedsField(default="", editable=False)
    needs_total = models.PositiveIntegerField(default=0)
    # Some card is needed more often than the bits record (an illegal deck): those cards and
    # their counts (card id as text → copies), added to what the bits say (decks.needs).
    needs_over = models.BooleanField(default=False)
    needs_more = models.JSONField(default=dict, blank=True, editable=False)
    # Its likes, kept with the deck (decks.likes) so that a list never counts rows per deck.
    like_count = models.PositiveIntegerField(default=0, editable=False)
    # This week's likes, each weighing 2^(-days/3) by its age (decks.likes.week_score), kept
    # here and recomputed hourly in the background: "most liked this week" is an index scan.
    likes_week = models.FloatField(default=0, editable=False)
    # Its comments that readers see, kept with the deck (decks.comments) like its likes.
    comment_count = models.PositiveIntegerField(default=0, editable=False)

    objects = DeckQuerySet.as_manager()

    class Meta:
        ordering = ["-updated"]
        # The public list sorts by update or by creation, the owner's by update: each an index
        # range scan, whatever the number of decks.
        indexes = [
            models.Index(fields=["visibility", "-updated", "-id"], name="deck_listed_updated"),
            models.Index(fields=["visibility", "-created", "-id"], name="deck_listed_created"),
            models.Index(fields=["owner", "-updated"]),
            # The few decks "buildable" checks exactly (decks.needs).
            models.Index(fields=["needs_over"], condition=Q(needs_over=True), name="deck_needs_over"),
            # The public list by most liked.
            models.Index(fields=["visibility", "-like_count", "-id"], name="deck_most_liked"),
            models.Index(fields=["visibility", "-likes_week", "-id"], name="deck_most_liked_week"),
            models.Index(fields=["visibility", "-comment_count", "-id"], name="deck_most_commented"),
        ]

    def __str__(self) -> str:
        return self.name

    def save(self, *args: Any, **kwargs: Any) -> None:
        # An unlisted deck always has its link, however it became unlisted (its settings, the
        # API, an archive brought back).
        if self.visibility == Visibility.UNLISTED and not self.link_token:
            self.link_token = new_link_token()
            if kwargs.get("update_fields") is not None:
                kwargs["update_fields"] = {*kwargs["update_fields"], "link_token"}
        super().save(*args, **kwargs)

    def get_absolute_url(self) -> str:
        return reverse_memo("decks:detail", self.pk)

    @property
    def link_url(self) -> str | None:
        """The address an unlisted deck is read at; None for any other deck."""
        if self.visibility != Visibility.UNLISTED or not self.link_token:
            return None
        return reverse_memo("decks:linked", self.link_token)

    @property
    def format_label(self) -> str:
        return format_label(self.format, getattr(self, "house_format_name", None))

    @property
    def built(self) -> bool:
        return self.allocation_id is not None

    @property
    def public(self) -> bool:
        """Listed and searched, read by everyone: derived from `visibility`, never stored."""
        return self.visibility == Visibility.PUBLIC

    @public.setter
    def public(self, value: bool) -> None:
        # Deck(public=True), as an archive or a test makes one: public, or else private.
        self.visibility = Visibility.PUBLIC if value else Visibility.PRIVATE


# A tag is a word or two the owner files decks under ("比賽", "testing").
MAX_TAG = 30
MAX_TAGS = 20


class DeckTag(models.Model):
    deck = models.ForeignKey(Deck, on_delete=models.CASCADE, related_name="tags")
    name = models.CharField(max_length=MAX_TAG)

    class Meta:
        ordering = ["name"]
        constraints = [models.UniqueConstraint(fields=["deck", "name"], name="deck_tag_once")]
        indexes = [models.Index(fields=["name"])]

    def __str__(self) -> str:
        return self.name


def _by_count(counts: dict[int, int]) -> list[When]:
    """`When(pk in […], then=n)` for each count n of `counts` (deck id → n)."""
    by_count: dict[int, list[int]] = {}
    for pk, n in counts.items():
        by_count.setdefault(n, []).append(pk)
    return [When(pk__in=pks, then=Value(n)) for n, pks in sorted(by_count.items())]


def _exact_missing(decks: DeckQuerySet, found: dict[int, Availability]) -> dict[int, int]:
    """Missing copies of a few decks, worked out entry by entry (two queries): the reader's own
    built decks, whose own copies they may use."""
    rows = list(decks.values_list("pk", "general_id", "allocation_id"))
    if not rows:
        return {}
    need: dict[int, dict[int, int]] = {pk: {} for pk, _g, _a in rows}
    for pk, general, _a in rows:
        if general is not None:
            need[pk][general] = 1
    for deck_id, card_id, count in DeckEntry.objects.filter(deck__in=need).values_list("deck", "card", "count"):
        need[deck_id][card_id] = need[deck_id].get(card_id, 0) + count
    out = {}
    for pk, _general, allocation in rows:
        missing = 0
        for card_id, n in need[pk].items():
            item = found.get(card_id, Availability())
            others = item.elsewhere - (item.by_allocation.get(allocation, 0) if allocation else 0)
            missing += max(0, n - max(0, item.owned - others))
        out[pk] = missing
    return out


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


class DeckName(models.Model):
    """A deck's stored card set: each card name its main deck plays (every printing of it
    counted together, as the copy limit counts them) and how many copies. Written with the
    deck's entries (decks.services.save_deck) and read by the deck search by cards
    (decks.search): `has:新兵:2` is one lookup on (name, copies) a card, never a sum over
    every deck's entries."""

    deck = models.ForeignKey(Deck, on_delete=models.CASCADE, related_name="names")
    name_key = models.CharField(max_length=40)
    copies = models.PositiveIntegerField()

    class Meta:
        constraints = [models.UniqueConstraint(fields=["deck", "name_key"], name="deck_name_once")]
        indexes = [models.Index(fields=["name_key", "copies", "deck"], name="deck_name_search")]

    def __str__(self) -> str:
        return f"{self.copies} {self.name_key}"


class DeckLike(models.Model):
    """A reader's like of another's public deck: one each (decks.likes)."""

    deck = models.ForeignKey(Deck, on_delete=models.CASCADE, related_name="likes")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    at = models.DateTimeField(default=timezone.now)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["deck", "user"], name="deck_like_once")]
        indexes = [
            models.Index(fields=["user", "deck"], name="deck_like_by_user"),
            models.Index(fields=["at"], name="deck_like_at"),  # the week's likes, for its score
        ]

    def __str__(self) -> str:
        return f"{self.user_id} likes {self.deck_id}"


class DeckBookmark(models.Model):
    """A deck kept "for later" by a reader: private to them, listed at /decks/saved/."""

    deck = models.ForeignKey(Deck, on_delete=models.CASCADE, related_name="bookmarks")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    at = models.DateTimeField(default=timezone.now)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["user", "deck"], name="deck_bookmark_once")]
        indexes = [models.Index(fields=["user", "-at"], name="deck_bookmark_newest")]

    def __str__(self) -> str:
        return f"{self.user_id} keeps {self.deck_id}"


# A comment is a few paragraphs, as a description is.
MAX_COMMENT = 5_000


class DeckComment(models.Model):
    """A reader's comment on a public deck, or a reply to one (one level: a reply's parent is a
    comment, never a reply). Written, changed and hidden only through decks.comments."""

    class State(models.TextChoices):
        SHOWN = "shown"
        PENDING = "pending"  # waiting for staff: a new account's writing with many links
        HIDDEN = "hidden"  # hidden by staff (moderation)
        DELETED = "deleted"  # by its author, or with their account: its replies stay readable

    deck = models.ForeignKey(Deck, on_delete=models.CASCADE, related_name="comments")
    author = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")
    parent = models.ForeignKey("self", null=True, blank=True, on_delete=models.CASCADE, related_name="replies")
    body = models.TextField(max_length=MAX_COMMENT, validators=[MaxLengthValidator(MAX_COMMENT)])
    # Rendered once, when written (webutil.markup, with card links): a view never parses Markdown.
    body_html = models.TextField(editable=False)
    state = models.CharField(max_length=10, choices=State.choices, default=State.SHOWN)
    # The deck's owner hid it from their deck's readers (staff still see it in reports).
    hidden_by_owner = models.BooleanField(default=False)
    created = models.DateTimeField(default=timezone.now)
    edited = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["created", "id"]
        indexes = [
            models.Index(fields=["deck", "created", "id"], name="deck_comment_order"),
            models.Index(fields=["author", "created"], name="deck_comment_by_author"),
            models.Index(fields=["state"], condition=Q(state="pending"), name="deck_comment_pending"),
        ]

    def __str__(self) -> str:
        return f"comment {self.pk} on {self.deck_id}"

    @property
    def shown(self) -> bool:
        """Whether a reader of the deck sees its text."""
        return self.state == self.State.SHOWN and not self.hidden_by_owner


class FeaturedDeck(models.Model):
    """A public deck staff picked as a deck of the week (`week`: its Monday); the home page
    shows this week's (decks.featured)."""

    deck = models.ForeignKey(Deck, on_delete=models.CASCADE, related_name="+")
    week = models.DateField()
    picked_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")
    at = models.DateTimeField(default=timezone.now)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["deck", "week"], name="featured_once_a_week")]
        indexes = [models.Index(fields=["week", "-at"], name="featured_of_the_week")]

    def __str__(self) -> str:
        return f"{self.deck_id} featured in the week of {self.week}"


# What made a version, stored as a code and shown in the reader's language (a note stored as
# words would show in the language of whoever saved it).
VERSION_NOTES: dict[str, Any] = {
    "created": gettext_lazy("created"),
    "settings": gettext_lazy("settings"),
    "imported": gettext_lazy("imported"),
    "cloned": gettext_lazy("cloned"),
    "pasted": gettext_lazy("list pasted"),
    "builder": gettext_lazy("builder"),
    "api": gettext_lazy("API"),
}
RESTORED = "restored:"


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

    @property
    def note_display(self) -> str:
        if self.note in VERSION_NOTES:
            return str(VERSION_NOTES[self.note])
        if self.note.startswith(RESTORED) and self.note[len(RESTORED) :].isdigit():
            return str(_("restored v%(n)d") % {"n": int(self.note[len(RESTORED) :])})
        return self.note


class VerdictState(models.Model):
    """One row: the catalogue version that every deck's stored verdict (is_legal, main_count)
    was last checked against. The catalogue does not reach into decks: when decks see a newer
    version, they check themselves again (decks.services.refresh_verdicts)."""

    id = models.PositiveSmallIntegerField(primary_key=True, default=1)
    catalog_version = models.CharField(max_length=32, blank=True)

    def __str__(self) -> str:
        return self.catalog_version


# How long the lists of a card's figures are (declared here, with the rows that keep them, so
# that they are known at start-up: the README's table of bounds lists them).
PLAYED_WITH = bounds.declare("cards played with", 10, "cards", "the cards a card page lists as most often beside it")
GENERALS_LISTED = bounds.declare("generals by synergy", 10, "generals", "the generals a card page lists by synergy")
TOP_CARDS = bounds.declare("a general's top cards", 40, "cards", "the most played cards a general's page lists")


class CardStats(models.Model):
    """What the community plays with a card, from the public decks of the standard format:
    computed for every card at once by a background task (decks.card_stats) and stored, so that
    a card page reads one row and never aggregates decks."""

    card = models.OneToOneField(Card, primary_key=True, on_delete=models.CASCADE, related_name="+")
    deck_count = models.PositiveIntegerField(default=0)  # public decks of the format that play it
    decks_total = models.PositiveIntegerField(default=0)  # public decks of the format, all told
    share = models.FloatField(default=0)  # of all public decks of the format
    average_copies = models.FloatField(null=True)  # in the decks that play it
    # [{"month": "2026-11", "deck_count": n, "share": x}], oldest first (the decks made that month)
    by_month = models.JSONField(default=list)
    # [{"card": code, "deck_count": n, "share": x}]: the cards most often in the same decks, `share`
    # of the decks that play this one
    played_with = models.JSONField(default=list)
    # [{"general": code, "share": x, "synergy": y}]: its share of that general's decks, and that
    # minus its share of all decks of the format, highest synergy first
    synergy = models.JSONField(default=list)
    # A general's only: [{"card": code, "share": x, "synergy": y}], its decks' most played cards;
    # and its "average deck", [{"card": code, "count": n}]: the most played cards at their most
    # common counts, 40 or more cards, legal.
    top_cards = models.JSONField(default=list)
    average_deck = models.JSONField(default=list)
    computed = models.DateTimeField()
    # From the public events (events.card_wins, a layer above, writes these two): the Swiss
    # matches played by lists that play the card, and how many of them those lists won.
    matches = models.PositiveIntegerField(default=0)
    match_wins = models.PositiveIntegerField(default=0)
    # The event decks (lists made public at finished events) that play its name, and how many of
    # them placed in a top 8.
    event_decks = models.PositiveIntegerField(default=0)
    event_top8 = models.PositiveIntegerField(default=0)

    FROM_EVENTS = ("matches", "match_wins", "event_decks", "event_top8")
    # Under this many matches, a card's win rate is noise: not shown.
    MIN_MATCHES = 20

    def __str__(self) -> str:
        return f"stats of {self.card_id}"

    @property
    def win_rate(self) -> float | None:
        """The match-win rate of the lists that play it, or None under MIN_MATCHES."""
        return self.match_wins / self.matches if self.matches >= self.MIN_MATCHES else None

    @property
    def win_percent(self) -> int | None:
        rate = self.win_rate
        return None if rate is None else round(100 * rate)
