"""A link handed to someone not logged in (an event's link, a group's invite): instead of a bare
log-in form, its page says what it leads to and who sent it, and offers both ways in, each
coming back to the link."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

EVENT, GROUP = "event", "group"


def invitation(request: HttpRequest, kind: str, name: str, host: str, about: object = None) -> HttpResponse:
    """The invitation page for a visitor: `kind` EVENT (named `name`, organised by `host`) or
    GROUP (owned by `host`). Sign-up and log-in both return to this address. `about`: an event
    that shows its details (when, where, places) to anyone with its link."""
    context = {"kind": kind, "name": name, "host": host, "next": request.get_full_path(), "about": about}
    return render(request, "invitation.html", context)
