from __future__ import annotations

import builtins

from django.conf import settings
from django.core.validators import MaxLengthValidator
from django.db import models
from django.db.models import Q
from django.urls import reverse
from django.utils.translation import gettext, gettext_lazy

from catalog.facts import FACTS
from catalog.vocab import TIER_RANK, Tier
from rules_check.codes import normalize_code
from rules_check.model import (
    AWAKENED_GENERAL,
    CHOOSABLE_GENERAL_KINDS,
    DECK_KINDS,
    GENERAL_KINDS,
    REINFORCEMENT,
    TACTIC,
    TROOP,
    UNIT_KINDS,
)
from webutil import bounds
from webutil.leases import Leased, States
from webutil.storage import private_storage
from webutil.urls import reverse_memo


class CardSet(models.Model):
    code = models.CharField(max_length=8, unique=True)
    name = models.CharField(max_length=40)
    order = models.PositiveSmallIntegerField(default=0)
    description = models.CharField(max_length=200, blank=True)

    class Meta:
        ordering = ["order"]

    def __str__(self) -> str:
        return f"{self.name} ({self.code})"

    def get_absolute_url(self) -> str:
        return reverse_memo("catalog:set-detail", self.code)


class CardQuerySet(models.QuerySet["Card"]):
    def by_code(self, text: str) -> Card | None:
        """The card with this code or alias (`WD-001`, `yxjq3`), or None."""
        code = normalize_code(text)
        if code is None:
            return None
        return self.select_related("set").filter(code=code).first()

    def generals_for_choice(self) -> CardQuerySet:
        """What a deck's general may be: generals and awakened generals."""
        return self.filter(kind__in=CHOOSABLE_GENERAL_KINDS).order_by("position")

    def with_set(self) -> CardQuerySet:
        return self.select_related("set")

    def same_name_as(self, card: Card) -> CardQuerySet:
        return self.filter(name_key=card.name_key).exclude(pk=card.pk)

    def related_to(self, card: Card) -> CardQuerySet:
        """Cards that share the troop class or the affiliation (for "see also" links)."""
        cond = Q()
        if card.troop_class:
            cond |= Q(troop_class=card.troop_class, kind=card.kind)
        if card.affiliation:
            cond |= Q(affiliation=card.affiliation)
        if not cond:
            return self.none()
        return self.filter(cond).exclude(pk=card.pk)


