"""The catalogue's filters and sorts, shared by the card list page and the API."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import django_filters
from django import forms
from django.db import models
from django.db.models import F, QuerySet
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from catalog import query
from catalog.models import Card
from catalog.vocab import SETS, Element, Faction, Kind, Speed, Tier, TroopClass
from webutil.querystring import tidy_query

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


def _choices(enum: type[models.TextChoices]) -> list[tuple[str, str]]:
    return [(value, str(label)) for value, label in enum.choices]


class CardFilter(django_filters.FilterSet):
    q = QueryFilter(method="filter_q", label=_("Search"), max_length=200)
    set = ChoicesFilter(
        field_name="set__code", label=pgettext_lazy("a set of cards", "Set"), choices=list(SETS.items())
    )
    kind = ChoicesFilter(choices=_choices(Kind), label=_("Kind"))
    troop_class = ChoicesFilter(choices=_choices(TroopClass), label=_("Troop class"))
    faction = ChoicesFilter(choices=_choices(Faction), label=_("Faction"))
    affiliation = django_filters.CharFilter(label=_("Affiliation"), max_length=200)
    tier = ChoicesFilter(choices=_choices(Tier), label=_("Tier"))
    stars = IntegerFilter(min_value=1, max_value=5, label=_("Stars"))
    cost = IntegerFilter(min_value=0, max_value=99, label=_("Cost"))
    cost_min = IntegerFilter(field_name="cost", lookup_expr="gte", min_value=0, max_value=99, label=_("Cost at least"))
    cost_max = IntegerFilter(field_name="cost", lookup_expr="lte", min_value=0, max_value=99, label=_("Cost at most"))
    speed = ChoicesFilter(choices=_choices(Speed), label=_("Speed"))
    element = ChoicesFilter(choices=_choices(Element), label=_("Element"))
    sort = django_filters.ChoiceFilter(choices=SORT_CHOICES, method="filter_sort", label=_("Sort"), empty_label=None)

    class Meta:
        model = Card
        fields: list[str] = []

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
