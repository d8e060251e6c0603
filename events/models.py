"""Tournament events: an organiser collects the players' deck lists before a deadline.

A submission keeps the list as text, as it stood when it was sent: a saved deck that is edited
afterwards does not change what was registered. Verdicts are worked out when shown (the rules
module is fast and pure), so they always follow the event's format.
"""

from __future__ import annotations

import math
import secrets
from datetime import date, datetime
from typing import Any

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.db.models import Q
from django.db.models.functions import Coalesce, TruncDate
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from catalog.lookup import catalog_index
from decks.i18n import format_label
from groups import formats
from people import regions
from rules_check import DEFAULT_FORMAT, FORMATS
from webutil.leases import Leased, States


def new_token() -> str:
    return secrets.token_urlsafe(18)


def new_seed() -> int:
    return secrets.randbelow(2**31)


def validate_deadline_year(value: datetime) -> None:
    """Far-off years are typos, and year 1 in Taipei is year 0 in UTC: no datetime holds it."""
    if not 2000 <= value.year <= 2999:
        raise ValidationError(_("Enter a deadline between the years 2000 and 2999."))


# The bounds of an event's settings, written once: forms and serializers inherit them.
MATCH_POINTS = [MinValueValidator(0), MaxValueValidator(10)]
SWISS_ROUNDS = [MinValueValidator(1), MaxValueValidator(20)]
ROUND_MINUTES = [MinValueValidator(5), MaxValueValidator(240)]
# Table numbers (a hall of 2,000 players has 1,000 tables).
TABLE_NUMBERS = [MinValueValidator(1), MaxValueValidator(10_000)]
# Minutes an organiser adds to a running round's clock at a time.
CLOCK_MINUTES = [MinValueValidator(1), MaxValueValidator(120)]


def check_event_format(key: str, group_id: int | None) -> None:
    """An event's format is an official one, or a house format of the event's own group."""
    if key in FORMATS:
        return
    house = formats.house_format(key)
    if house is None or house.group_id != group_id:
        raise ValidationError(
            {"format": gettext("A house format is for its own group's events: choose that group for the event.")}
        )


# Players an event takes at most (a hall of 2,000 players, as TABLE_NUMBERS).
PLAYER_CAP = [MinValueValidator(2), MaxValueValidator(2_000)]


# Who finds an event and where it is held: the settings the events page and the API both take.
FINDING_FIELDS = ["visibility", "venue", "address", "city", "region", "fee", "cap", "contact"]


# Who finds an event: "private", its links alone (/e/<token>/ to send a list, /t/<token>/ for the
# venue); "unlisted", the list link also shows its details and takes registrations; "listed",
# also /events/<id>/ for anyone and the directory, the calendars and the feed.
class Visibility(models.TextChoices):
    PRIVATE = "private"
    UNLISTED = "unlisted"
    LISTED = "listed"


# When the players' lists become public on the event's page.
LISTS_PUBLIC = [("never", "never"), ("top_cut", "top_cut"), ("after", "after")]
# The settings under which an event's lists become public: its results count in the meta.
PUBLIC_LISTS = ("top_cut", "after")


class EventQuerySet(models.QuerySet["Event"]):
    def organised_by(self, user: Any) -> EventQuerySet:
        """An organiser's own events: the only ones they can see or change."""
        return self.filter(organiser=user) if user.is_authenticated else self.none()

    def with_counts(self) -> EventQuerySet:
        return self.annotate(submission_count=models.Count("submissions"))

    def listed(self) -> EventQuerySet:
        return self.filter(visibility=Visibility.LISTED)

    def lists_closed(self, now: datetime | None = None) -> EventQuerySet:
        """Events that take no more lists (locked, or past the deadline): Event.open_at's opposite."""
        return self.filter(Q(locked_at__isnull=False) | Q(deadline__lte=now or timezone.now()))