class Card(models.Model):
    code = models.CharField(max_length=16, unique=True, help_text="As printed: YXJQ-003, 五道·001")
    # The facts' columns come from their registry (catalog.facts): type, choices and bounds.
    name = FACTS["name"].model_field(help_text="As printed, in Traditional Chinese")
    set = models.ForeignKey(CardSet, null=True, blank=True, on_delete=models.PROTECT, related_name="cards")
    kind = FACTS["kind"].model_field()
    cost = FACTS["cost"].model_field()
    cost_text = models.CharField(max_length=8, null=True, blank=True, help_text="A printed non-number cost, e.g. X")
    power = FACTS["power"].model_field()
    health = FACTS["health"].model_field()
    life = FACTS["life"].model_field()
    troop_class = FACTS["troop_class"].model_field()
    affiliation = FACTS["affiliation"].model_field()
    faction = FACTS["faction"].model_field()
    speed = FACTS["speed"].model_field()
    element = FACTS["element"].model_field()
    tier = FACTS["tier"].model_field()
    stars = FACTS["stars"].model_field()
    text = FACTS["text"].model_field()
    awakening = FACTS["awakening"].model_field()
    random_insert = models.BooleanField(default=False)
    # Where each fact came from when not from the printed tables: {"cost": {"change": 12, "note":
    # "my copy"}}; a fact absent here is as printed. Names the card had before (lists saved under
    # them still read). Both are written into the data file by exportcatalog.
    provenance = models.JSONField(default=dict, blank=True)
    aliases = models.JSONField(default=list, blank=True)

    # Derived when the catalogue loads (catalog.loading) or is edited in the admin: never by hand.
    DERIVED_FIELDS = (
        "position",
        "rarity_rank",
        "name_key",
        "name_simplified",
        "pinyin_key",
        "initials_key",
        "search_blob",
        "code_key",
        "name_sort",
    )
    position = models.PositiveIntegerField(default=0, help_text="Order of the data file: set, then code")
    rarity_rank = models.PositiveSmallIntegerField(null=True, blank=True)
    name_key = models.CharField(max_length=40, db_index=True, default="")
    name_simplified = models.CharField(max_length=40, default="")
    pinyin_key = models.TextField(default="", blank=True)
    initials_key = models.TextField(default="", blank=True)
    search_blob = models.TextField(default="", blank=True)
    code_key = models.CharField(max_length=20, default="", blank=True)
    name_sort = models.CharField(max_length=200, default="", blank=True, help_text="Pinyin, for sorting by name")

    objects = CardQuerySet.as_manager()

    class Meta:
        ordering = ["position"]
        indexes = [
            models.Index(fields=["kind"]),
            models.Index(fields=["troop_class"]),
            models.Index(fields=["faction"]),
            models.Index(fields=["cost"]),
            models.Index(fields=["tier", "stars"]),
            models.Index(fields=["set", "position"]),
        ]
        constraints = [
            models.CheckConstraint(
                condition=Q(stars__isnull=True) | Q(stars__gte=1, stars__lte=5), name="card_stars_1_to_5"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.code} {self.name}"

    def get_absolute_url(self) -> str:
        return reverse_memo("catalog:card-detail", self.code)

    # What a card is, asked of the card (templates too) rather than compared as kind strings.
    @property
    def is_deck_card(self) -> bool:
        """A troop or a tactic: it goes in the deck and has a cost."""
        return self.kind in DECK_KINDS

    @property
    def is_general(self) -> bool:
        return self.kind in GENERAL_KINDS

    @property
    def is_unit(self) -> bool:
        """A troop or a reinforcement: it has power, health and an affiliation."""
        return self.kind in UNIT_KINDS

    @property
    def has_class(self) -> bool:
        return self.is_unit or self.is_general

    @property
    def is_troop(self) -> bool:
        return self.kind == TROOP

    @property
    def is_reinforcement(self) -> bool:
        return self.kind == REINFORCEMENT

    @property
    def can_lead(self) -> bool:
        """May be chosen as a deck's general (a general or an awakened general)."""
        return self.kind in CHOOSABLE_GENERAL_KINDS

    @property
    def is_tactic(self) -> bool:
        return self.kind == TACTIC

    @property
    def is_awakened(self) -> bool:
        return self.kind == AWAKENED_GENERAL

    @property
    def rarity_display(self) -> str | None:
        """As the card prints it: 銀★★★. None when the printed tables do not give it."""
        if self.tier is None or self.stars is None:
            return None
        return f"{Tier(self.tier).label}{'★' * self.stars}"

    def search_keys(self) -> builtins.set[str]:  # `set` alone is the card's field
        # opencc and pypinyin load with textkeys: only when a card's keys are made (start-up)
        from catalog import textkeys

        readings = [k for k in self.pinyin_key.split("|") if k]
        initials = [k for k in self.initials_key.split("|") if k]
        return textkeys.search_keys(self.name, self.code, readings, initials)

    def compute_derived(self) -> None:
        # opencc and pypinyin load with textkeys: only when a card's keys are made (start-up)
        from catalog import textkeys

        self.rarity_rank = TIER_RANK[self.tier] * 10 + self.stars if self.tier and self.stars else None
        self.name_key = textkeys.name_key(self.name)
        self.name_simplified = textkeys.to_simplified(self.name)
        full, initials = textkeys.pinyin_readings(self.name)
        self.pinyin_key = textkeys.joined_key(full)
        self.initials_key = textkeys.joined_key(initials)
        self.search_blob = textkeys.search_text(self.name, self.text)
        self.code_key = textkeys.code_key(self.code)
        self.name_sort = textkeys.sort_key(self.name)


class SearchKeyQuerySet(models.QuerySet["SearchKey"]):
    def starting_with(self, prefixes: list[str]) -> SearchKeyQuerySet:
        """Keys that start with any of the prefixes: index range scans, no full-table LIKE."""
        # opencc and pypinyin load with textkeys: only when a card's keys are made (start-up)
        from catalog import textkeys

        cond = Q()
        for prefix in prefixes:
            low, high = textkeys.prefix_range(prefix)
            cond |= Q(key__gte=low, key__lt=high) if high else Q(key__gte=low)
        return self.filter(cond) if cond else self.none()


class SearchKey(models.Model):
    """One way of finding a card by a prefix (see catalog.textkeys.search_keys). Rebuilt with
    the card whenever the catalogue loads or a maintainer edits a card."""

    card = models.ForeignKey(Card, on_delete=models.CASCADE, related_name="search_keys_set")
    key = models.CharField(max_length=96, db_index=True)

    objects = SearchKeyQuerySet.as_manager()

    class Meta:
        constraints = [models.UniqueConstraint(fields=["card", "key"], name="search_key_once_per_card")]

    def __str__(self) -> str:
        return self.key


class TextGram(models.Model):
    """A pair of adjacent characters of a card's searchable text (name and skills, both scripts),
    or the last character of a run: phrase search looks these up by index, then checks only the
    cards that hold them all (catalog.search.text_condition). Rebuilt with the search keys."""

    card = models.ForeignKey(Card, on_delete=models.CASCADE, related_name="+")
    gram = models.CharField(max_length=2)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["gram", "card"], name="text_gram_once_per_card")]

    def __str__(self) -> str:
        return self.gram


