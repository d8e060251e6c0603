"""The rules for writing for others, the same for every kind (moderation.registry): who may
write, how often, what waits for approval; reports, and what staff decide on them."""

from __future__ import annotations

import re
from datetime import datetime, timedelta
from typing import Any

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from moderation import registry
from moderation.models import MAX_REASON, Ban, Report
from webutil import bounds

PER_HOUR = bounds.declare("writing an hour", 10, "pieces", "comments and reviews one user may write an hour, together")
PER_HOUR_NEW = bounds.declare("writing an hour, new account", 3, "pieces", "the same for an account younger than a day")
LINKS_BEFORE_APPROVAL = bounds.declare(
    "links before approval",
    2,
    "links",
    "more links than this in writing of an account younger than a day wait for staff",
)
NEW_ACCOUNT = timedelta(days=1)
# What a reader sees as a link: a URL, a www. address, or a Markdown/HTML link.
_LINK = re.compile(r"https?://|www\.|\]\(|<a\s", re.IGNORECASE)


class Refused(ValueError):
    """Writing the rules refuse: `status` is the HTTP answer (400, 403 banned, 404, 429 too
    often). The apps' own errors of writing for others are kinds of it."""

    def __init__(self, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.status = status


def cleaned(text: object, limit: int, not_text: str, too_long: str) -> str:
    """What a user wrote for others, NUL bytes out and trimmed: refused (400) with the kind's own
    words when it is not text or longer than `limit`, and when nothing is left."""
    if not isinstance(text, str):
        raise Refused(not_text)
    text = text.replace("\x00", "").strip()
    if not text:
        raise Refused(_("Write something first."))
    if len(text) > limit:
        raise Refused(too_long)
    return text


def is_banned(user: Any) -> bool:
    if not getattr(user, "is_authenticated", False):
        return False
    if "_banned" not in user.__dict__:  # asked several times a request: once to the database
        user.__dict__["_banned"] = Ban.objects.filter(user_id=user.pk).exists()
    return bool(user.__dict__["_banned"])


def is_new(user: Any, now: datetime | None = None) -> bool:
    return bool(user.date_joined > (now or timezone.now()) - NEW_ACCOUNT)


def check_may_write(user: Any, now: datetime | None = None) -> None:
    """Refused unless the user may write one more piece now."""
    now = now or timezone.now()
    if is_banned(user):
        raise Refused(_("Your account may no longer write here."), 403)
    limit = int(PER_HOUR_NEW if is_new(user, now) else PER_HOUR)
    written = sum(kind.written_since(user.pk, now - timedelta(hours=1)) for kind in registry.kinds())
    if written >= limit:
        raise Refused(_("At most %(n)d comments an hour. Try again later.") % {"n": limit}, 429)


def needs_approval(user: Any, text: str, now: datetime | None = None) -> bool:
    """Writing of an account younger than a day with more than two links waits for staff."""
    return is_new(user, now) and len(_LINK.findall(text)) > int(LINKS_BEFORE_APPROVAL)


def report(slug: str, item: int, reporter: Any, reason: str = "") -> Report:
    """The reader's report of the item (again: the same one), its reason cleaned and bounded
    here for every kind of writing."""
    reason = reason.replace("\x00", "").strip()[:MAX_REASON]
    try:
        with transaction.atomic():
            return Report.objects.get_or_create(kind=slug, item=item, reporter=reporter, defaults={"reason": reason})[0]
    except IntegrityError:  # the same reader's two taps at once
        return Report.objects.get(kind=slug, item=item, reporter=reporter)


def _close(slug: str, item: int, outcome: str, staff: Any) -> None:
    Report.objects.filter(kind=slug, item=item, outcome=Report.Outcome.OPEN).update(
        outcome=outcome, decided_by=staff, decided_at=timezone.now()
    )


def _set_hidden(slug: str, item: int, hidden: bool, outcome: str, staff: Any) -> None:
    kind = registry.kind(slug)
    if kind is None:
        raise LookupError(slug)
    with transaction.atomic():
        kind.set_hidden(item, hidden)
        _close(slug, item, outcome, staff)


def hide(slug: str, item: int, staff: Any) -> None:
    """Hidden from every reader, and its open reports closed as hidden."""
    _set_hidden(slug, item, True, Report.Outcome.HIDDEN, staff)


def restore(slug: str, item: int, staff: Any) -> None:
    """Shown again (or approved, if it was waiting), and its open reports closed as kept."""
    _set_hidden(slug, item, False, Report.Outcome.KEPT, staff)


def ban(user_id: int, staff: Any, reason: str = "") -> None:
    """The user may no longer write nor like, and everything they wrote is hidden."""
    with transaction.atomic():
        Ban.objects.get_or_create(user_id=user_id, defaults={"by": staff, "reason": reason})
        for kind in registry.kinds():
            hidden = kind.hide_all_of(user_id)
            Report.objects.filter(kind=kind.slug, item__in=hidden, outcome=Report.Outcome.OPEN).update(
                outcome=Report.Outcome.BANNED, decided_by=staff, decided_at=timezone.now()
            )


def lift_ban(user_id: int) -> None:
    Ban.objects.filter(user_id=user_id).delete()
