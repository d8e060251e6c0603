"""The public deck list's filters and sorting, as a FilterSet like the catalogue's."""

from __future__ import annotations

import django_filters
from django.db.models import Q, QuerySet
from django.utils.translation import gettext_lazy as _

from catalog.vocab import Faction
from decks.forms import format_choices
from decks.models import Deck

SORTS = {"updated": "-updated", "newest": "-created"}


class DeckFilter(django_filters.FilterSet):
    general = django_filters.CharFilter(method="filter_general", max_length=60, label=_("General"))
    faction = django_filters.ChoiceFilter(field_name="general__faction", choices=Faction.choices, label=_("Faction"))
    format = django_filters.ChoiceFilter(choices=format_choices, label=_("Format"))
    legal = django_filters.CharFilter(method="filter_legal", max_length=5, label=_("Legal only"))
    sort = django_filters.ChoiceFilter(
        choices=[("updated", _("Recently updated")), ("newest", _("Newest"))], method="filter_sort", label=_("Sort")
    )

    class Meta:
        model = Deck
        fields: list[str] = []

    def filter_general(self, queryset: QuerySet[Deck], name: str, value: str) -> QuerySet[Deck]:
        value = value.strip()
        return queryset.filter(Q(general__code=value.upper()) | Q(general__name_key=value)) if value else queryset

    def filter_legal(self, queryset: QuerySet[Deck], name: str, value: str) -> QuerySet[Deck]:
        return queryset.filter(is_legal=True) if value else queryset

    def filter_sort(self, queryset: QuerySet[Deck], name: str, value: str) -> QuerySet[Deck]:
        return queryset.order_by(SORTS.get(value, "-updated"))

    @property
    def qs(self) -> QuerySet[Deck]:
        # Sorted by the last update unless asked otherwise.
        queryset = super().qs
        return queryset if self.form.cleaned_data.get("sort") else queryset.order_by("-updated")