def rebuild_search_keys(cards: list[Card]) -> None:
    # opencc and pypinyin load with textkeys: only when a card's keys are made (start-up)
    from catalog import textkeys

    SearchKey.objects.filter(card__in=cards).delete()
    SearchKey.objects.bulk_create(
        [SearchKey(card=card, key=key) for card in cards for key in sorted(card.search_keys())], batch_size=2000
    )
    TextGram.objects.filter(card__in=cards).delete()
    TextGram.objects.bulk_create(
        [TextGram(card=card, gram=gram) for card in cards for gram in sorted(textkeys.text_grams(card.search_blob))],
        batch_size=5000,
    )


class CardChangeQuerySet(models.QuerySet["CardChange"]):
    def for_history(self) -> CardChangeQuerySet:
        return self.select_related("card", "proposer", "reviewer", "reverts", "ruling").order_by("-created_at", "-pk")


class CardChange(models.Model):
    """One change to a card's facts, whoever made it: a reviewed contribution, a maintainer in
    the admin, a load of the data file, or a curator's revert. `changes` maps each fact to
    [before, after]; `provenance_before` keeps what a revert must put back."""

    class Source(models.TextChoices):
        PRINTED = "printed", "Data file"
        CONTRIBUTION = "contribution", "Contribution"
        ADMIN = "admin", "Admin"
        REVERT = "revert", "Revert"

    card = models.ForeignKey(Card, on_delete=models.CASCADE, related_name="changes")
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)
    source = models.CharField(max_length=12, choices=Source.choices)
    changes = models.JSONField(default=dict)
    provenance_before = models.JSONField(default=dict)
    note = models.CharField(max_length=500, blank=True)
    proposer = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    reviewer = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    reverts = models.ForeignKey("self", null=True, blank=True, on_delete=models.SET_NULL, related_name="reverted_by")
    # A ruling's entry (catalog.rulings): `changes` is {"ruling": [state before, state after]}.
    ruling = models.ForeignKey("Ruling", null=True, blank=True, on_delete=models.CASCADE, related_name="+")

    objects = CardChangeQuerySet.as_manager()

    class Meta:
        indexes = [models.Index(fields=["card", "-created_at"])]

    def __str__(self) -> str:
        return f"#{self.pk} {self.card_id} {self.source}"

    def get_absolute_url(self) -> str:
        return reverse("catalog:card-history", args=[self.card.code]) + f"#change-{self.pk}"

    def rows(self) -> list[tuple[str, object, object]]:
        return [(name, before, after) for name, (before, after) in self.changes.items()]


# A ruling's bounds: a question and its answer are a few sentences each; a source is a name.
MAX_QUESTION = 1_000
MAX_ANSWER = 2_000
MAX_SOURCE = 200
MAX_RULING_CARDS = 10


class RulingQuerySet(models.QuerySet["Ruling"]):
    def shown(self) -> RulingQuerySet:
        """Rulings in the record: all but those a curator took back (a revert)."""
        return self.filter(withdrawn=False)

    def for_lists(self) -> RulingQuerySet:
        """Newest first, each with its cards and whether a later ruling replaced it (in the
        prefetched `replaced_by`), at a fixed number of queries."""
        later = Ruling.objects.filter(withdrawn=False).order_by("decided_on", "pk")
        return (
            self.select_related("entered_by", "replaces")
            .prefetch_related(
                models.Prefetch("cards", queryset=Card.objects.order_by("code")),
                models.Prefetch("replaced_by", queryset=later),
            )
            .order_by("-decided_on", "-pk")
        )

    def of_card(self, card: Card) -> RulingQuerySet:
        return self.filter(cards=card)

    def in_force(self) -> RulingQuerySet:
        """Rulings shown and not replaced by a later one shown."""
        later = Ruling.objects.filter(replaces=models.OuterRef("pk"), withdrawn=False)
        return self.shown().filter(~models.Exists(later))

    def citing(self, term: str) -> RulingQuerySet:
        return self.filter(terms__contains=f" {term} ")


