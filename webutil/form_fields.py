"""Form fields shared by every app: choices of rows by id that a hostile value cannot turn into
a database error."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext as _

from webutil.numbers import whole_number
from webutil.text import CJK

MAX_ROW_ID = 2**63 - 1  # the largest id a database column holds


def _row_id(value: object) -> object:
    """An id as a form sent it, checked before it reaches the database: ASCII digits within a
    column's range, or (for "nothing chosen") empty. Anything else is an id no row has."""
    if value in (None, ""):
        return value
    number = whole_number(str(value), low=1, high=MAX_ROW_ID, max_digits=19)
    if number is None:
        raise forms.ValidationError(_("Choose one of the offered options."), code="invalid_choice")
    return number


class RowChoiceField(forms.ModelChoiceField):  # type: ignore[type-arg]  # generic in the stubs only
    """A ModelChoiceField that refuses "²", "1e309" or 2**64 with a form error, not a 500."""

    def to_python(self, value: Any) -> Any:
        return super().to_python(_row_id(value))


class RowMultipleChoiceField(forms.ModelMultipleChoiceField):  # type: ignore[type-arg]  # generic in the stubs only
    """ModelMultipleChoiceField with each id checked as RowChoiceField checks it."""

    def clean(self, value: Any) -> Any:
        if isinstance(value, list | tuple):
            value = [_row_id(v) for v in value]
        return super().clean(value)


class ChineseAwareSelect(forms.Select):
    """Options named by users (deck names) are marked as Chinese when they hold Chinese."""

    def create_option(self, *args: Any, **kwargs: Any) -> dict[str, Any]:
        option = super().create_option(*args, **kwargs)
        if CJK.search(str(option["label"])):
            option["attrs"]["lang"] = "zh"
        return option
