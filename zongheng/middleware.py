"""The site's own middleware: Content-Security-Policy, and guards on what a request may carry."""

from __future__ import annotations

import json
import logging
import re
import time
import uuid
from collections.abc import Callable
from urllib.parse import urlsplit

from django.conf import settings
from django.http import HttpRequest, HttpResponse, JsonResponse, QueryDict
from django.template.defaultfilters import filesizeformat
from django.urls import Resolver404, resolve
from django.utils.translation import gettext as _

from accounts import idempotency
from webutil.bounds import accepted_by
from webutil.text import BIDI, strip_bidi
from zongheng.views import not_found, refusal

# Our pages: nothing inline, nothing from elsewhere. SVG faces and bars use attributes, not CSS.
STRICT = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; font-src 'self'; "
    "connect-src 'self'; object-src 'none'; base-uri 'self'; form-action 'self'; frame-ancestors 'none'"
)
# Pages made by installed packages (the admin, the API docs) carry their own inline code.
RELAXED = (
    "default-src 'self'; script-src 'self' 'unsafe-inline'; style-src 'self' 'unsafe-inline'; "
    "img-src 'self' data:; font-src 'self'; object-src 'none'; base-uri 'self'; frame-ancestors 'none'"
)
RELAXED_PREFIXES = ("/admin/", "/api/docs/", "/api/redoc/")


class ContentSecurityPolicyMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response
        # Pictures served from another origin (MEDIA_S3_PUBLIC_URL: a CDN or the bucket) join img-src.
        public = getattr(settings, "MEDIA_S3_PUBLIC_URL", None)
        origin = "{0.scheme}://{0.netloc}".format(urlsplit(public)) if public else ""
        self.strict = STRICT.replace("img-src 'self' data:", f"img-src 'self' data: {origin}") if origin else STRICT
        self.relaxed = RELAXED.replace("img-src 'self' data:", f"img-src 'self' data: {origin}") if origin else RELAXED

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if "Content-Security-Policy" not in response:
            relaxed = request.path.startswith(RELAXED_PREFIXES)
            response["Content-Security-Policy"] = self.relaxed if relaxed else self.strict
        return response


# How large a request body each route accepts. Uploads are the only large bodies: each route that
# reads files declares them (webutil.bounds.accepts, beside the code that reads them); any other
# route takes the default. A request over its limit is answered 413 before anything is read or
# written to disk.
DEFAULT_BODY_LIMIT = 512 * 1024  # a 64 KiB deck list of Chinese, percent-encoded, with room to spare


def body_limit(path: str) -> int:
    """The largest body the route at `path` accepts: its declared uploads', else the default."""
    try:
        match = resolve(path)
    except Resolver404:
        return DEFAULT_BODY_LIMIT
    declared = accepted_by(match.func)
    return max(declared.body_limit, DEFAULT_BODY_LIMIT) if declared else DEFAULT_BODY_LIMIT