class Event(models.Model):
    organiser = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="organised_events")
    name = models.CharField(max_length=100)
    # An official format (rules_check/formats.json) or a house format of the event's group.
    format = models.CharField(max_length=20, default=DEFAULT_FORMAT)
    # The play group the event is held for: its matches count for the group's league, and the
    # group's house formats may be its format. None: an event of no group.
    group = models.ForeignKey("groups.Group", null=True, blank=True, on_delete=models.SET_NULL, related_name="events")
    deadline = models.DateTimeField(help_text="Lists are taken until this moment.", validators=[validate_deadline_year])
    # When play begins (its date is the event's day for ratings and league seasons, Event.day).
    starts_at = models.DateTimeField(null=True, blank=True, validators=[validate_deadline_year])
    visibility = models.CharField(max_length=10, choices=Visibility.choices, default=Visibility.PRIVATE)
    # Where it is held, as players are told (the directory's filters read region and city).
    venue = models.CharField(max_length=100, blank=True)
    address = models.CharField(max_length=200, blank=True)
    city = models.CharField(max_length=50, blank=True)
    region = models.CharField(max_length=regions.SLUG_LENGTH, choices=regions.choices, blank=True)
    fee = models.CharField(max_length=50, blank=True, help_text="The entry fee, as text: “NT$200”, “免費”.")
    # Registrations beyond it wait, in order (events.registration). None: no cap.
    cap = models.PositiveIntegerField(null=True, blank=True, validators=PLAYER_CAP)
    contact = models.CharField(max_length=100, blank=True)
    # Whoever holds the link can submit (after logging in): it is the invitation. A new token
    # shuts out an old link that went too far.
    token = models.CharField(max_length=32, unique=True, default=new_token)
    locked_at = models.DateTimeField(null=True, blank=True)
    created = models.DateTimeField(auto_now_add=True)

    # --- the tournament day (the printed rules say nothing of it: these are the usual defaults)
    best_of = models.PositiveSmallIntegerField(choices=[(1, "1"), (3, "3")], default=3)
    win_points = models.PositiveSmallIntegerField(default=3, validators=MATCH_POINTS)
    draw_points = models.PositiveSmallIntegerField(default=1, validators=MATCH_POINTS)
    loss_points = models.PositiveSmallIntegerField(default=0, validators=MATCH_POINTS)
    # None: suggested from the player count, ⌈log2 n⌉ (Event.swiss_rounds).
    rounds = models.PositiveSmallIntegerField(null=True, blank=True, validators=SWISS_ROUNDS)
    round_minutes = models.PositiveSmallIntegerField(default=50, validators=ROUND_MINUTES)
    top_cut = models.PositiveSmallIntegerField(choices=[(0, "0"), (4, "4"), (8, "8"), (16, "16")], default=0)
    lists_public = models.CharField(max_length=10, choices=LISTS_PUBLIC, default="after")
    checkin_open = models.BooleanField(default=False)
    # A player entered after round 1 has a match loss for each round already paired (as Melee
    # records late entries); off, they simply start from 0 points.
    late_entry_losses = models.BooleanField(default=True)
    # Rounds are paired as drafts only the organisers see, then published with one action (their
    # clock starts then); off, a round is published as it is paired.
    hold_pairings = models.BooleanField(default=False)
    # Later top-cut rounds: the fixed bracket (False), or re-seeded, the best remaining seed
    # against the lowest.
    top_cut_reseed = models.BooleanField(default=False)
    # Decides the order of players equal on every tie-breaker; recorded so standings reproduce.
    standings_seed = models.PositiveIntegerField(default=new_seed)
    # The venue's public page (pairings and standings): its own token, apart from the list link.
    public_token = models.CharField(max_length=32, unique=True, default=new_token)
    judges = models.ManyToManyField(settings.AUTH_USER_MODEL, blank=True, related_name="judged_events")
    # Its confirmed matches between players with accounts move their ratings (events.ratings).
    rated = models.BooleanField(default=False)

    objects = EventQuerySet.as_manager()

    class Meta:
        ordering = ["-deadline", "-pk"]
        indexes = [models.Index(fields=["visibility", "starts_at"], name="event_listed_start")]

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("events:detail", args=[self.pk])

    @property
    def region_label(self) -> str:
        return regions.label(self.region)

    @property
    def listed(self) -> bool:
        return self.visibility == Visibility.LISTED

    @property
    def takes_registrations(self) -> bool:
        """Players register through the site (listed or unlisted); a private event's organiser
        hands out its link."""
        return self.visibility != Visibility.PRIVATE

    @property
    def day(self) -> date:
        """The date its matches count from (ratings, league seasons): its start, else its list
        deadline's day in local time. In queries: `event_day()`."""
        return timezone.localdate(self.starts_at or self.deadline)

    @property
    def format_label(self) -> str:
        return format_label(self.format, getattr(self, "house_format_name", None))

    def clean(self) -> None:
        check_event_format(self.format, self.group_id)
        if self.visibility == Visibility.LISTED and self.starts_at is None:
            raise ValidationError({"starts_at": gettext("A listed event says when it starts: it is on the calendar.")})

    def get_submit_url(self) -> str:
        return reverse("events:submit", args=[self.token])

    @property
    def locked(self) -> bool:
        return self.locked_at is not None

    def open_at(self, now: datetime | None = None) -> bool:
        return not self.locked and (now or timezone.now()) < self.deadline

    def swiss_rounds(self, players: int) -> int:
        """The rounds set by the organiser, or ⌈log2 n⌉ for n players (at least 1)."""
        if self.rounds:
            return self.rounds
        return max(1, math.ceil(math.log2(players))) if players > 1 else 1


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