class Ruling(models.Model):
    """How a question of play was settled: a question, its answer, where the answer comes from
    and when. Made only through catalog.rulings, when a curator approves a proposal; a later
    ruling may replace it (it stays, marked superseded), and a curator's revert withdraws it."""

    class Source(models.TextChoices):
        OFFICIAL = "official", gettext_lazy("Official FAQ")
        ORGANISER = "organiser", gettext_lazy("Organiser's ruling")
        JUDGE = "judge", gettext_lazy("Judge's answer")

    cards = models.ManyToManyField(Card, related_name="rulings")
    question = models.TextField(max_length=MAX_QUESTION, validators=[MaxLengthValidator(MAX_QUESTION)])
    answer = models.TextField(max_length=MAX_ANSWER, validators=[MaxLengthValidator(MAX_ANSWER)])
    source_kind = models.CharField(max_length=10, choices=Source.choices)
    source = models.CharField(max_length=MAX_SOURCE)
    url = models.URLField(max_length=500, blank=True)
    decided_on = models.DateField()
    replaces = models.ForeignKey("self", null=True, blank=True, on_delete=models.SET_NULL, related_name="replaced_by")
    # The slugs of the terms (catalog.terms) its question or answer names, found when it was
    # made, each between spaces (" fast soul "): found with a plain `contains` on any database.
    terms = models.CharField(max_length=300, blank=True, default="")
    withdrawn = models.BooleanField(default=False)
    entered_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    approved_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    objects = RulingQuerySet.as_manager()

    class Meta:
        indexes = [models.Index(fields=["-decided_on", "-id"], name="ruling_newest")]

    def __str__(self) -> str:
        return f"ruling {self.pk}"

    def get_absolute_url(self) -> str:
        return reverse("catalog:ruling", args=[self.pk])

    @property
    def term_slugs(self) -> list[str]:
        return self.terms.split()

    @property
    def superseded_by(self) -> Ruling | None:
        """The later ruling in force that replaced this one (from the prefetched list)."""
        return next(iter(self.replaced_by.all()), None)


class CardImage(models.Model):
    """A real picture of one side of a card, uploaded by staff through the admin. The file is
    the cleaned WebP that catalog.images made; thumbnails maps a width to its file."""

    class Side(models.TextChoices):
        FRONT = "front", "Front"
        BACK = "back", "Back (double-sided foils)"

    card = models.ForeignKey(Card, on_delete=models.CASCADE, related_name="images")
    side = models.CharField(max_length=5, choices=Side.choices, default=Side.FRONT)
    image = models.FileField(max_length=200, editable=False)
    width = models.PositiveIntegerField(default=0, editable=False)
    height = models.PositiveIntegerField(default=0, editable=False)
    thumbnails = models.JSONField(default=dict, blank=True, editable=False)
    uploaded_at = models.DateTimeField(auto_now=True)
    # Who photographed it, when the picture came from a contribution (credited on the card page).
    contributor = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )

    class Meta:
        ordering = ["card__position", "side"]
        constraints = [models.UniqueConstraint(fields=["card", "side"], name="one_image_per_card_side")]

    def __str__(self) -> str:
        return f"{self.card.code} {self.side}"

    def files(self) -> list[str]:
        return [name for name in [self.image.name, *self.thumbnails.values()] if name]


class CatalogState(models.Model):
    """One row: the catalogue's version stamp. It lives in the database, which every worker and
    server shares, so that a change is seen by all of them at once, with or without a cache."""

    id = models.PositiveSmallIntegerField(primary_key=True, default=1)
    version = models.CharField(max_length=32)

    def __str__(self) -> str:
        return self.version


class WorkerBeat(models.Model):
    """The task workers' heartbeats: each running worker writes its row every few seconds, so
    /readyz and /metrics can say when a worker last lived (manage.py worker)."""

    worker = models.CharField(max_length=64, unique=True)
    beat_at = models.DateTimeField()

    def __str__(self) -> str:
        return f"{self.worker} at {self.beat_at:%H:%M:%S}"