class RequestGuardMiddleware:
    """Refuses, before any view runs, what no view should have to handle:

    - a body larger than its part of the site accepts (413, saying the limit);
    - a NUL character in the path, the query string or a form body (400): PostgreSQL refuses NUL
      in text, so it would otherwise fail deep inside a query as a 500.
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        try:
            length = int(request.META.get("CONTENT_LENGTH") or 0)
        except ValueError:
            return refusal(request, 400, _("The Content-Length header is not a number."))
        # Only a body larger than any route takes by default needs its route looked up.
        limit = body_limit(request.path_info) if length > DEFAULT_BODY_LIMIT else DEFAULT_BODY_LIMIT
        if length > limit:
            return refusal(
                request,
                413,
                _("The request is %(size)s; this page accepts at most %(limit)s.")
                % {"size": filesizeformat(length), "limit": filesizeformat(limit)},
            )
        where = _nul_in(request)
        if where == "":
            # No address holds a NUL: nothing is there (the same 404 as any unknown card or set).
            return not_found(request)
        if where is not None:
            message = _("The request contains a NUL character, which no field accepts.")
            if where and request.path.startswith("/api/"):
                return JsonResponse({where: [message]}, status=400)  # named like any other bad field
            return refusal(request, 400, message)
        _strip_bidi_fields(request)
        return self.get_response(request)


def _nul_in(request: HttpRequest) -> str | None:
    """Where a NUL is: the name of the query or form field, "" for the path, None if nowhere."""
    if "\x00" in request.path or "\x00" in request.path_info:
        return ""
    query = request.META.get("QUERY_STRING", "")
    if "\x00" in query or "%00" in query:
        return _field_with_nul(request.GET)
    if request.content_type == "application/x-www-form-urlencoded" and request.method in ("POST", "PUT", "PATCH"):
        body = request.body  # already bounded above
        if b"\x00" in body or b"%00" in body:
            return _field_with_nul(request.POST)
    return None


def _field_with_nul(data: QueryDict) -> str:
    found = (k for k, values in data.lists() if "\x00" in k or any("\x00" in v for v in values))
    return next(found, "?")


def _without_bidi(data: QueryDict) -> QueryDict | None:
    """A copy of `data` without bidirectional controls, or None when it has none."""
    if not any(BIDI.search(v) for _key, values in data.lists() for v in values):
        return None
    cleaned = QueryDict(mutable=True)
    for key, values in data.lists():
        cleaned.setlist(key, [strip_bidi(v) for v in values])
    cleaned._mutable = False
    return cleaned


_FORM_TYPES = ("application/x-www-form-urlencoded", "multipart/form-data")


def _strip_bidi_fields(request: HttpRequest) -> None:
    # Every form field and query value reaches the views without bidi controls, so that no name,
    # note or search stored or echoed can turn a line around.
    if cleaned := _without_bidi(request.GET):
        request.GET = cleaned  # type: ignore[assignment]  # immutable, as Django's own
    if (
        request.method == "POST"
        and request.content_type
        in (
            "application/x-www-form-urlencoded",
            "multipart/form-data",
        )
        and (cleaned := _without_bidi(request.POST))
    ):
        request.POST = cleaned  # type: ignore[assignment]  # immutable, as Django's own


class IdempotencyMiddleware:
    """A write sent with an Idempotency-Key (or a form's idempotency_key) is done once per user
    and key; a retry is answered again (accounts.idempotency)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        key = idempotency.key_of(request)
        user = idempotency.writer(request) if key is not None else None
        if key is None or user is None or not _takes(request):
            return self.get_response(request)
        return idempotency.once(request, key, user, self.get_response, _idempotency_refusal)


def _takes(request: HttpRequest) -> bool:
    """Whether the route takes the request's method: one it does not (a PUT to a list) is its
    view's 405 to give, keyed or not."""
    try:
        view = resolve(request.path_info).func
    except Resolver404:
        return False
    handler_class = getattr(view, "view_class", None) or getattr(view, "cls", None)
    return handler_class is None or hasattr(handler_class, str(request.method).lower())


def _idempotency_refusal(request: HttpRequest, status: int, message: str) -> HttpResponse:
    if request.path.startswith("/api/"):
        return JsonResponse({"detail": message}, status=status)
    return refusal(request, status, message)


# A request id as a proxy or a client may send it: short, plain; anything else is replaced.
_REQUEST_ID = re.compile(r"[A-Za-z0-9._-]{1,64}")
request_log = logging.getLogger("zongheng.requests")


def request_id(given: str) -> str:
    """The id a proxy or client sent, if it is a plain short one; else a new one."""
    return given if _REQUEST_ID.fullmatch(given) else uuid.uuid4().hex


def log_request(request_id: str, method: str, path: str, status: int, seconds: float, user: int | None) -> None:
    request_log.info(
        json.dumps(
            {
                "request_id": request_id,
                "method": method,
                "path": path,
                "status": status,
                "ms": round(seconds * 1000, 1),
                "user": user,
            },
            ensure_ascii=False,
        )
    )


class RequestLogMiddleware:
    """One JSON line per request (method, path, status, time, user, request id), and the id in
    an `X-Request-ID` answer header: a report from a user, a proxy's log line and the site's own
    log meet on it. An id the proxy sent is kept; otherwise one is made."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        request.request_id = given_id = request_id(request.headers.get("X-Request-ID", ""))  # type: ignore[attr-defined]
        started = time.perf_counter()
        response = self.get_response(request)
        response["X-Request-ID"] = given_id
        user = getattr(request, "user", None)
        log_request(
            given_id,
            str(request.method),
            request.path,
            response.status_code,
            time.perf_counter() - started,
            user.pk if user is not None and user.is_authenticated else None,
        )
        return response