class Player(models.Model):
    """One player of the tournament day: from a list sent to the event, or added late."""

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="players")
    name = models.CharField(max_length=100)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="event_players"
    )
    submission = models.OneToOneField(
        Submission, null=True, blank=True, on_delete=models.SET_NULL, related_name="tournament_player"
    )
    legal = models.BooleanField(default=False)
    # The general of the list (a card code), kept for the public results and the meta page.
    general = models.CharField(max_length=20, blank=True)
    checked_in = models.BooleanField(default=False)
    dropped = models.BooleanField(default=False)
    # Awarded by the organiser (an invited player): a bye in round 1, counted as a player in the
    # number of rounds.
    first_round_bye = models.BooleanField(default=False)
    # A table the player needs (accessibility): every Swiss round seats their match there.
    fixed_table = models.PositiveSmallIntegerField(null=True, blank=True, validators=TABLE_NUMBERS)

    class Meta:
        ordering = ["name", "pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["event", "user"], condition=Q(user__isnull=False), name="one_player_per_user"
            ),
        ]

    def __str__(self) -> str:
        return self.name


SWISS, TOP = "swiss", "top"


class RoundQuerySet(models.QuerySet["Round"]):
    def published(self) -> RoundQuerySet:
        """The rounds players and the venue see: every round but a draft."""
        return self.filter(published_at__isnull=False)

    def with_table_counts(self) -> RoundQuerySet:
        """Each round with its number of tables and of tables still without a result, counted by
        the database: a page showing one part of a 1,000-table round need not load them all."""
        return self.annotate(
            table_count=models.Count("matches"), open_tables=models.Count("matches", filter=Q(matches__a_wins=None))
        )


class Round(models.Model):
    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="tournament_rounds")
    number = models.PositiveSmallIntegerField()
    kind = models.CharField(max_length=5, choices=[(SWISS, SWISS), (TOP, TOP)], default=SWISS)
    seed = models.PositiveIntegerField(help_text="The pairing's random seed, recorded to reproduce it")
    started = models.DateTimeField(default=timezone.now)
    ends = models.DateTimeField()
    # Set while the organiser has paused the clock: the time left is `ends - paused_at` until it
    # runs again (then `ends` moves on by the pause).
    paused_at = models.DateTimeField(null=True, blank=True)
    # None while the round is a draft only the organisers see (the event holds its pairings).
    published_at = models.DateTimeField(null=True, blank=True)

    objects = RoundQuerySet.as_manager()

    class Meta:
        ordering = ["number"]
        constraints = [models.UniqueConstraint(fields=["event", "number"], name="round_number_once")]

    def __str__(self) -> str:
        return f"{self.event_id} R{self.number}"

    def seconds_left(self, now: datetime | None = None) -> int:
        """Seconds until the round's end (negative once over), frozen while paused."""
        at = self.paused_at or now or timezone.now()
        return math.floor((self.ends - at).total_seconds())

    @property
    def finished(self) -> bool:
        """Every table has its result (counted by `with_table_counts`, from the matches
        prefetched, or one query)."""
        open_tables: int | None = getattr(self, "open_tables", None)
        if open_tables is not None:
            return open_tables == 0
        return all(m.done for m in self.matches.all())

    def title(self) -> str:
        """ "Round 3"; a top-cut round by what it is: the quarter-finals, the semi-finals, the final
        (by its tables: the matches prefetched, or one count)."""
        if self.kind != TOP:
            return gettext("Round %(n)s") % {"n": self.number}
        tables: int | None = getattr(self, "table_count", None)
        if tables is None:
            tables = len(self.matches.all())
        named = CUT_ROUNDS.get(tables)
        return str(named) if named else gettext("Top %(n)s") % {"n": 2 * tables}


