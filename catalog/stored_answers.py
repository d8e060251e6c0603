"""Whole catalogue answers for anonymous API clients, served in front of Django.

A catalogue answer (`/api/cards/`, a card, the sets) is the same for every anonymous client
until the catalogue changes. The views keep their body (catalog.api.CatalogueCacheMixin), but a
request that reaches a view has paid for Django's request signals, every middleware, DRF's
negotiation, its authentication and its throttles first: several times the view's own work.
So, as Django's own per-site cache does (FetchFromCacheMiddleware / UpdateCacheMiddleware), the
answer is also kept whole, headers included, exactly as the server sent it, and the next
identical request is answered by `StoredAnswers`, the WSGI application's front door
(zongheng.wsgi), before Django's handler:

- only a GET or HEAD with no cookie and no Authorization header (so no session, no token, no
  language chosen by cookie: nothing that could make the answer someone's own);
- keyed by the catalogue's version (checked on every request, as everywhere, so that a change
  is seen by every worker at once: catalog.cache_version), the path, the raw query string and
  the request headers the answer may depend on (Accept, Accept-Encoding, Accept-Language);
- counted by the API's throttles exactly as DRF counts an anonymous request (the same keys and
  rates, one increment each); a client over its rate goes on to Django, which answers 429 with
  its Retry-After without counting the request again;
- with the ETag of the stored answer: a client that holds it gets a bodyless 304;
- logged as every request is (one line with its own request id) and counted in the request
  metrics and in `zongheng_stored_answers_total`.

Only an answer that its view marked with `mark_storable` is kept, and only while the hour's
store budget lasts, so distinct query strings cannot fill the cache.

Why it stays (the house rule: speed machinery keeps its place where a benchmark takes 20% or 5 ms
off a p99): `bench/machinery.py`, 2026-12-06, a 2-core machine, SQLite, gunicorn with one
worker, ab with 4 clients, the median of 3 rounds of 1,000 requests. p99 with / without:
`/api/cards/?page_size=50` 3.0 / 6.5 ms (3.5 ms, 54% off); `/api/cards/YXJQ-003/` 2.8 / 8.4 ms
(5.6 ms, 66% off). Pages are never stored: `/cards/` is the same either way.
"""

from __future__ import annotations

import hashlib
import time
from collections.abc import Callable, Iterable
from typing import Any

from django.core.cache import cache
from django.db import DatabaseError
from django.http import HttpResponse
from django.http.response import HttpResponseBase
from prometheus_client import Counter

from catalog import cache_version
from webutil.throttling import anonymous_throttled

PREFIXES = ("/api/cards/", "/api/sets/")
_KEY = "catalog-answer:2:"
_MARK = "_zongheng_storable"
# Headers made for one request, never replayed to another.
_OWN = frozenset({"x-request-id", "set-cookie", "date", "server"})
_NOT_MODIFIED_KEEPS = frozenset({"etag", "cache-control", "vary"})
STORED_SECONDS = 3600

stored_answers = Counter("zongheng_stored_answers_total", "Catalogue answers served whole from the cache")

Environ = dict[str, Any]
Headers = list[tuple[str, str]]
StartResponse = Callable[..., Any]
# Says an answer was sent from here (its environ, status code and seconds taken); returns its request id.
Served = Callable[[Environ, int, float], str]


def mark_storable(response: HttpResponseBase) -> None:
    """Says that `response` is the same for every anonymous client until the catalogue changes."""
    setattr(response, _MARK, True)


def eligible(environ: Environ) -> bool:
    return (
        environ.get("REQUEST_METHOD") in ("GET", "HEAD")
        and not environ.get("HTTP_COOKIE")
        and not environ.get("HTTP_AUTHORIZATION")
        and str(environ.get("PATH_INFO", "")).startswith(PREFIXES)
    )


def key_of(environ: Environ) -> str:
    raw = "\x1f".join(
        (
            cache_version.current(),
            environ.get("PATH_INFO", ""),
            environ.get("QUERY_STRING", ""),
            environ.get("HTTP_ACCEPT", ""),
            environ.get("HTTP_ACCEPT_ENCODING", ""),
            environ.get("HTTP_ACCEPT_LANGUAGE", ""),
        )
    )
    return _KEY + hashlib.sha256(raw.encode("utf-8", "surrogatepass")).hexdigest()[:40]


class StoredAnswers:
    """The WSGI front door: a stored answer is sent from here; any other request, and the first
    of each answer, goes to `app` (Django), whose marked answers are stored on their way out.
    `served` logs and counts what was answered here, as the request log and metrics would."""

    def __init__(self, app: Callable[[Environ, StartResponse], Any], served: Served) -> None:
        self.app = app
        self.served = served

    def __call__(self, environ: Environ, start_response: StartResponse) -> Iterable[bytes]:
        if not eligible(environ):
            return self.app(environ, start_response)
        started = time.perf_counter()
        try:
            key = key_of(environ)
        except DatabaseError:  # Django answers that (the outage page, its status and headers)
            return self.app(environ, start_response)
        stored = cache.get(key)
        if stored is None:
            return self._store(key, environ, start_response)
        if anonymous_throttled(environ):
            return self.app(environ, start_response)
        status, headers, body = _replay(environ, *stored)
        headers.append(("X-Request-ID", self.served(environ, status, time.perf_counter() - started)))
        start_response("304 Not Modified" if status == 304 else "200 OK", headers)
        stored_answers.inc()
        return [body]

    def _store(self, key: str, environ: Environ, start_response: StartResponse) -> Iterable[bytes]:
        sent: dict[str, Any] = {}

        def keep_headers(status: str, headers: Headers, *exc_info: Any) -> Any:
            sent["status"], sent["headers"] = status, headers
            return start_response(status, headers, *exc_info)

        answer = self.app(environ, keep_headers)
        if (
            getattr(answer, _MARK, False)
            and isinstance(answer, HttpResponse)
            and str(sent.get("status", "")).startswith("200 ")
            and not any(name.lower() == "set-cookie" for name, _ in sent["headers"])
            and within_store_budget(len(answer.content))
        ):
            headers = [(name, value) for name, value in sent["headers"] if name.lower() not in _OWN]
            cache.set(key, (answer.content, headers), STORED_SECONDS)
        return answer


def _replay(environ: Environ, content: bytes, headers: Headers) -> tuple[int, Headers, bytes]:
    etag = next((v for k, v in headers if k.lower() == "etag"), None)
    held = str(environ.get("HTTP_IF_NONE_MATCH", ""))
    if etag and held and _weak(etag) in {_weak(t) for t in held.split(",")}:
        return 304, [(k, v) for k, v in headers if k.lower() in _NOT_MODIFIED_KEEPS], b""
    return 200, list(headers), b"" if environ.get("REQUEST_METHOD") == "HEAD" else content


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
