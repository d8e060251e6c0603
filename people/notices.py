"""What the site tells a user (the bell in the header, /notifications/, and by e-mail for the
kinds the user asks): one registry of kinds, each with its words."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.db.models import F
from django.utils import timezone
from django.utils.functional import Promise
from django.utils.html import conditional_escape
from django.utils.safestring import mark_safe
from django.utils.translation import gettext, gettext_lazy, ngettext

from people.models import Notification, Profile

# The newest this many notifications are listed; older ones stay counted until read.
LISTED = 50


@dataclass(frozen=True)
class Kind:
    slug: str
    label: str | Promise  # in the settings: "Comments on my decks"
    grouped: bool  # while unread, more of them on one deck add up in one notification


KINDS = {
    kind.slug: kind
    for kind in (
        Kind("comment", gettext_lazy("Comments on my decks"), grouped=False),
        Kind("reply", gettext_lazy("Replies to my comments"), grouped=False),
        Kind("like", gettext_lazy("Likes of my decks"), grouped=True),
        Kind("new_deck", gettext_lazy("New public decks of people I follow"), grouped=False),
        Kind("player_link", gettext_lazy("Organisers asking me to confirm I played their event"), grouped=False),
        Kind("promoted", gettext_lazy("A place for me at an event whose waiting list I joined"), grouped=False),
    )
}


def text(notification: Notification, mark: Callable[[str], str] | None = None) -> str:
    """The notification in the reader's language (stored as data, shown in words when read).
    `mark`: how a page shows the names in it (escaped, and marked as Chinese where they are);
    the answer is then HTML, safe to show."""
    actor = notification.actor.username if notification.actor else "—"
    values = {"actor": actor, "deck": notification.subject, "n": notification.count}
    if notification.kind == "like" and notification.count > 1:
        words = ngettext("“%(deck)s” got %(n)d like", "“%(deck)s” got %(n)d likes", notification.count)
    else:
        words = {
            "like": gettext("%(actor)s liked “%(deck)s”"),
            "comment": gettext("%(actor)s commented on “%(deck)s”"),
            "reply": gettext("%(actor)s replied to you on “%(deck)s”"),
            "new_deck": gettext("%(actor)s shared a new deck: “%(deck)s”"),
            "player_link": gettext("%(actor)s asks you to confirm you played “%(deck)s”"),
            "promoted": gettext("You moved up from the waiting list: you have a place at “%(deck)s”"),
        }[notification.kind]
    if mark is None:
        return words % values
    # A name is escaped unless `mark` made it safe markup already.
    marked: dict[str, object] = {
        "actor": conditional_escape(mark(actor)),
        "deck": conditional_escape(mark(notification.subject)),
        "n": notification.count,
    }
    return mark_safe(conditional_escape(words) % marked)  # noqa: S308 (the words escaped, the names marked)


def _wants(recipient_id: int, kind: str) -> tuple[bool, bool]:
    """Whether the user takes this kind in the site, and by e-mail."""
    profile = Profile.objects.filter(user_id=recipient_id).values("muted", "emailed").first()
    if profile is None:
        return True, False
    return kind not in profile["muted"], kind in profile["emailed"]


def notify(recipient_id: int, kind: str, actor: Any, subject: str, url: str) -> Notification | None:
    """Tell the user; nothing when they turned the kind off or are its actor."""
    if kind not in KINDS:
        raise ValueError(kind)
    if actor is not None and actor.pk == recipient_id:
        return None
    in_site, by_mail = _wants(recipient_id, kind)
    if not in_site:
        return None
    now = timezone.now()
    with transaction.atomic():
        if KINDS[kind].grouped:
            waiting = (
                Notification.objects.select_for_update()
                .filter(recipient_id=recipient_id, kind=kind, url=url, read=False)
                .first()
            )
            if waiting is not None:
                Notification.objects.filter(pk=waiting.pk).update(count=F("count") + 1, updated=now, actor=actor)
                waiting.refresh_from_db()
                return waiting
        made = Notification.objects.create(
            recipient_id=recipient_id, kind=kind, actor=actor, subject=subject[:100], url=url, created=now, updated=now
        )
    if by_mail:
        from people.tasks import email_notification

        transaction.on_commit(lambda: email_notification.enqueue(made.pk))
    return made


def unread(user: Any) -> int:
    return Notification.objects.filter(recipient=user, read=False).count()


def newest(user: Any) -> list[Notification]:
    return list(
        Notification.objects.filter(recipient=user).select_related("actor").order_by("-updated", "-pk")[:LISTED]
    )


def read_all(user: Any) -> int:
    return Notification.objects.filter(recipient=user, read=False).update(read=True)
