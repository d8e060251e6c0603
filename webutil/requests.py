"""Request types for views, so that the type checker knows what middleware put on them."""

from __future__ import annotations

from django.contrib.auth.models import User
from django.http import HttpRequest
from django_htmx.middleware import HtmxDetails


class HtmxHttpRequest(HttpRequest):
    """Every request, with django-htmx's `request.htmx` (false-y unless htmx sent it)."""

    htmx: HtmxDetails


class AuthedRequest(HtmxHttpRequest):
    """A request to a view behind @login_required: its user is a real account."""

    user: User
