"""The catalogue's filters and sorts, shared by the card list page and the API."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import django_filters
from django import forms
from django.db.models import F, QuerySet
from django.utils.text import format_lazy
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from catalog import facts, query
from catalog.models import Card
from catalog.vocab import SETS
from webutil.querystring import tidy_query

MAX_TEXT_FILTER = 200

# sort value -> order_by fields; the catalogue order (position) breaks ties.
SORTS: dict[str, list[Any]] = {
    "code": ["position"],
    "name": ["name_sort", "position"],
    "cost": [F("cost").asc(nulls_last=True), "position"],
    "power": [F("power").asc(nulls_last=True), "position"],
    "health": [F("health").asc(nulls_last=True), "position"],
    "rarity": [F("rarity_rank").asc(nulls_last=True), "position"],
}
SORT_CHOICES = [
    ("code", _("Code")),
    ("-code", _("Code (descending)")),
    ("name", _("Name")),
    ("-name", _("Name (descending)")),
    ("cost", _("Cost")),
    ("-cost", _("Cost (descending)")),
    ("power", _("Power")),
    ("-power", _("Power (descending)")),
    ("health", _("Health")),
    ("-health", _("Health (descending)")),
    ("rarity", _("Rarity")),
    ("-rarity", _("Rarity (descending)")),
]


# What the sort box shows when the address names none: left out of shared addresses.
TIDY_DEFAULTS = {"sort": SORT_CHOICES[0][0]}


@dataclass(frozen=True)
class InUse:
    """One chosen filter value, and the query without it (a chip that removes it)."""

    field: str
    label: str
    value: str
    text: str  # a choice's own label (a set's printed name); the value itself otherwise
    choice: bool
    without: str


def _descending(field: Any) -> Any:
    if isinstance(field, str):
        return F(field).desc()
    return F(field.expression.name).desc(nulls_last=True)


class ChoicesFilter(django_filters.MultipleChoiceFilter):
    """Several values of one field (`?kind=troop&kind=tactic`), ticked boxes on the page."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("widget", forms.CheckboxSelectMultiple)
        super().__init__(*args, **kwargs)


class QueryField(forms.CharField):
    """The search box: parsed by the query language when the form is cleaned, so that a query
    that cannot be read is a form error (400) that says where, before any SQL runs."""

    def clean(self, value: Any) -> Any:
        text = super().clean(value)
        if not text:
            return None
        try:
            return query.parse(text)
        except query.QueryError as exc:
            raise forms.ValidationError(str(exc), code="query") from None


class QueryFilter(django_filters.CharFilter):
    field_class = QueryField


class IntegerFilter(django_filters.NumberFilter):
    """A number filter that takes whole numbers only (3, not 3.5)."""

    field_class = forms.IntegerField


def _fact_filters() -> dict[str, django_filters.Filter]:
    """The filters of the facts that have one (catalog.facts), in the registry's order: a
    choice by ticked boxes, a number exactly (and by a range when the fact says so), a text
    as printed."""
    out: dict[str, django_filters.Filter] = {}
    for fact in facts.FILTERS:
        if fact.choices is not None:
            out[fact.name] = ChoicesFilter(choices=fact.choices.choices, label=fact.label)
        elif fact.kind == facts.INT:
            bounds = {"min_value": fact.low, "max_value": fact.high}
            out[fact.name] = IntegerFilter(label=fact.label, **bounds)
            if fact.filter == facts.RANGE:
                out[f"{fact.name}_min"] = IntegerFilter(
                    field_name=fact.name,
                    lookup_expr="gte",
                    label=format_lazy(_("{fact} at least"), fact=fact.label),
                    **bounds,
                )
                out[f"{fact.name}_max"] = IntegerFilter(
                    field_name=fact.name,
                    lookup_expr="lte",
                    label=format_lazy(_("{fact} at most"), fact=fact.label),
                    **bounds,
                )
        else:
            out[fact.name] = django_filters.CharFilter(label=fact.label, max_length=MAX_TEXT_FILTER)
    return out


class CardFilterBase(django_filters.FilterSet):
    """The search box and the set, which are not card facts; CardFilter adds the facts'."""

    q = QueryFilter(method="filter_q", label=_("Search"), max_length=int(query.QUERY_CHARACTERS))
    set = ChoicesFilter(
        field_name="set__code", label=pgettext_lazy("a set of cards", "Set"), choices=list(SETS.items())
    )

    class Meta:
        model = Card
        fields: list[str] = []

    def choice_fields(self) -> list[Any]:
        """The form's fields of ticked boxes (drawn as chips), then the others."""
        return [self.form[name] for name, f in self.filters.items() if isinstance(f, ChoicesFilter)]

    def other_fields(self) -> list[Any]:
        return [self.form[name] for name, f in self.filters.items() if name != "q" and not isinstance(f, ChoicesFilter)]

    def in_use(self) -> list[InUse]:
        """Every filter value the address chose, beyond the search box and the sort."""
        data = tidy_query(self.data, TIDY_DEFAULTS) or self.data
        chips = []
        for name, values in data.lists():
            if name in ("q", "sort") or name not in self.filters:
                continue
            choice = isinstance(self.filters[name], ChoicesFilter)
            texts = dict(self.filters[name].extra.get("choices", [])) if choice else {}
            for value in values:
                rest = data.copy()
                rest.setlist(name, [v for v in values if v != value])
                rest.pop("page", None)
                label = str(self.filters[name].label)
                chips.append(InUse(name, label, value, str(texts.get(value, value)), choice, rest.urlencode()))
        return chips

    def filter_q(self, queryset: QuerySet[Card], name: str, value: query.Node) -> QuerySet[Card]:
        return query.apply(queryset, value)

    def filter_sort(self, queryset: QuerySet[Card], name: str, value: str) -> QuerySet[Card]:
        key = value.lstrip("-")
        fields = SORTS[key]
        if value.startswith("-"):
            return queryset.order_by(*[_descending(f) for f in fields])
        return queryset.order_by(*fields)


# The sort last: it is drawn after the filters.
CardFilter: type[CardFilterBase] = type(
    "CardFilter",
    (CardFilterBase,),
    {
        **_fact_filters(),
        "sort": django_filters.ChoiceFilter(
            choices=SORT_CHOICES, method="filter_sort", label=_("Sort"), empty_label=None
        ),
        "__module__": __name__,
        "__doc__": "The card list's filters: the search box, the set, each fact's, and the sort.",
    },
)
