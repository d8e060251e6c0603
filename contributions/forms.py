from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext

from catalog import facts, rulings
from catalog.models import MAX_ANSWER, MAX_QUESTION, MAX_SOURCE, Card, Ruling
from catalog.rulings import MAX_URL
from contributions.models import MAX_NOTE
from webutil.form_fields import ChineseAwareSelect


class ProposalForm(forms.Form):
    """One optional field per fact the card may have, shown beside its current value; the note
    on the source is required. Values are read as the query language reads them (slugs, Chinese
    in either script, English), and checked in contributions.services."""

    note = forms.CharField(
        label=_("Source"),
        max_length=MAX_NOTE,
        help_text=_("Where the facts come from, for example “my copy, 2nd printing”."),
        widget=forms.TextInput(attrs={"autocomplete": "off"}),
    )
    front = forms.FileField(label=_("Photo of the front"), required=False)
    back = forms.FileField(label=_("Photo of the back"), required=False)

    def __init__(self, card: Card, *args: Any, photos: bool = True, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.card = card
        self.fact_names = [fact.name for fact in facts.offered(card)]
        for fact in facts.offered(card):
            widget: forms.Widget
            if fact.kind == facts.TEXT and fact.max_length > 100:
                widget = forms.Textarea(attrs={"rows": 4, "lang": "zh-Hant"})
            elif fact.kind == facts.INT:
                widget = forms.TextInput(attrs={"inputmode": "numeric"})
            else:
                widget = forms.TextInput()
            self.fields[fact.name] = forms.CharField(
                label=fact.label, required=False, max_length=fact.input_length, widget=widget
            )
        if not photos:
            del self.fields["front"], self.fields["back"]
        # The note last but one, photos last: the facts come first on a phone.
        order = [*self.fact_names, "note", "front", "back"]
        self.order_fields(order)

    def fact_fields(self) -> list[Any]:
        return [self[name] for name in self.fact_names]

    def other_fields(self) -> list[Any]:
        return [self[name] for name in ("note", "front", "back") if name in self.fields]

    def proposed(self) -> dict[str, str]:
        return {name: self.cleaned_data[name] for name in self.fact_names if self.cleaned_data.get(name, "").strip()}

    def photos_to_choose_again(self) -> str:
        """The photos that came with a refused form, named: a browser never fills a file field
        again, so the page says, at the top, which to choose again."""
        if not self.is_bound or not self.errors:
            return ""
        sides = [
            str(self.fields[side].label) for side in ("front", "back") if side in self.fields and self.files.get(side)
        ]
        return pgettext("between the items of a list", ", ").join(sides)

    def uploads(self) -> dict[str, Any]:
        return {side: self.cleaned_data[side] for side in ("front", "back") if self.cleaned_data.get(side)}


class RulingForm(forms.Form):
    """A proposed ruling: the question, its answer, where the answer comes from and when, the
    other cards it concerns and the ruling it replaces. Checked in catalog.rulings (through
    contributions.services), as the API's are."""

    question = forms.CharField(
        label=_("Question"),
        max_length=MAX_QUESTION,
        widget=forms.Textarea(attrs={"rows": 3}),
        help_text=_("The situation at the table, as a question."),
    )
    answer = forms.CharField(label=_("Answer"), max_length=MAX_ANSWER, widget=forms.Textarea(attrs={"rows": 4}))
    source_kind = forms.ChoiceField(label=_("Kind of source"), choices=Ruling.Source.choices)
    source = forms.CharField(
        label=_("Source"),
        max_length=MAX_SOURCE,
        help_text=_("The document's name, or who ruled: “Official FAQ v2”, “Judge Wang at the Taipei open”."),
        widget=forms.TextInput(attrs={"autocomplete": "off"}),
    )
    url = forms.CharField(
        label=_("Link to the source"),
        required=False,
        max_length=MAX_URL,
        widget=forms.URLInput(attrs={"inputmode": "url", "placeholder": "https://"}),
    )
    decided_on = forms.CharField(
        label=_("Date of the ruling"), max_length=10, widget=forms.DateInput(attrs={"type": "date"})
    )
    cards = forms.CharField(
        label=_("Other cards it concerns"),
        required=False,
        max_length=400,
        help_text=_("Their codes, separated by spaces or commas (optional)."),
        widget=forms.TextInput(attrs={"autocomplete": "off", "autocapitalize": "characters"}),
    )
    replaces = forms.ChoiceField(label=_("It supersedes"), required=False, widget=ChineseAwareSelect)

    def __init__(self, card: Card, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.card = card
        earlier = rulings.replaceable(card)
        choices: list[tuple[str, str]] = [("", str(_("No earlier ruling")))]
        choices += [(str(r.pk), f"#{r.pk} {r.decided_on.isoformat()} {r.question[:60]}") for r in earlier]
        field = self.fields["replaces"]
        assert isinstance(field, forms.ChoiceField)
        field.choices = choices
        if not earlier:
            del self.fields["replaces"]

    def proposed(self) -> dict[str, Any]:
        return {name: value for name, value in self.cleaned_data.items() if value not in (None, "")}