# A top-cut round by its number of tables.
CUT_ROUNDS = {1: _("Final"), 2: _("Semi-finals"), 4: _("Quarter-finals"), 8: _("Round of 16")}

AGREED, ORGANISER = "agreed", "organiser"
# A table of one player decided without an opponent: the bye (a 2–0 win) or a match loss (0–2,
# never a win: a late player, a penalty).
BYE, LOSS = "bye", "loss"


class Match(models.Model):
    """A table of a round: player_b None is the bye. The result stands when an organiser entered
    it or both players reported the same; until then `a_wins` and the rest are None."""

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="matches")
    table = models.PositiveSmallIntegerField(validators=TABLE_NUMBERS)
    player_a = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="+")
    player_b = models.ForeignKey(Player, null=True, blank=True, on_delete=models.CASCADE, related_name="+")
    a_wins = models.PositiveSmallIntegerField(null=True, blank=True)
    b_wins = models.PositiveSmallIntegerField(null=True, blank=True)
    draws = models.PositiveSmallIntegerField(null=True, blank=True)
    decided_by = models.CharField(max_length=10, blank=True)  # agreed, organiser (or "" while open)
    disputed = models.BooleanField(default=False)

    class Meta:
        ordering = ["table"]
        constraints = [models.UniqueConstraint(fields=["round", "table"], name="match_table_once")]

    def __str__(self) -> str:
        return f"R{self.round_id} T{self.table}"

    @property
    def done(self) -> bool:
        return self.a_wins is not None

    @property
    def is_loss(self) -> bool:
        """A match loss with no opponent (as opposed to the bye)."""
        return self.player_b_id is None and self.decided_by == LOSS


class Report(models.Model):
    """What one player says of their match, games from their own side."""

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="reports")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="+")
    wins = models.PositiveSmallIntegerField()
    losses = models.PositiveSmallIntegerField()
    draws = models.PositiveSmallIntegerField()
    at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["match", "player"], name="one_report_per_player")]

    def __str__(self) -> str:
        return f"{self.player_id}: {self.wins}-{self.losses}-{self.draws}"


# Penalties, mildest first: a game or match loss applies to the player's match of the round.
PENALTY_KINDS = {
    "warning": _("Warning"),
    "game_loss": _("Game loss"),
    "match_loss": _("Match loss"),
    "disqualification": _("Disqualification"),
}


class Penalty(models.Model):
    """An entry in a player's penalty log: organisers see the whole log, a player their own."""

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="penalties")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="penalties")
    kind = models.CharField(max_length=20, choices=list(PENALTY_KINDS.items()))
    note = models.CharField(max_length=500, blank=True)
    round_number = models.PositiveSmallIntegerField(null=True, blank=True)
    # The match a game or match loss was applied to (None: given between rounds, or a warning).
    match = models.ForeignKey(Match, null=True, blank=True, on_delete=models.SET_NULL, related_name="penalties")
    by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["-at", "-pk"]

    def __str__(self) -> str:
        return f"{self.player_id}: {self.kind}"


# How many tables one deck check may pick.
DECK_CHECK_TABLES = [MinValueValidator(1), MaxValueValidator(50)]


class DeckCheck(models.Model):
    """Tables of a round picked at random for a deck check: the seed and the pick are recorded."""

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="deck_checks")
    seed = models.PositiveIntegerField()
    tables = models.JSONField(default=list, help_text="The table numbers picked")
    players = models.JSONField(default=list, help_text="The ids of the players at those tables")
    by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["-at", "-pk"]

    def __str__(self) -> str:
        return f"{self.round_id}: {self.tables}"


