"""Idempotent writes: a POST, PUT, PATCH or DELETE sent with an `Idempotency-Key` header (or, from
the site's own forms, an `idempotency_key` field) is done once. The same key with the same
request answers again what the first answered; with another request it is a 422; while the first
is still being done, a 409. The write and the answer it got are committed together, so a client
that lost the answer (a 503 after the commit, a dropped connection) and retries gets it, and a
write that failed (5xx) leaves nothing, not even its key. Keys are kept a day per user.

htmx's live requests (a builder's taps, the checker as one types) send the same form again on
purpose: their form field is ignored, as are anonymous requests (they change nothing of anyone's).
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable
from datetime import timedelta
from typing import Any

from django.db import IntegrityError, transaction
from django.http import HttpRequest, HttpResponse
from django.utils import timezone
from django.utils.translation import gettext as _
from rest_framework.authtoken.models import Token

from accounts.models import IdempotentAnswer
from webutil import bounds

HEADER = "Idempotency-Key"
FIELD = "idempotency_key"
WRITES = frozenset({"POST", "PUT", "PATCH", "DELETE"})
FORMS = frozenset({"application/x-www-form-urlencoded", "multipart/form-data"})
KEEP = bounds.declare("idempotency keys", 24 * 3600, "seconds", "how long a write's Idempotency-Key is answered again")
KEY = re.compile(r"[A-Za-z0-9_.:-]{1,64}")
# An answer larger than this is not kept (writes answer a few KB): a retry of it is done again.
MAX_KEPT = 256 * 1024


def key_of(request: HttpRequest) -> str | None:
    """The key a write carries: its header, or a form's field (not for htmx's live requests)."""
    if request.method not in WRITES:
        return None
    given = request.headers.get(HEADER)
    if given is None and request.content_type in FORMS and request.headers.get("HX-Request") != "true":
        given = request.POST.get(FIELD)
    return given


def fingerprint(request: HttpRequest) -> str:
    """The request a key was first sent with: method, path and body (for a form, its fields and
    its files' names and sizes, which a second send of the same form repeats)."""
    digest = hashlib.sha256(f"{request.method} {request.get_full_path()}\n".encode())
    if request.content_type in FORMS:
        for name, values in sorted(request.POST.lists()):
            if name not in (FIELD, "csrfmiddlewaretoken"):
                digest.update(repr((name, values)).encode())
        for name, files in sorted(request.FILES.lists()):
            digest.update(repr((name, [(f.name, f.size) for f in files])).encode())
    else:
        digest.update(request.body)
    return digest.hexdigest()


def _replay(kept: IdempotentAnswer) -> HttpResponse:
    response = HttpResponse(bytes(kept.body), status=kept.status, content_type=kept.content_type or None)
    if kept.location:
        response["Location"] = kept.location
    response["Idempotent-Replayed"] = "true"
    return response


Refuse = Callable[[HttpRequest, int, str], HttpResponse]


def writer(request: HttpRequest) -> Any:
    """Who sends a write: the session's user, or an API token's (DRF reads tokens only in its
    views; a keyed write needs its user before). None for anonymous requests."""
    if request.user.is_authenticated:
        return request.user
    scheme, _sep, token = request.headers.get("Authorization", "").partition(" ")
    if scheme != "Token" or not token or len(token) > 64:
        return None
    found = Token.objects.select_related("user").filter(key=token).first()
    return found.user if found is not None and found.user.is_active else None


def once(
    request: HttpRequest, key: str, user: Any, run: Callable[[HttpRequest], HttpResponse], refuse: Refuse
) -> HttpResponse:
    """The write done once for this user and key (see above); `refuse` words a refusal."""
    if not KEY.fullmatch(key):
        return refuse(request, 400, _("An Idempotency-Key is 1 to 64 letters, digits and _ . : -"))
    since = timezone.now() - timedelta(seconds=int(KEEP))
    IdempotentAnswer.objects.filter(user=user, created__lt=since).delete()
    sent = fingerprint(request)
    kept = IdempotentAnswer.objects.filter(user=user, key=key).first()
    if kept is not None:
        if kept.fingerprint != sent:
            return refuse(request, 422, _("This Idempotency-Key was sent before with another request."))
        if kept.status == 0:
            return refuse(request, 409, _("The request sent with this Idempotency-Key is still being done."))
        return _replay(kept)
    with transaction.atomic():
        try:
            with transaction.atomic():
                kept = IdempotentAnswer.objects.create(user=user, key=key, fingerprint=sent)
        except IntegrityError:  # the same key, at the same moment, from another request
            return refuse(request, 409, _("The request sent with this Idempotency-Key is still being done."))
        response = run(request)
        if response.status_code >= 500:
            transaction.set_rollback(True)  # the write is undone, and its key forgotten
            return response
        body = b"" if response.streaming else response.content
        if len(body) > MAX_KEPT:
            kept.delete()
            return response
        kept.status = response.status_code
        kept.content_type = str(response.get("Content-Type", ""))[:100]
        kept.location = str(response.get("Location", ""))[:2000]
        kept.body = body
        kept.save(update_fields=["status", "content_type", "location", "body"])
    return response