# A user's photos waiting to be read: past this many, a new one is refused (429) until some are read.
MAX_WAITING_SCANS = int(
    bounds.declare("waiting photos", 10, "photos", "a user's photos waiting to be read at once (429 past it)")
)
# An organiser reads the paper lists of a whole event at once: a PDF of them is a scan a page.
MAX_WAITING_SHEETS = int(
    bounds.declare("waiting sheets", 100, "pages", "an organiser's paper-list pages waiting to be read at once")
)
# A finished scan's photo is deleted this many days after (manage.py cleanscans, run by cron).
SCAN_KEEP_DAYS = 30


class ScanQuerySet(models.QuerySet["Scan"]):
    def waiting(self) -> ScanQuerySet:
        return self.filter(status__in=Scan.WAITING)


# Scan.error begins with one of these where the photo was not read: the file was refused when it
# was decoded (its reason in result["refusal"]), or the reader died on it too often (a lease).
PICTURE_REFUSED = "picture"
LEASE_LOST = "lease"


class Scan(Leased):
    """A photo of cards, read against the catalogue outside the request (catalog.tasks.read_scan):
    the cards found in it, for its owner to add to their collection once checked (purpose
    collection), the facts read from one card's face, for a proposal (purpose proposal), or a
    paper deck list and its QR code, for an event's organiser (purpose sheet)."""

    class Purpose(models.TextChoices):
        COLLECTION = "collection", "collection"
        PROPOSAL = "proposal", "proposal"
        SHEET = "sheet", "sheet"  # a paper deck list handed in at an event

    class Status(models.TextChoices):
        QUEUED = "queued", gettext_lazy("waiting to be read")
        RUNNING = "running", gettext_lazy("being read")
        DONE = "done", gettext_lazy("read")
        FAILED = "failed", gettext_lazy("could not be read")

    # Not read yet: still to wait for.
    WAITING = (Status.QUEUED, Status.RUNNING)

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="scans")
    purpose = models.CharField(max_length=10, choices=Purpose.choices, default=Purpose.COLLECTION)
    card = models.ForeignKey(Card, on_delete=models.CASCADE, null=True, blank=True, related_name="+")
    # The file as it was sent (a photo, or a PDF whose page `page` this scan reads; its pages'
    # scans share it), kept until the worker has made `image` from it: the request only checks
    # its header, the worker decodes it.
    source = models.FileField(storage=private_storage, max_length=200, editable=False, blank=True)
    page = models.PositiveSmallIntegerField(null=True, blank=True)
    # The picture read: a clean WebP (or a PDF page drawn in grey), without metadata.
    image = models.FileField(storage=private_storage, max_length=200, editable=False, blank=True)
    width = models.PositiveIntegerField(default=0)
    height = models.PositiveIntegerField(default=0)
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.QUEUED, db_index=True)
    created = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    # {"cards": [{"card", "confidence", "box", "text", "alternatives": [{"card", "confidence"}]}],
    #  "unmatched": [{"text", "box"}], "facts": {fact: {"value", "confidence"}}}: scanning's
    #  Reading (and, for a proposal, the facts read) as plain data; for a sheet {"codes": [QR
    #  texts], "player", "lines": [{"count", "card", "text", "confidence", "sure", "box",
    #  "alternatives"}], "unmatched"}.
    result = models.JSONField(default=dict, blank=True)
    error = models.CharField(max_length=300, blank=True)
    applied_at = models.DateTimeField(null=True, blank=True)

    objects = ScanQuerySet.as_manager()

    class Meta:
        ordering = ["-created", "-pk"]

    def __str__(self) -> str:
        return f"scan {self.pk} ({self.status})"

    # The states a lease moves a scan between (webutil.leases).
    STATES = States("status", Status.QUEUED, Status.RUNNING, Status.FAILED)

    @property
    def is_waiting(self) -> bool:
        return self.status in self.WAITING

    @property
    def error_message(self) -> str:
        """Why the photo was not read, in the reader's language ("" when it was)."""
        if not self.error:
            return ""
        if self.error.startswith(PICTURE_REFUSED):  # the file itself: words for what was wrong with it
            from catalog.images import refusal
            from scanning.pictures import PictureError

            refused = self.result.get("refusal") or {}
            return refusal(PictureError(str(refused.get("code", "corrupt")), **dict(refused.get("detail") or {})))
        if self.error.startswith(LEASE_LOST):
            return gettext(
                "Reading this photo was cut short %(n)d times (the reader stopped): send it again, or a smaller one."
            ) % {"n": self.attempts}
        return gettext("This photo could not be read. Try another, in more light, with the names and codes in focus.")

    @property
    def applied(self) -> bool:
        """Its cards were added to the collection (once, at applied_at)."""
        return self.applied_at is not None