# What an organiser changed by hand on the day, each kind with the sentence the day page shows.
DAY_CHANGES = {
    "pair": _("Round %(round)s, table %(table)s: %(players)s paired by hand"),
    "bye": _("Round %(round)s, table %(table)s: a bye given to %(players)s by hand"),
    "loss": _("Round %(round)s: a match loss for %(players)s"),
    "remove": _("Round %(round)s, table %(table)s removed (%(players)s)"),
    "delete_round": _("Round %(round)s deleted"),
    "swap": _("Round %(round)s: %(players)s swapped"),
    "penalty": _("A penalty for %(players)s"),
    "late": _("%(players)s entered late: a match loss for each round already paired"),
    "deck_check": _("Round %(round)s: a deck check of %(players)s"),
    "list_fixed": _("The list of %(players)s fixed by the organiser"),
    "publish": _("Round %(round)s published"),
    "drop": _("%(players)s dropped by the organiser"),
    "reinstate": _("%(players)s reinstated by the organiser"),
}


class DayChange(models.Model):
    """A change an organiser made by hand on the tournament day: what, who and when."""

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="day_changes")
    kind = models.CharField(max_length=20, choices=[(kind, kind) for kind in DAY_CHANGES])
    round_number = models.PositiveSmallIntegerField(null=True, blank=True)
    table = models.PositiveSmallIntegerField(null=True, blank=True)
    players = models.JSONField(default=list, blank=True, help_text="The ids of the players concerned")
    by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["-at", "-pk"]

    def __str__(self) -> str:
        return f"{self.event_id}: {self.kind}"


class PaperList(models.Model):
    """A paper deck list handed in at the event, photographed or scanned by the organiser: its
    photo is read in the background (a Scan of purpose sheet, private to the organiser), then the
    organiser checks the unsure lines and adds it as a list of the event (`submission`)."""

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="paper_lists")
    scan = models.OneToOneField("catalog.Scan", on_delete=models.CASCADE, related_name="paper_list")
    file_name = models.CharField(max_length=200, blank=True)
    page = models.PositiveSmallIntegerField(null=True, blank=True, help_text="Its page, for a PDF of several")
    submission = models.OneToOneField(
        Submission, null=True, blank=True, on_delete=models.SET_NULL, related_name="paper_list"
    )
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["created", "pk"]

    def __str__(self) -> str:
        return f"{self.file_name} p{self.page or 1} @ {self.event_id}"

    @property
    def source(self) -> str:
        """Where it came from, as the event's table shows it: the file and its page."""
        return f"{self.file_name} ({self.page})" if self.page else self.file_name


class PlayerClaim(models.Model):
    """An organiser asks an account to confirm it is a typed-in player of their event
    (events.claims); its holder confirms or declines, once."""

    class Status(models.TextChoices):
        OPEN = "open"
        CONFIRMED = "confirmed"
        DECLINED = "declined"
        WITHDRAWN = "withdrawn"  # the organiser asked another account

    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="claims")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    asked_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.OPEN)
    created = models.DateTimeField(auto_now_add=True)
    answered = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["player"], condition=Q(status="open"), name="one_open_claim_a_player")
        ]

    def __str__(self) -> str:
        return f"claim of {self.player_id} by {self.user_id} ({self.status})"


def event_day(path: str = "") -> Coalesce:
    """Event.day as a query expression; `path` leads to the event ("round__event__")."""
    return Coalesce(TruncDate(f"{path}starts_at"), TruncDate(f"{path}deadline"))


class RatingEntry(models.Model):
    """One rated match's change of one player's rating (events.ratings): the rating after it, in
    the order matches were played (the event's date, the event, the round, the table)."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="+")
    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="+")
    played_on = models.DateField()
    round_number = models.PositiveSmallIntegerField()
    table = models.PositiveSmallIntegerField()
    mu = models.FloatField()
    sigma = models.FloatField()
    ordinal = models.FloatField()
    # 1 won, 0 drew, -1 lost (a player's record reads its entries)
    outcome = models.SmallIntegerField()

    class Meta:
        constraints = [models.UniqueConstraint(fields=["user", "match"], name="one_rating_entry_a_match")]
        indexes = [
            models.Index(fields=["played_on"], name="rating_entry_day"),
            models.Index(fields=["user", "played_on"], name="rating_entry_user_day"),
        ]

    def __str__(self) -> str:
        return f"{self.user_id} after {self.match_id}"


class PlayerRating(models.Model):
    """A player's rating now: the last of their entries, and how many rated matches they played."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, primary_key=True, on_delete=models.CASCADE, related_name="rating"
    )
    mu = models.FloatField()
    sigma = models.FloatField()
    ordinal = models.FloatField()
    matches = models.PositiveIntegerField(default=0)

    def __str__(self) -> str:
        return f"rating of {self.user_id}"


