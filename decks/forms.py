from __future__ import annotations

import re
from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from decks.batch import MAX_ZIP_BYTES, ZIP
from decks.close import DEFAULT_MISSING, MAX_MISSING
from decks.i18n import format_label, pick
from decks.models import MAX_DESCRIPTION, MAX_TAG, MAX_TAGS, Visibility
from groups import formats
from groups.models import Group
from rules_check import DEFAULT_FORMAT, FORMATS, DeckListError, decode
from rules_check.decklist import MAX_BYTES
from webutil.form_fields import ChineseAwareSelect, RowMultipleChoiceField
from webutil.text import strip_bidi
from webutil.uploads import MultipleFileField


def format_choices(user: Any = None) -> list[Any]:
    """The official formats, then the house formats of each of the user's play groups under the
    group's name."""
    choices: list[Any] = [(name, _sized(format_label(name), fmt)) for name, fmt in FORMATS.items()]
    by_group: dict[str, list[tuple[str, str]]] = {}
    for house in formats.house_formats_of(user) if user is not None else []:
        by_group.setdefault(house.group.name, []).append((house.key, _sized(house.name, house)))
    return choices + list(by_group.items())


def _keys(choices: list[Any]) -> set[str]:
    return {k for key, label in choices for k in ([c for c, _l in label] if isinstance(label, list) else [key])}


def _sized(label: str, fmt: Any) -> str:
    return f"{label} ({fmt.min_cards}–{fmt.max_cards})"


