"""Content-Security-Policy: the site's pages run only the site's own scripts and styles."""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse

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

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if "Content-Security-Policy" not in response:
            relaxed = request.path.startswith(RELAXED_PREFIXES)
            response["Content-Security-Policy"] = RELAXED if relaxed else STRICT
        return response
