"""The catalogue's card list and card pages with the reader's own copies on every row (+1
buttons, counts). Composed here, above the catalogue: the catalogue never imports the collection.
The root URL file routes /cards/ and /cards/<code>/ here, under the catalogue's URL names."""

from __future__ import annotations

from django.http import HttpResponse

from catalog import views as catalog_views
from catalog.models import Card
from collection.queries import with_counts
from webutil.requests import HtmxHttpRequest


def card_list(request: HtmxHttpRequest) -> HttpResponse:
    return catalog_views.card_list(request, with_counts(Card.objects.with_set(), request.user))


def card_detail(request: HtmxHttpRequest, code: str) -> HttpResponse:
    return catalog_views.card_detail(request, code, with_counts(Card.objects.with_set(), request.user))