class FormatChoiceForm(forms.Form):
    """A form with a `format`: its choices are the formats its user may choose."""

    def __init__(self, *args: Any, user: Any = None, keep: str | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        field = self.fields["format"]
        assert isinstance(field, forms.ChoiceField)
        field.widget = ChineseAwareSelect(attrs=field.widget.attrs)  # house formats are named by players
        choices = format_choices(user)
        if keep and keep not in _keys(choices):
            # A deck keeps its house format after its owner left the group: still a choice here.
            house = formats.house_format(keep)
            if house is not None:
                choices.append((keep, _sized(house.name, house)))
        field.choices = choices


def read_list_file(upload: Any) -> str | None:
    """An uploaded deck-list file as text (at most 64 KiB, any common encoding), or a form error."""
    if not upload:
        return None
    if upload.size > MAX_BYTES:
        raise forms.ValidationError(_("The file is larger than 64 KiB."))
    try:
        return strip_bidi(decode(upload.read(MAX_BYTES + 1)))
    except DeckListError as exc:
        raise forms.ValidationError(pick(exc.message, exc.message_en)) from None


class CheckDeckForm(FormatChoiceForm):
    list = forms.CharField(
        label=_("Deck list"),
        required=False,
        max_length=MAX_BYTES,
        strip=False,
        widget=forms.Textarea(attrs={"class": "decklist", "spellcheck": "false", "autocomplete": "off"}),
    )
    file = forms.FileField(label=_("…or a .txt file"), required=False)
    format = forms.ChoiceField(label=_("Format"), choices=format_choices, initial=DEFAULT_FORMAT)

    def clean_file(self) -> str | None:
        return read_list_file(self.cleaned_data.get("file"))

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if not self.errors and not (data.get("file") or (data.get("list") or "").strip()):
            # Nothing to check is not a deck of 0 cards: ask for the list.
            raise forms.ValidationError(_("Paste a deck list, or choose a .txt file."), code="empty")
        return data

    def deck_text(self) -> str:
        return self.cleaned_data.get("file") or self.cleaned_data.get("list") or ""


class DeckSettingsForm(FormatChoiceForm):
    name = forms.CharField(label=_("Name"), max_length=100)
    format = forms.ChoiceField(label=_("Format"), choices=format_choices)
    description = forms.CharField(
        label=_("Description (Markdown)"),
        required=False,
        max_length=MAX_DESCRIPTION,
        widget=forms.Textarea(attrs={"rows": 4}),
    )
    visibility = forms.ChoiceField(
        label=_("Who reads it"),
        choices=Visibility.choices,
        help_text=_("Public: listed and searched. Unlisted: only whoever has its link."),
        widget=forms.Select(attrs={"aria-describedby": "visibility-hint"}),
        # Left out of a post, as the old "public" box was when unticked: private.
        required=False,
    )
    tags = forms.CharField(
        label=_("Tags"), required=False, max_length=MAX_TAGS * (MAX_TAG + 2), help_text=_("Separated by commas.")
    )
    built = forms.BooleanField(label=_("Built (sleeved): its cards are taken from my collection"), required=False)
    archived = forms.BooleanField(label=_("Archived: listed apart from my other decks"), required=False)
    groups = RowMultipleChoiceField(
        label=_("Shared with my groups"),
        help_text=_("their members can read, clone and compare it; nobody else sees it unless it is public"),
        queryset=Group.objects.none(),
        required=False,
        widget=forms.CheckboxSelectMultiple,
    )

    def __init__(self, *args: Any, user: Any, keep: str | None = None, **kwargs: Any) -> None:
        super().__init__(*args, user=user, keep=keep, **kwargs)
        groups = self.fields["groups"]
        assert isinstance(groups, RowMultipleChoiceField)
        groups.queryset = Group.objects.of(user)

    def clean_visibility(self) -> str:
        return str(self.cleaned_data.get("visibility") or Visibility.PRIVATE)

    def clean_tags(self) -> list[str]:
        return clean_tags(re.split(r"[,，、;；]", self.cleaned_data["tags"]))


def clean_tags(names: list[Any]) -> list[str]:
    """Tags as given, trimmed, without repeats; a wrong one is an error, not dropped."""
    out: list[str] = []
    for raw in names:
        if not isinstance(raw, str):
            raise forms.ValidationError(_("A tag is text."))
        name = " ".join(raw.split())
        if not name:
            continue
        if len(name) > MAX_TAG:
            raise forms.ValidationError(_("A tag has at most %(n)d characters.") % {"n": MAX_TAG})
        if name not in out:
            out.append(name)
    if len(out) > MAX_TAGS:
        raise forms.ValidationError(_("At most %(n)d tags.") % {"n": MAX_TAGS})
    return out


class EntryForm(forms.Form):
    action = forms.ChoiceField(
        choices=[(a, a) for a in ("inc", "dec", "set", "playset", "remove", "general", "no_general")]
    )
    card = forms.CharField(max_length=60, required=False)
    count = forms.IntegerField(min_value=0, max_value=999, required=False)
    section = forms.ChoiceField(choices=[("main", "main"), ("reinforcements", "reinforcements")], required=False)


class ImportDeckForm(FormatChoiceForm):
    name = forms.CharField(label=_("Name"), max_length=100, initial=_("Imported deck"))
    format = forms.ChoiceField(label=_("Format"), choices=format_choices, initial=DEFAULT_FORMAT)
    text = forms.CharField(
        label=_("Deck list or deck code"),
        required=False,
        max_length=MAX_BYTES,
        strip=False,
        widget=forms.Textarea(attrs={"class": "decklist", "spellcheck": "false"}),
    )
    file = forms.FileField(label=_("…or a .txt file"), required=False)

    def clean_file(self) -> str | None:
        return read_list_file(self.cleaned_data.get("file"))

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if not (data.get("file") or (data.get("text") or "").strip()):
            raise forms.ValidationError(_("Paste a deck list or a deck code, or choose a file."))
        return data


class PasteForm(forms.Form):
    """The builder's pasted list: its cards are added to the deck (the import page's reader)."""

    text = forms.CharField(
        label=_("Paste a deck list"),
        max_length=MAX_BYTES,
        strip=False,
        widget=forms.Textarea(attrs={"class": "decklist", "spellcheck": "false", "rows": 4}),
    )


class BatchCheckForm(FormatChoiceForm):
    # A form field named "files" shadows BaseForm.files (the uploads) in the stubs only: Django
    # keeps declared fields in base_fields, never as attributes.
    files = MultipleFileField(label=_("Deck-list files (.txt) or one .zip of them"))  # type: ignore[assignment]  # see above
    format = forms.ChoiceField(label=_("Format"), choices=format_choices, initial=DEFAULT_FORMAT)
    as_csv = forms.BooleanField(label=_("Download the table as CSV"), required=False)
    save_as = forms.CharField(
        label=_("…or save the lists as an event named"),
        required=False,
        max_length=100,
        help_text=_("Logged-in organisers only. The event is closed to new lists; lock it when you are ready."),
    )


class ArchiveUploadForm(forms.Form):
    file = forms.FileField(label=_("A zip of decks downloaded from this site, or of .txt deck lists"))

    def clean_file(self) -> Any:
        upload = self.cleaned_data["file"]
        if upload.size > MAX_ZIP_BYTES:
            raise forms.ValidationError(_("The zip file is larger than %(size)s.") % {"size": ZIP.shown})
        return upload


class CloseEnoughForm(forms.Form):
    """How many copies a purchase of "what to buy next" may take."""

    missing = forms.TypedChoiceField(
        label=_("Copies to buy at most"),
        choices=[(n, str(n)) for n in range(1, MAX_MISSING + 1)],
        coerce=int,
        initial=DEFAULT_MISSING,
    )
