"""Addresses worth sharing: a GET form sends every field, empty or not, and players copy the
address to share a search. Pages with such forms keep only what is in use."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from functools import wraps
from typing import Any

from django.http import HttpRequest, HttpResponse, QueryDict
from django.shortcuts import redirect


def tidy_query(data: QueryDict, defaults: Mapping[str, str]) -> QueryDict | None:
    """`data` without empty fields and without values equal to the page's defaults (the sort
    shown when none is named); None when there is nothing to drop."""
    tidy = QueryDict(mutable=True)
    for key, values in data.lists():
        kept = [v for v in values if v.strip() and defaults.get(key) != v]
        if kept:
            tidy.setlist(key, kept)
    return None if list(tidy.lists()) == list(data.lists()) else tidy


def tidy_address(request: HttpRequest, defaults: Mapping[str, str]) -> str | None:
    tidy = tidy_query(request.GET, defaults)
    if tidy is None:
        return None
    return f"{request.path}?{tidy.urlencode()}" if tidy else request.path


def tidy_get(defaults: Mapping[str, str]) -> Callable[[Callable[..., HttpResponse]], Callable[..., HttpResponse]]:
    """A page whose address keeps only what is in use: a plain GET is redirected (302) to the
    tidy address; a live (htmx) one is answered at once, with the tidy address for the history."""

    def decorate(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
        @wraps(view)
        def wrapped(request: Any, *args: Any, **kwargs: Any) -> HttpResponse:
            tidy = tidy_address(request, defaults) if request.method == "GET" else None
            if tidy is not None and not request.headers.get("HX-Request"):
                return redirect(tidy)
            response = view(request, *args, **kwargs)
            if tidy is not None:
                response["HX-Push-Url"] = tidy
            return response

        return wrapped

    return decorate
