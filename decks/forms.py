from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from decks.i18n import pick
from rules_check import DEFAULT_FORMAT, FORMATS, DeckListError, decode
from rules_check.decklist import MAX_BYTES


def format_choices() -> list[tuple[str, str]]:
    return [(name, f"{fmt.label} · {fmt.label_en} ({fmt.min_cards}–{fmt.max_cards})") for name, fmt in FORMATS.items()]


class CheckDeckForm(forms.Form):
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
        upload = self.cleaned_data.get("file")
        if not upload:
            return None
        if upload.size > MAX_BYTES:
            raise forms.ValidationError(_("The file is larger than 64 KiB."))
        try:
            return decode(upload.read(MAX_BYTES + 1))
        except DeckListError as exc:
            raise forms.ValidationError(pick(exc.message, exc.message_en)) from None

    def deck_text(self) -> str:
        return self.cleaned_data.get("file") or self.cleaned_data.get("list") or ""
