from __future__ import annotations

from typing import Any

from django import forms
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from decks import intake
from decks import services as deck_services
from decks.forms import format_choices, read_list_file
from decks.models import Deck
from events.models import Event
from rules_check import DEFAULT_FORMAT
from rules_check.decklist import MAX_BYTES
from webutil.text import CJK

_LOCAL_MINUTE = "%Y-%m-%dT%H:%M"


class EventForm(forms.ModelForm):
    # Formats are data (rules_check/formats.json): the choice is the form's, not the model's.
    format = forms.ChoiceField(label=_("Format"), choices=format_choices, initial=DEFAULT_FORMAT)
    deadline = forms.DateTimeField(
        label=_("Deadline for lists"),
        input_formats=[_LOCAL_MINUTE, "%Y-%m-%d %H:%M"],
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}, format=_LOCAL_MINUTE),
        help_text=_("Time in Taipei (UTC+8)."),
    )
    starts_on = forms.DateField(
        label=_("Date of the event"), required=False, widget=forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d")
    )

    class Meta:
        model = Event
        fields = ["name", "format", "deadline", "starts_on"]
        labels = {"name": _("Name"), "format": _("Format")}

    def clean_deadline(self) -> Any:
        deadline = self.cleaned_data["deadline"]
        # Far-off years are typos, and year 1 in Taipei is year 0 in UTC: no datetime holds it.
        if not 2000 <= deadline.year <= 2999:
            raise forms.ValidationError(_("Enter a deadline between the years 2000 and 2999."))
        if self.instance.pk is None and deadline <= timezone.now():
            raise forms.ValidationError(_("The deadline must be in the future."))
        return deadline


class ChineseAwareSelect(forms.Select):
    """Options named by users (deck names) are marked as Chinese when they hold Chinese."""

    def create_option(self, *args: Any, **kwargs: Any) -> dict[str, Any]:
        option = super().create_option(*args, **kwargs)
        if CJK.search(str(option["label"])):
            option["attrs"]["lang"] = "zh"
        return option


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
