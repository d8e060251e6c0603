"""The floor of bench/http.py: a one-file Django application with no middleware whose one view
returns a small JSON answer, served by the same gunicorn as the site.

    gunicorn bench.bare_django
"""

from __future__ import annotations

from django.conf import settings
from django.core.wsgi import get_wsgi_application
from django.http import HttpRequest, JsonResponse
from django.urls import path

settings.configure(
    DEBUG=False,
    SECRET_KEY="bench-only-" + "k" * 50,
    ALLOWED_HOSTS=["127.0.0.1", "localhost"],
    ROOT_URLCONF=__name__,
    MIDDLEWARE=[],
    INSTALLED_APPS=[],
    USE_I18N=False,
)


def ping(request: HttpRequest) -> JsonResponse:
    return JsonResponse({"ok": True})


urlpatterns = [path("ping/", ping)]
application = get_wsgi_application()
