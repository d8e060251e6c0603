from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from collection.models import MAX_COPIES

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
