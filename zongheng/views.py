from __future__ import annotations

import hmac
import mimetypes
import sys
from typing import Any

from django.conf import settings
from django.core.cache import caches
from django.core.cache.backends.redis import RedisCache
from django.core.exceptions import (
    RequestDataTooBig,
    SuspiciousFileOperation,
    TooManyFieldsSent,
    TooManyFilesSent,
)
from django.core.files.storage import default_storage
from django.db import DatabaseError, InterfaceError, OperationalError, connection
from django.http import FileResponse, Http404, HttpRequest, HttpResponse, JsonResponse
from django.http.response import HttpResponseBase
from django.shortcuts import render
from django.template import loader
from django.utils.translation import gettext as _
from django.views.static import serve as static_serve
from django_prometheus.exports import ExportToDjangoView
from drf_spectacular.views import SpectacularAPIView

from catalog.tasks import work_state
from webutil.query_time import stopped_for_time
from webutil.storage import PRIVATE_PREFIX
from webutil.throttling import CACHE_ERRORS


def bad_request(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    """400 for what Django itself refuses before a view runs, saying what was too much."""
    if isinstance(exception, TooManyFilesSent):
        message = _("At most %(n)d files can be sent at once.") % {"n": settings.DATA_UPLOAD_MAX_NUMBER_FILES}
    elif isinstance(exception, TooManyFieldsSent):
        message = _("The form sent too many fields.")
    elif isinstance(exception, RequestDataTooBig):
        message = _("The form sent more text than this page accepts.")
    else:
        message = _("The request could not be read.")
    return refusal(request, 400, message)


def refusal(request: HttpRequest, status: int, message: str) -> HttpResponse:
    """A request refused before any view ran: JSON under /api/, the site's page elsewhere, or
    plain text for a form whose body was not read (a page's CSRF check would read it)."""
    if request.path.startswith("/api/"):
        return JsonResponse({"detail": message}, status=status)
    if request.method in ("POST", "PUT", "PATCH"):
        return HttpResponse(message, status=status, content_type="text/plain; charset=utf-8")
    return render(request, "400.html", {"message": message}, status=status)


def not_found(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    """404 in the language of the caller: JSON under /api/, the site's page elsewhere."""
    if request.path.startswith("/api/"):
        return JsonResponse({"detail": "Not found."}, status=404)
    return render(request, "404.html", status=404)


# What the database driver raises when it cannot be reached or answer in time.
DATABASE_DOWN = (OperationalError, InterfaceError)


# Seconds a client is asked to wait when the database cannot be reached (a restart takes a few).
RETRY_AFTER = 10


def server_error(request: HttpRequest) -> HttpResponse:
    """500, or 503 with Retry-After when what failed is the database (unreachable, restarting,
    or SQLite locked past its timeout): the fault is passing, and the client should try again."""
    error = sys.exc_info()[1]
    if isinstance(error, DATABASE_DOWN):
        return database_unavailable(request, too_long=stopped_for_time(error))
    if request.path.startswith("/api/"):
        return JsonResponse({"detail": "Server error."}, status=500)
    return render(request, "500.html", status=500)


def database_unavailable(request: HttpRequest, *, too_long: bool = False) -> HttpResponse:
    """The 503 page in the three languages at once: drawn without the request's context, so it
    reads neither the session nor the database (neither may answer). `too_long`: the request's
    SQL ran past its time bound (webutil.query_time) and was stopped."""
    if request.path.startswith("/api/"):
        detail = (
            "This request took longer than any may and was stopped: narrow it, or try again in a few seconds."
            if too_long
            else "The database cannot be reached right now: try again in a few seconds."
        )
        response: HttpResponse = JsonResponse({"detail": detail}, status=503)
    else:
        page = loader.get_template("503.html").render({"seconds": RETRY_AFTER, "too_long": too_long})
        response = HttpResponse(page, status=503)
    response["Retry-After"] = str(RETRY_AFTER)
    response["Cache-Control"] = "no-store"
    return response


def ping(request: HttpRequest) -> HttpResponse:
    """A bare JSON answer: a health check, and the floor that bench/http.py measures against."""
    return JsonResponse({"ok": True})


def healthz(request: HttpRequest) -> HttpResponse:
    """The process answers: for a load balancer's liveness check. No query, no cache."""
    response = JsonResponse({"ok": True})
    response["Cache-Control"] = "no-store"
    return response


def readyz(request: HttpRequest) -> HttpResponse:
    """Ready to serve: the database, the cache and the media storage can be reached. 503 names
    what is down (a server whose cache is down still serves, slower: the balancer decides)."""
    down = [
        name
        for name, check in (("database", _database_up), ("cache", _cache_up), ("storage", _storage_up))
        if not check()
    ]
    # How background work stands (for whoever reads the body; the status says only the above).
    work = work_state() if "database" not in down else None
    response = JsonResponse({"ok": not down, "down": down, "work": work}, status=503 if down else 200)
    response["Cache-Control"] = "no-store"
    return response


def _database_up() -> bool:
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
        return True
    except DatabaseError:
        return False


def _cache_up() -> bool:
    backend = caches["default"]
    if not isinstance(backend, RedisCache):
        return True  # a cache in this process is always there
    try:
        return bool(backend._cache.get_client(None, write=False).ping())  # type: ignore[attr-defined]  # Django's client, not in the stubs
    except CACHE_ERRORS:
        return False


def _storage_up() -> bool:
    try:
        default_storage.exists("healthz-probe")
        return True
    except Exception:  # disk or bucket: whatever the backend raises, it is down
        return False


def _from_object_storage(path: str) -> HttpResponseBase:
    """A picture streamed from the bucket: any app server serves any picture. Only the public
    part of the bucket: private files (proposals' photos) are never reached from here."""
    parts = path.split("/")
    if not path or any(part in ("", ".", "..") for part in parts) or parts[0] == PRIVATE_PREFIX:
        raise Http404
    try:
        handle = default_storage.open(path, "rb")
    except (FileNotFoundError, OSError):
        raise Http404 from None
    content_type = mimetypes.guess_type(path)[0] or "application/octet-stream"
    return FileResponse(handle, content_type=content_type)


def media(request: HttpRequest, path: str) -> HttpResponseBase:
    """Uploaded card pictures. Their names carry a hash of the content (catalog.images), so a
    name never points at other bytes: browsers may keep them for a year without asking again."""
    if getattr(settings, "MEDIA_S3", None):
        response = _from_object_storage(path)
    else:
        try:
            response = static_serve(request, path, document_root=str(settings.MEDIA_ROOT))
        except SuspiciousFileOperation:  # ../ and friends: nothing there, rather than a 400 and a log line
            raise Http404 from None
    response["Cache-Control"] = "public, max-age=31536000, immutable"
    response["X-Content-Type-Options"] = "nosniff"
    return response


def metrics(request: HttpRequest) -> HttpResponse:
    """Prometheus metrics (requests, latencies and responses per view, from django-prometheus),
    for a scraper holding METRICS_TOKEN; everyone else finds nothing here."""
    token = getattr(settings, "METRICS_TOKEN", None)
    sent = request.headers.get("Authorization", "")
    if not token or not hmac.compare_digest(sent.encode(), f"Bearer {token}".encode()):
        raise Http404
    response: HttpResponse = ExportToDjangoView(request)
    response.content = bytes(response.content) + _work_metrics().encode()
    response["Cache-Control"] = "no-store"
    return response


def _work_metrics() -> str:
    """Background work as gauges, read from the database at each scrape (every process sees the
    same): the oldest waiting work's age and the last worker heartbeat's (-1: none)."""
    try:
        state = work_state()
    except DatabaseError:
        return ""
    lines = []
    for name, help_text in (
        ("oldest_waiting_seconds", "Age of the oldest background work waiting to start (-1: none waits)"),
        ("worker_beat_seconds", "Seconds since a task worker's last heartbeat (-1: none has beaten)"),
    ):
        value = state[name]
        lines += [
            f"# HELP zongheng_work_{name} {help_text}",
            f"# TYPE zongheng_work_{name} gauge",
            f"zongheng_work_{name} {-1 if value is None else value}",
        ]
    return "\n".join(lines) + "\n"


class SchemaView(SpectacularAPIView):
    """The OpenAPI schema; `?format=json` or `?format=yaml` picks its form. Everywhere else in
    the API `format` is a deck's format (REST_FRAMEWORK's URL_FORMAT_OVERRIDE is off)."""

    def get_format_suffix(self, **kwargs: Any) -> str | None:
        return self.request.query_params.get("format") or None
