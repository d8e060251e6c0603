"""Whole catalogue answers for anonymous API clients, served before the rest of the stack.

A catalogue answer (`/api/cards/`, a card, the sets) is the same for every anonymous client
until the catalogue changes. The views keep their body (catalog.api.CatalogueCacheMixin), but
a request that reaches a view has paid for every middleware, DRF's negotiation, its
authentication and its throttles first: about three times the view's own work. So, as Django's
own per-site cache does (FetchFromCacheMiddleware / UpdateCacheMiddleware), the answer is also
kept whole, headers included, as the stack finally sent it, and the next identical request is
answered here, near the top of the stack:

- only a GET or HEAD with no cookie and no Authorization header (so no session, no token, no
  language chosen by cookie: nothing that could make the answer someone's own);
- keyed by the catalogue's version (read on every request, as everywhere: a change is seen by
  every worker at once), the path, the raw query string and the request headers the answer
  may depend on (Accept, Accept-Encoding, Accept-Language);
- counted by the API's throttles exactly as DRF counts an anonymous request (the same keys and
  rates, one increment each); a client over its rate falls through to the full stack, which
  answers 429 with its Retry-After;
- with the ETag of the stored answer: a client that holds it gets a bodyless 304;
- the request log and the metrics still see it: this middleware sits below both, and counts
  what it answered in `zongheng_stored_answers_total`.

Only an answer that its view marked with `mark_storable` is kept, and only while the hour's
store budget lasts, so distinct query strings cannot fill the cache.
"""

from __future__ import annotations

import hashlib
import time
from collections.abc import Callable

from django.core.cache import cache
from django.http import HttpRequest, HttpResponse, HttpResponseNotModified
from django.http.response import HttpResponseBase
from prometheus_client import Counter

from catalog import cache_version
from webutil.throttling import anonymous_throttled

PREFIXES = ("/api/cards/", "/api/sets/")
_KEY = "catalog-answer:1:"
_MARK = "_zongheng_storable"
# Headers made for one request, never replayed to another.
_OWN = frozenset({"x-request-id", "set-cookie", "date"})
STORED_SECONDS = 3600

stored_answers = Counter("zongheng_stored_answers_total", "Catalogue answers served whole from the cache")


def mark_storable(response: HttpResponseBase) -> None:
    """Says that `response` is the same for every anonymous client until the catalogue changes."""
    setattr(response, _MARK, True)


def _eligible(request: HttpRequest) -> bool:
    meta = request.META
    return (
        request.method in ("GET", "HEAD")
        and not meta.get("HTTP_COOKIE")
        and not meta.get("HTTP_AUTHORIZATION")
        and request.path_info.startswith(PREFIXES)
    )


def _key(request: HttpRequest) -> str:
    meta = request.META
    raw = "\x1f".join(
        (
            cache_version.current(),
            request.path_info,
            meta.get("QUERY_STRING", ""),
            meta.get("HTTP_ACCEPT", ""),
            meta.get("HTTP_ACCEPT_ENCODING", ""),
            meta.get("HTTP_ACCEPT_LANGUAGE", ""),
        )
    )
    return _KEY + hashlib.sha256(raw.encode("utf-8", "surrogatepass")).hexdigest()[:40]


class StoredAnswerMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponseBase]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        if not _eligible(request):
            return self.get_response(request)
        key = _key(request)
        stored = cache.get(key)
        if stored is not None and not anonymous_throttled(request):
            stored_answers.inc()
            return _replay(request, *stored)
        response = self.get_response(request)
        if getattr(response, _MARK, False) and response.status_code == 200 and isinstance(response, HttpResponse):
            headers = [(k, v) for k, v in response.items() if k.lower() not in _OWN]
            if not response.cookies and within_store_budget(len(response.content)):
                cache.set(key, (response.content, headers), STORED_SECONDS)
        return response


def _replay(request: HttpRequest, content: bytes, headers: list[tuple[str, str]]) -> HttpResponseBase:
    etag = next((v for k, v in headers if k.lower() == "etag"), None)
    held = request.META.get("HTTP_IF_NONE_MATCH", "")
    if etag and _weak(etag) in {_weak(t) for t in held.split(",")}:
        not_modified = HttpResponseNotModified()
        for name, value in headers:
            if name.lower() in ("etag", "cache-control", "vary"):
                not_modified[name] = value
        return not_modified
    answer = HttpResponse(content)
    for name, value in headers:
        answer[name] = value
    return answer


def _weak(tag: str) -> str:
    return tag.strip().removeprefix("W/")


# At most this many bytes of answers are stored per hour (each lives an hour), here and by the
# views together: the cache holds at most twice this for the catalogue, whatever clients send.
STORE_BUDGET = 32 * 1024 * 1024


def within_store_budget(size: int) -> bool:
    hour = int(time.time() // STORED_SECONDS)
    key = f"catalog-api:stored:{hour}"
    try:
        cache.add(key, 0, timeout=STORED_SECONDS * 2)
        return bool(cache.incr(key, size) <= STORE_BUDGET)
    except ValueError:  # the counter expired between add and incr, or the cache is down
        return False
