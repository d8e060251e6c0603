from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from catalog.images import SEND_SIDE_CARDS
from collection.models import MAX_COPIES
from webutil.i18n import wants_english
from webutil.text import CJK
from webutil.uploads import MultipleFileField, MultipleFileInput

ACTIONS = {
    "inc": (1, 0),
    "dec": (-1, 0),
    "inc_foil": (0, 1),
    "dec_foil": (0, -1),
}


class ChangeForm(forms.Form):
    action = forms.ChoiceField(choices=[(a, a) for a in [*ACTIONS, "set"]])
    quantity = forms.IntegerField(required=False, min_value=0, max_value=MAX_COPIES, label=_("Copies"))
    foil_quantity = forms.IntegerField(required=False, min_value=0, max_value=MAX_COPIES, label=_("Foil copies"))

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if data.get("action") not in (None, "set"):
            # A stepper shares its form with the typed counts, which it does not read: a number
            # typed there and not set yet must not stop a +1.
            for name in ("quantity", "foil_quantity"):
                self.errors.pop(name, None)
                data.pop(name, None)
        if data.get("action") == "set" and data.get("quantity") is None and data.get("foil_quantity") is None:
            raise forms.ValidationError(_("Give a number of copies to set."))
        return data


class WantedForm(forms.Form):
    wanted = forms.IntegerField(min_value=0, max_value=MAX_COPIES, label=_("Wanted"))


class ImportForm(forms.Form):
    file = forms.FileField(label=_("CSV file"))
    mode = forms.ChoiceField(
        label=_("Mode"),
        choices=[("add", _("Add to what I have")), ("replace", _("Replace my counts with the file"))],
        initial="add",
        widget=forms.RadioSelect,
    )


# At most this many photos in one upload (a user has at most MAX_WAITING_SCANS waiting anyway).
MAX_PHOTOS_AT_ONCE = 10


class ScanUploadForm(forms.Form):
    # Not "files": a field of that name shadows BaseForm.files in the stubs.
    photos = MultipleFileField(
        label=_("Photos of your cards"),
        widget=MultipleFileInput(
            attrs={"accept": "image/*,.heic,.heif", "capture": "environment", "data-shrink": SEND_SIDE_CARDS}
        ),
    )

    def clean_photos(self) -> list[Any]:
        photos: list[Any] = self.cleaned_data["photos"]
        if len(photos) > MAX_PHOTOS_AT_ONCE:
            raise forms.ValidationError(_("At most %(n)d photos at once.") % {"n": MAX_PHOTOS_AT_ONCE}, code="too_many")
        return photos


class _MarkedSelect(forms.Select):
    """A choice of cards: a Chinese name on a page in English says it is Chinese."""

    def create_option(self, *args: Any, **kwargs: Any) -> dict[str, Any]:
        option: dict[str, Any] = super().create_option(*args, **kwargs)
        if wants_english() and CJK.search(str(option["label"])):
            option["attrs"]["lang"] = "zh-Hant"
        return option


class ScanApplyForm(forms.Form):
    """What to add of a read photo: for each card found, which card it is (the match or one of
    its alternatives, or none) and how many regular and foil copies."""

    def __init__(self, found: list[dict[str, Any]], labels: dict[str, str], *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.found = found
        for i, item in enumerate(found):
            codes = [item["card"], *(a["card"] for a in item.get("alternatives", []))]
            choices = [(code, labels.get(code, code)) for code in codes] + [("", _("none of these"))]
            self.fields[f"card_{i}"] = forms.ChoiceField(
                label=_("Card"), choices=choices, initial=item["card"], required=False, widget=_MarkedSelect
            )
            self.fields[f"add_{i}"] = forms.IntegerField(
                label=_("Copies"), min_value=0, max_value=MAX_COPIES, initial=1, required=False
            )
            self.fields[f"foil_{i}"] = forms.IntegerField(
                label=_("Foil copies"), min_value=0, max_value=MAX_COPIES, initial=0, required=False
            )

    def rows(self) -> list[tuple[dict[str, Any], Any, Any, Any]]:
        return [(item, self[f"card_{i}"], self[f"add_{i}"], self[f"foil_{i}"]) for i, item in enumerate(self.found)]

    def additions(self) -> list[tuple[str, int, int]]:
        """(code, copies, foil copies) of each card kept, as checked."""
        out = []
        for i in range(len(self.found)):
            code = self.cleaned_data.get(f"card_{i}") or ""
            add, foil = self.cleaned_data.get(f"add_{i}") or 0, self.cleaned_data.get(f"foil_{i}") or 0
            if code and (add or foil):
                out.append((code, add, foil))
        return out
