from __future__ import annotations

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render


def not_found(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    """404 in the language of the caller: JSON under /api/, the site's page elsewhere."""
    if request.path.startswith("/api/"):
        return JsonResponse({"detail": "Not found."}, status=404)
    return render(request, "404.html", status=404)


def server_error(request: HttpRequest) -> HttpResponse:
    if request.path.startswith("/api/"):
        return JsonResponse({"detail": "Server error."}, status=500)
    return render(request, "500.html", status=500)


def ping(request: HttpRequest) -> HttpResponse:
    """A bare JSON answer: a health check, and the floor that bench/http.py measures against."""
    return JsonResponse({"ok": True})