class RatingRun(Leased):
    """Ratings to compute again from a date on (a result of a rated event, an event marked rated or
    not): one run queued at a time, the earliest date it must go back to; run under a lease."""

    class Status(models.TextChoices):
        QUEUED = "queued"
        RUNNING = "running"
        DONE = "done"
        FAILED = "failed"

    STATES = States("status", Status.QUEUED, Status.RUNNING, Status.FAILED)

    from_date = models.DateField()
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.QUEUED)
    created = models.DateTimeField(auto_now_add=True)
    error = models.CharField(max_length=200, blank=True)

    def __str__(self) -> str:
        return f"ratings from {self.from_date} ({self.status})"


class RatingState(models.Model):
    """One row: a number each write of the ratings raises. A run computes outside any lock and
    writes only if no other run wrote meanwhile (else it computes again)."""

    generation = models.PositiveIntegerField(default=0)

    def __str__(self) -> str:
        return f"ratings generation {self.generation}"


class RegistrationQuerySet(models.QuerySet["Registration"]):
    def in_order(self) -> RegistrationQuerySet:
        return self.order_by("created", "pk")


class Registration(models.Model):
    """A player's place at a listed or unlisted event (events.registration): in, or waiting when
    the cap was reached; the waiting move up in the order they came when someone withdraws."""

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="registrations")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="registrations")
    waiting = models.BooleanField(default=False)
    created = models.DateTimeField(default=timezone.now)

    objects = RegistrationQuerySet.as_manager()

    class Meta:
        constraints = [models.UniqueConstraint(fields=["event", "user"], name="register_once")]
        indexes = [models.Index(fields=["event", "waiting", "created"], name="registration_order")]

    def __str__(self) -> str:
        return f"{self.user_id} at {self.event_id}{' (waiting)' if self.waiting else ''}"


class EventDeckQuerySet(models.QuerySet["EventDeck"]):
    def with_lists(self) -> EventDeckQuerySet:
        """The records that hold a list (a player without one has a record for their page only)."""
        return self.exclude(text="")

    def newest_first(self) -> EventDeckQuerySet:
        return self.order_by("-day", "event_id", "placing", "pk")


class EventDeck(models.Model):
    """A list as it was played at a finished event whose setting makes it public: a record, not
    a deck (a deck needs an owner, and this one may have none). Written by events.event_decks
    when the event finishes; searched by the cards it plays (EventDeckName)."""

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="event_decks")
    player = models.ForeignKey(Player, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    player_name = models.CharField(max_length=100)
    placing = models.PositiveIntegerField()
    players = models.PositiveIntegerField(help_text="How many players the event's placings rank")
    general = models.CharField(max_length=20, blank=True)
    format = models.CharField(max_length=20)
    day = models.DateField()
    text = models.TextField()

    objects = EventDeckQuerySet.as_manager()

    class Meta:
        indexes = [
            models.Index(fields=["-day", "event", "placing"], name="event_deck_newest"),
            models.Index(fields=["general", "-day"], name="event_deck_general"),
            models.Index(fields=["user", "-day"], name="event_deck_user"),  # a player's page
        ]

    def __str__(self) -> str:
        return f"{self.player_name} #{self.placing} at {self.event_id}"

    def get_absolute_url(self) -> str:
        return reverse("events:event-deck", args=[self.pk])

    @property
    def general_name(self) -> str:
        facts = catalog_index().by_code.get(self.general) if self.general else None
        return facts.name if facts else ""


class EventDeckName(models.Model):
    """A card name an event deck's main deck plays and its copies (as decks.models.DeckName)."""

    event_deck = models.ForeignKey(EventDeck, on_delete=models.CASCADE, related_name="names")
    name_key = models.CharField(max_length=40)
    copies = models.PositiveIntegerField()

    class Meta:
        constraints = [models.UniqueConstraint(fields=["event_deck", "name_key"], name="event_deck_name_once")]
        indexes = [models.Index(fields=["name_key", "copies", "event_deck"], name="event_deck_name_search")]

    def __str__(self) -> str:
        return f"{self.copies} {self.name_key}"
