from __future__ import annotations

from typing import Any

from django import forms
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from catalog.images import SEND_SIDE_SHEETS
from decks import intake
from decks import services as deck_services
from decks.forms import format_choices, read_list_file
from decks.models import Deck
from events.models import FINDING_FIELDS, TABLE_NUMBERS, Event, Penalty, Visibility, validate_deadline_year
from groups.models import Group
from people import regions
from rules_check import DEFAULT_FORMAT
from rules_check.decklist import MAX_BYTES
from webutil.form_fields import ChineseAwareSelect, RowChoiceField
from webutil.uploads import MultipleFileField, MultipleFileInput

_LOCAL_MINUTE = "%Y-%m-%dT%H:%M"

# The visibilities in words (the model keeps their slugs).
VISIBILITY_CHOICES = [
    (Visibility.PRIVATE, _("Private")),
    (Visibility.UNLISTED, pgettext_lazy("event visibility", "Unlisted")),
    (Visibility.LISTED, pgettext_lazy("event visibility", "Listed")),
]


class EventForm(forms.ModelForm):
    # Formats are data (rules_check/formats.json, and the house formats of the organiser's
    # groups): the choice is the form's, not the model's.
    format = forms.ChoiceField(label=_("Format"), choices=format_choices, initial=DEFAULT_FORMAT)
    group = RowChoiceField(
        label=_("Play group"),
        queryset=Group.objects.none(),
        required=False,
        empty_label=_("— none —"),
        widget=ChineseAwareSelect,  # groups are named by players
        help_text=_("Its matches count for the group's league, and its house formats can be the event's format."),
    )
    deadline = forms.DateTimeField(
        label=_("Deadline for lists"),
        input_formats=[_LOCAL_MINUTE, "%Y-%m-%d %H:%M"],
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}, format=_LOCAL_MINUTE),
        help_text=_("Time in Taipei (UTC+8)."),
    )
    starts_at = forms.DateTimeField(
        label=_("Starts at"),
        required=False,
        input_formats=[_LOCAL_MINUTE, "%Y-%m-%d %H:%M"],
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}, format=_LOCAL_MINUTE),
        help_text=_("Time in Taipei (UTC+8)."),
    )
    region = forms.ChoiceField(label=_("Region"), required=False, choices=regions.form_choices(_("— none —")))
    cap = forms.IntegerField(  # its bounds are the model field's (events.models.PLAYER_CAP)
        label=_("Player cap"),
        required=False,
        help_text=_("Registrations beyond it join a waiting list. Empty: no cap."),
    )

    class Meta:
        model = Event
        fields = [
            "name",
            "format",
            "deadline",
            "starts_at",
            "group",
            "rated",
            *FINDING_FIELDS,
        ]
        labels = {
            "name": _("Name"),
            "format": _("Format"),
            "rated": _("Rated"),
            "visibility": _("Who finds it"),
            "venue": _("Venue"),
            "address": _("Address"),
            "city": _("City"),
            "fee": _("Entry fee"),
            "contact": _("Contact"),
        }
        help_texts = {
            "rated": _("Its confirmed matches between players with accounts move their ratings (see Ratings)."),
            "visibility": _(
                "Private: only its links. Unlisted: its list link also shows the details and takes "
                "registrations. Listed: also in the events directory and calendars, for anyone."
            ),
            "fee": _("As players should read it: “NT$200”, “free”."),
            "contact": _("How players reach the organiser: a phone, a LINE or WeChat ID, an e-mail."),
        }
        widgets = {"visibility": forms.RadioSelect}

    def __init__(self, *args: Any, user: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        group = self.fields["group"]
        assert isinstance(group, RowChoiceField)
        mine = Group.objects.of(user)
        if self.instance.group_id:  # a group the organiser left stays the event's until changed
            mine = mine | Group.objects.filter(pk=self.instance.group_id)
        group.queryset = mine
        fmt = self.fields["format"]
        assert isinstance(fmt, forms.ChoiceField)
        fmt.widget = ChineseAwareSelect(attrs=fmt.widget.attrs)  # house formats are named by players
        fmt.choices = format_choices(user)
        visibility = self.fields["visibility"]
        assert isinstance(visibility, forms.ChoiceField)
        visibility.choices = VISIBILITY_CHOICES
        visibility.required = False  # left out: as it was (a new event: private)

    def clean_visibility(self) -> str:
        return self.cleaned_data.get("visibility") or self.instance.visibility or Visibility.PRIVATE

    def clean_deadline(self) -> Any:
        deadline = self.cleaned_data["deadline"]
        validate_deadline_year(deadline)  # before comparing: year 1 in Taipei has no UTC time
        if self.instance.pk is None and deadline <= timezone.now():
            raise forms.ValidationError(_("The deadline must be in the future."))
        return deadline


class SubmissionForm(forms.Form):
    """A player's list: one of their saved decks, or a pasted list, or a file."""

    player_name = forms.CharField(label=_("Your name, as on your registration"), max_length=100)
    deck = forms.ModelChoiceField(
        widget=ChineseAwareSelect,
        label=_("One of my decks"),
        queryset=Deck.objects.none(),
        required=False,
        empty_label=_("— none: I paste a list —"),
    )
    list = forms.CharField(
        label=_("…or a deck list"),
        required=False,
        max_length=MAX_BYTES,
        strip=False,
        widget=forms.Textarea(attrs={"class": "decklist", "spellcheck": "false", "autocomplete": "off", "rows": 10}),
    )
    file = forms.FileField(label=_("…or a .txt file"), required=False)

    def __init__(self, *args: Any, user: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        deck_field = self.fields["deck"]
        assert isinstance(deck_field, forms.ModelChoiceField)
        deck_field.queryset = Deck.objects.owned_by(user).order_by("-updated")

    def clean_file(self) -> str | None:
        return read_list_file(self.cleaned_data.get("file"))

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        deck, pasted, uploaded = data.get("deck"), (data.get("list") or "").strip(), data.get("file")
        if self.errors:
            return data
        if sum(bool(x) for x in (deck, pasted, uploaded)) != 1:
            raise forms.ValidationError(_("Choose one of your decks, or paste a list, or choose a file: one of them."))
        # A pasted deck code is stored as the list it stands for (decks.intake, as everywhere).
        data["text"] = deck_services.deck_text(deck) if deck else intake.list_text(uploaded or data["list"])
        return data  # whether the text is a list at all, events.services.submit decides


class TournamentSettingsForm(forms.ModelForm):
    """How the day runs: the organiser's choice, with the usual card-game defaults."""

    rounds = forms.IntegerField(  # its bounds are the model field's (events.models.SWISS_ROUNDS)
        label=_("Swiss rounds"), required=False, help_text=_("Empty: ⌈log2 n⌉ for n players.")
    )

    class Meta:
        model = Event
        fields = [
            "best_of",
            "win_points",
            "draw_points",
            "loss_points",
            "rounds",
            "round_minutes",
            "top_cut",
            "lists_public",
            "checkin_open",
            "late_entry_losses",
            "hold_pairings",
            "top_cut_reseed",
        ]
        labels = {
            "best_of": _("Best of"),
            "win_points": _("Points for a win"),
            "draw_points": _("Points for a draw"),
            "loss_points": _("Points for a loss"),
            "round_minutes": _("Round length (minutes)"),
            "top_cut": _("Top cut"),
            "lists_public": _("Lists become public"),
            "checkin_open": _("Check-in is open"),
            "late_entry_losses": _("A late entry has a match loss for each round already paired"),
            "hold_pairings": _("Hold pairings: pair each round as a draft, check it, then publish it"),
            "top_cut_reseed": _("Re-seed the top cut each round (else a fixed bracket)"),
        }

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["top_cut"].choices = [(0, _("none")), (4, "4"), (8, "8"), (16, "16")]  # type: ignore[attr-defined]
        self.fields["lists_public"].choices = [  # type: ignore[attr-defined]
            ("never", _("never")),
            ("top_cut", _("at the top cut")),
            ("after", _("after the event")),
        ]
        for name in ("win_points", "draw_points", "loss_points"):
            self.fields[name].widget.attrs.update({"min": 0, "max": 10})
        self.fields["round_minutes"].widget.attrs.update({"min": 5, "max": 240})

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        for name, top in (("win_points", 10), ("draw_points", 10), ("loss_points", 10), ("round_minutes", 240)):
            value = data.get(name)
            if value is not None and not (0 if name != "round_minutes" else 5) <= value <= top:
                self.add_error(name, _("Out of range."))
        return data


class LatePlayerForm(forms.Form):
    name = forms.CharField(label=_("Player"), max_length=100)
    text = forms.CharField(
        label=_("Deck list"), max_length=MAX_BYTES, strip=False, widget=forms.Textarea(attrs={"rows": 4})
    )


class GamesForm(forms.Form):
    """A match's games, from the side of the one entering them."""

    wins = forms.IntegerField(label=_("Won"), min_value=0, max_value=3)
    losses = forms.IntegerField(label=_("Lost"), min_value=0, max_value=3)
    # Left empty, as a phone's form often is, it means none.
    draws = forms.IntegerField(label=_("Drawn"), min_value=0, max_value=3, initial=0, required=False)

    def clean_draws(self) -> int:
        return self.cleaned_data.get("draws") or 0


class JudgeForm(forms.Form):
    username = forms.CharField(label=_("Co-organiser's username"), max_length=150)


class MetaForm(forms.Form):
    format = forms.ChoiceField(label=_("Format"), choices=lambda: [("", "—"), *format_choices()], required=False)
    since = forms.DateField(label=_("From"), required=False, widget=forms.DateInput(attrs={"type": "date"}))
    until = forms.DateField(label=_("To"), required=False, widget=forms.DateInput(attrs={"type": "date"}))


class SeasonForm(forms.Form):
    """A season of the ratings: a calendar year."""

    season = forms.IntegerField(label=_("Season"), min_value=2000, max_value=2100, required=False)
    region = forms.ChoiceField(label=_("Region"), required=False, choices=regions.form_choices(_("— all —")))


class PenaltyForm(forms.ModelForm):
    """A penalty: the kinds and the note's length are the model's."""

    player = forms.TypedChoiceField(label=_("Player"), coerce=int, choices=())
    field_order = ["player", "kind", "note"]

    class Meta:
        model = Penalty
        fields = ["kind", "note"]  # the player is chosen by id among the event's: the service finds them
        labels = {"kind": _("Penalty"), "note": _("Note")}

    def __init__(self, *args: Any, players: Any = (), **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        choices = [(p.pk, p.name) for p in players]
        field = self.fields["player"]
        assert isinstance(field, forms.TypedChoiceField)
        field.choices = choices
        field.widget = ChineseAwareSelect(choices=choices)


class TableForm(forms.Form):
    """A table of the newest round by hand: pair two players (the second empty: a bye), give a
    match loss, or remove the table."""

    action = forms.ChoiceField(choices=[(a, a) for a in ("pair", "loss", "remove")])
    table = forms.IntegerField(label=_("Table"), validators=TABLE_NUMBERS, required=False)
    player_a = forms.IntegerField(label=_("Player"), min_value=1, required=False)
    player_b = forms.IntegerField(label=_("Opponent"), min_value=1, required=False)

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        action = data.get("action")
        if action in ("pair", "remove") and data.get("table") is None:
            raise forms.ValidationError(_("Give the table's number."))
        if action in ("pair", "loss") and data.get("player_a") is None:
            raise forms.ValidationError(_("Choose a player."))
        return data


class SeatingForm(forms.Form):
    """A player's first-round bye and fixed table (the table's bounds are the model field's)."""

    player = forms.IntegerField(label=_("Player"), min_value=1)
    first_round_bye = forms.BooleanField(label=_("A bye in round 1"), required=False)
    fixed_table = forms.IntegerField(label=_("Fixed table"), required=False, validators=TABLE_NUMBERS)


class LinkPlayerForm(forms.Form):
    """The organiser names the account of a typed-in player (events.claims)."""

    player = forms.IntegerField(label=_("Player"), min_value=1)
    username = forms.CharField(label=_("Their username"), max_length=150)


class FixListForm(forms.Form):
    """The organiser replaces a player's list (the list's bound is the checker's)."""

    player = forms.IntegerField(label=_("Player"), min_value=1)
    text = forms.CharField(
        label=_("Deck list"), max_length=MAX_BYTES, strip=False, widget=forms.Textarea(attrs={"rows": 4})
    )


# At most this many photos or PDFs in one upload (a PDF holds up to catalog.scans.PDF_PAGES pages).
MAX_SHEET_FILES = 20


class PaperUploadForm(forms.Form):
    """Photos (a phone's camera) or PDFs of the paper lists handed in."""

    sheets = MultipleFileField(
        label=_("Photos or PDFs of the sheets"),
        widget=MultipleFileInput(
            attrs={
                "accept": "image/*,.heic,.heif,application/pdf",
                "capture": "environment",
                "data-shrink": SEND_SIDE_SHEETS,
            }
        ),
    )

    def clean_sheets(self) -> list[Any]:
        sheets: list[Any] = self.cleaned_data["sheets"]
        if len(sheets) > MAX_SHEET_FILES:
            raise forms.ValidationError(_("At most %(n)d files at once.") % {"n": MAX_SHEET_FILES}, code="too_many")
        return sheets


class PaperListForm(forms.Form):
    """A paper list as the organiser confirms it: the player's name and the list, checked."""

    player_name = forms.CharField(label=_("Player name"), max_length=100)
    text = forms.CharField(
        label=_("Deck list"),
        max_length=MAX_BYTES,
        strip=False,
        # Written as the deck-list reader reads it (武將:, 牌庫:), card names in Traditional.
        widget=forms.Textarea(
            attrs={"class": "decklist", "spellcheck": "false", "autocomplete": "off", "rows": 14, "lang": "zh-Hant"}
        ),
    )


class DirectoryForm(forms.Form):
    """The events directory's filters (GET): region, city, format, a date range, or a month of
    the calendar; "near me" is the region of the reader's profile."""

    region = forms.ChoiceField(label=_("Region"), required=False, choices=regions.form_choices(_("— all —")))
    city = forms.CharField(label=_("City"), max_length=50, required=False)
    format = forms.ChoiceField(label=_("Format"), choices=lambda: [("", "—"), *format_choices()], required=False)
    since = forms.DateField(label=_("From"), required=False, widget=forms.DateInput(attrs={"type": "date"}))
    until = forms.DateField(label=_("To"), required=False, widget=forms.DateInput(attrs={"type": "date"}))
    month = forms.DateField(
        label=_("Month"),
        required=False,
        input_formats=["%Y-%m"],
        widget=forms.DateInput(attrs={"type": "month"}, format="%Y-%m"),
    )

    def clean_month(self) -> Any:
        month = self.cleaned_data.get("month")
        if month is not None and not 2000 <= month.year <= 2999:
            raise forms.ValidationError(_("Choose a month between the years 2000 and 2999."))
        return month

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        for name in ("since", "until"):
            day = data.get(name)
            if day is not None and not 2000 <= day.year <= 2999:
                self.add_error(name, _("Choose a date between the years 2000 and 2999."))
        return data
