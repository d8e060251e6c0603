"""The deck lists' filters and sorting, as FilterSets like the catalogue's."""

from __future__ import annotations

from typing import Any

import django_filters
from django import forms
from django.db.models import F, Min, Q, QuerySet
from django.utils.translation import gettext_lazy as _

from catalog.query import QueryError
from catalog.vocab import Faction
from decks import search
from decks.forms import format_choices
from decks.models import Deck, DeckQuerySet

# Sorts by what the reader has need the reader's collection (Deck.objects.with_ownership).
SORTS = {
    "updated": ("-updated", "-id"),
    "newest": ("-created", "-id"),
    "missing": ("missing", "-updated", "-id"),
    "-owned_share": ("-owned_share", "-updated", "-id"),
    "name": ("name", "id"),
    "-likes": ("-like_count", "-id"),
    "-likes_week": ("-likes_week", "-like_count", "-id"),
    "-comments": ("-comment_count", "-id"),
}
COLLECTION_SORTS = {"missing", "-owned_share"}


def ordering(sort: str, *, buildable: bool) -> tuple[str, ...]:
    """The order of a sort (one of SORTS). Among buildable decks every deck misses nothing and
    owns it all: a sort by that is a sort by its tie-breakers alone, and said so the database
    reads the decks in their index's order and stops at a page, instead of working out and
    sorting every public deck."""
    if buildable and sort in COLLECTION_SORTS:
        return SORTS[sort][1:]
    return SORTS[sort]


class DeckFilterForm(forms.Form):
    """The filters' form, which also reads the card search: `card=` and `without=` (each may be
    given several times, so read as lists) and the deck query `q=` (decks.search), into one
    condition, `cards`, or an error naming what could not be read."""

    cards = Q()

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        getlist = getattr(self.data, "getlist", None)

        def given(name: str) -> list[str]:
            if getlist is not None:
                return [str(v) for v in getlist(name)]
            value = self.data.get(name)
            return [str(value)] if value is not None else []

        condition = Q()
        try:
            condition &= search.cards_condition(given("card"), given("without"))
        except search.SearchError as exc:
            self.add_error(None, str(exc))
        query = data.get("q") or ""
        if query:
            try:
                node = search.parse(query)
            except QueryError as exc:
                self.add_error("q", str(exc))
            else:
                condition &= search.to_q(node) if node is not None else Q()
        self.cards = condition
        return data


class DeckFilter(django_filters.FilterSet):
    q = django_filters.CharFilter(method="filter_query", max_length=200, label=_("Search decks"))
    general = django_filters.CharFilter(method="filter_general", max_length=60, label=_("General"))
    faction = django_filters.ChoiceFilter(field_name="general__faction", choices=Faction.choices, label=_("Faction"))
    format = django_filters.ChoiceFilter(choices=format_choices, label=_("Format"))
    legal = django_filters.CharFilter(method="filter_legal", max_length=5, label=_("Legal only"))
    buildable = django_filters.CharFilter(
        method="filter_buildable", max_length=5, label=_("Buildable from my collection")
    )
    tag = django_filters.CharFilter(field_name="tags__name", max_length=30, label=_("Tag"))
    sort = django_filters.ChoiceFilter(
        choices=[
            ("updated", _("Recently updated")),
            ("newest", _("Newest")),
            ("missing", _("Fewest cards missing")),
            ("-owned_share", _("Most of it owned")),
            ("-likes", _("Most liked")),
            ("-likes_week", _("Most liked this week")),
            ("-comments", _("Most commented")),
            ("tag", _("Tag")),
        ],
        method="filter_sort",
        label=_("Sort"),
    )

    class Meta:
        model = Deck
        fields: list[str] = []
        form = DeckFilterForm

    def filter_query(self, queryset: QuerySet[Deck], name: str, value: str) -> QuerySet[Deck]:
        return queryset  # read with the cards by the form (`cards`), applied in filter_queryset

    def filter_queryset(self, queryset: QuerySet[Deck]) -> QuerySet[Deck]:
        queryset = super().filter_queryset(queryset)
        cards = getattr(self.form, "cards", None)
        return queryset.filter(cards) if cards else queryset

    def filter_general(self, queryset: QuerySet[Deck], name: str, value: str) -> QuerySet[Deck]:
        value = value.strip()
        return queryset.filter(Q(general__code=value.upper()) | Q(general__name_key=value)) if value else queryset

    def filter_legal(self, queryset: QuerySet[Deck], name: str, value: str) -> QuerySet[Deck]:
        return queryset.filter(is_legal=True) if value else queryset

    def filter_buildable(self, queryset: QuerySet[Deck], name: str, value: str) -> QuerySet[Deck]:
        return queryset.filter(Q(missing=0)) if value and self._reader_known else queryset

    def filter_sort(self, queryset: QuerySet[Deck], name: str, value: str) -> QuerySet[Deck]:
        if value == "tag":  # by the first of each deck's tags, A–Z; untagged decks last
            first = Min("tags__name")
            return queryset.annotate(first_tag=first).order_by(F("first_tag").asc(nulls_last=True), "name", "id")
        if value not in SORTS or (value in COLLECTION_SORTS and not self._reader_known):
            value = "updated"
        return queryset.order_by(*ordering(value, buildable=bool(self.form.cleaned_data.get("buildable"))))

    @property
    def _reader_known(self) -> bool:
        return self.request is not None and self.request.user.is_authenticated

    @property
    def qs(self) -> QuerySet[Deck]:
        # Sorted by the last update unless asked otherwise.
        queryset = super().qs
        return queryset if self.form.cleaned_data.get("sort") else queryset.order_by(*SORTS["updated"])


def deck_filter(request: Any, decks: DeckQuerySet, data: Any = None) -> DeckFilter:
    """The filter over `decks`, each with what the reader has of it (Deck.objects.with_ownership)."""
    return DeckFilter(
        request.GET if data is None else data, queryset=decks.with_ownership(request.user), request=request
    )


class NarrowSorted:
    """A sorted deck list sliced in two steps: the ids of the slice, sorted on narrow rows (for a
    sort on what the reader has, PostgreSQL then keeps only the top rows in memory: a quarter of
    the time of sorting whole deck rows at 33,000 public decks), then those decks whole."""

    def __init__(self, decks: QuerySet[Deck]) -> None:
        self.decks = decks

    def __getitem__(self, part: slice) -> list[Deck]:
        ids = list(self.decks.values_list("pk", flat=True)[part])
        # [0] when empty: an empty page costs the same two queries as a full one (no id is 0).
        found = {deck.pk: deck for deck in self.decks.filter(pk__in=ids or [0]).order_by()}
        return [found[pk] for pk in ids if pk in found]
