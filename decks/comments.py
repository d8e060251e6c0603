"""Comments on public decks: written, edited, deleted and hidden here, under the rules of
writing for others (moderation.rules) and with the deck's count of comments kept with it
(`Deck.comment_count`), so that a list never counts rows per deck.

Each write takes the deck's row lock first: two comments written at once each count the other.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from django.core.paginator import Page, Paginator
from django.db import transaction
from django.db.models import Count, Q
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from catalog.cardlinks import render_with_card_links
from decks.models import MAX_COMMENT, Deck, DeckComment
from moderation import registry, rules
from people.notices import notify
from webutil import bounds
from webutil.numbers import whole_number
from webutil.urls import reverse_memo

EDIT_MINUTES = bounds.declare("comment edit window", 15, "minutes", "how long an author may still edit a comment")
THREADS_PER_PAGE = bounds.declare(
    "comments on a page", 50, "comments", "comments (each with its replies) a deck page shows"
)
State = DeckComment.State
KIND = "deck-comment"


class CommentError(rules.Refused):
    """A comment the rules refuse; `status` is the HTTP answer."""


def _body(text: Any) -> str:
    too_long = _("A comment has at most %(max)d characters.") % {"max": MAX_COMMENT}
    try:
        return rules.cleaned(text, MAX_COMMENT, _("A comment is text."), too_long)
    except rules.Refused as exc:
        raise CommentError(str(exc), exc.status) from None


def _recount(deck_id: int) -> None:
    shown = DeckComment.objects.filter(deck_id=deck_id, state=State.SHOWN, hidden_by_owner=False).count()
    Deck.objects.filter(pk=deck_id).update(comment_count=shown)


def _locked(deck_id: int) -> None:
    list(Deck.objects.select_for_update().filter(pk=deck_id).values_list("pk", flat=True))


def write(deck: Deck, author: Any, text: Any, parent_id: Any = None, now: datetime | None = None) -> DeckComment:
    """A new comment on the deck (a reply when `parent_id` names one of its comments: a reply
    to a reply joins the same thread, one level deep)."""
    now = now or timezone.now()
    if not deck.public:
        raise CommentError(_("Only public decks take comments."), 404)
    body = _body(text)
    try:
        rules.check_may_write(author, now)
    except rules.Refused as exc:
        raise CommentError(str(exc), exc.status) from None
    parent = None
    if parent_id not in (None, ""):
        wanted = parent_id if isinstance(parent_id, int) and not isinstance(parent_id, bool) else None
        wanted = wanted if wanted is not None else whole_number(parent_id, low=1)
        parent = DeckComment.objects.filter(deck=deck, pk=wanted).first() if wanted else None
        if parent is None or parent.state in (State.HIDDEN, State.PENDING):
            raise CommentError(_("Reply to a comment of this deck."))
        if parent.parent_id is not None:
            parent = DeckComment.objects.get(pk=parent.parent_id)
    state = State.PENDING if rules.needs_approval(author, body, now) else State.SHOWN
    html = render_with_card_links(body)
    with transaction.atomic():
        _locked(deck.pk)
        comment = DeckComment.objects.create(
            deck=deck, author=author, parent=parent, body=body, body_html=html, state=state, created=now
        )
        _recount(deck.pk)
    if state == State.SHOWN:
        _tell(deck, author, parent)
    return comment


def _tell(deck: Deck, author: Any, parent: DeckComment | None) -> None:
    """The deck's owner hears of a comment; a comment's author, of a reply to it."""
    url = f"{deck.get_absolute_url()}#comments"
    if parent is not None and parent.author_id and parent.author_id != author.pk:
        notify(parent.author_id, "reply", author, deck.name, url)
    if parent is None or parent.author_id != deck.owner_id:
        notify(deck.owner_id, "comment", author, deck.name, url)


def _own(comment: DeckComment, user: Any) -> None:
    if comment.author_id != user.pk or comment.state == State.DELETED:
        raise CommentError(_("No such comment."), 404)


def edit(comment: DeckComment, user: Any, text: Any, now: datetime | None = None) -> DeckComment:
    """The author's change, within the edit window."""
    now = now or timezone.now()
    _own(comment, user)
    if rules.is_banned(user):
        raise CommentError(_("Your account may no longer write here."), 403)
    if now - comment.created > timedelta(minutes=int(EDIT_MINUTES)):
        raise CommentError(
            _("A comment can be edited for %(n)d minutes after it is written.") % {"n": int(EDIT_MINUTES)}, 403
        )
    body = _body(text)
    comment.body, comment.body_html, comment.edited = body, render_with_card_links(body), now
    if comment.state == State.SHOWN and rules.needs_approval(user, body, now):
        comment.state = State.PENDING
    with transaction.atomic():
        _locked(comment.deck_id)
        comment.save(update_fields=["body", "body_html", "edited", "state"])
        _recount(comment.deck_id)
    return comment


def delete(comment: DeckComment, user: Any) -> None:
    """The author takes it back: its text goes, its replies stay readable."""
    _own(comment, user)
    _erase(DeckComment.objects.filter(pk=comment.pk))


def _erase(comments: Any) -> None:
    decks = set(comments.values_list("deck_id", flat=True))
    with transaction.atomic():
        for deck_id in sorted(decks):
            _locked(deck_id)
        comments.update(state=State.DELETED, body="", body_html="")
        for deck_id in sorted(decks):
            _recount(deck_id)


def forget_author(user_id: int) -> None:
    """An account going: its comments say "deleted", their replies stay."""
    _erase(DeckComment.objects.filter(author_id=user_id))


def owner_hide(comment: DeckComment, user: Any, hidden: bool) -> DeckComment:
    """The deck's owner hides a comment from their deck's readers, or shows it again."""
    if comment.deck.owner_id != user.pk:
        raise CommentError(_("Only the deck's owner may hide its comments."), 403)
    with transaction.atomic():
        _locked(comment.deck_id)
        DeckComment.objects.filter(pk=comment.pk).update(hidden_by_owner=hidden)
        _recount(comment.deck_id)
    comment.hidden_by_owner = hidden
    return comment


def report(comment: DeckComment, user: Any, reason: Any = "") -> None:
    if not isinstance(reason, str):
        raise CommentError(_("A reason is text."))
    if comment.state != State.SHOWN:
        raise CommentError(_("No such comment."), 404)
    rules.report(KIND, comment.pk, user, reason)


# Reading.


def readable(user: Any) -> Any:
    """The comments a reader may act on: on decks they may read that are public."""
    return DeckComment.objects.filter(deck__in=Deck.objects.visible_to(user).listed())


@dataclass
class Thread:
    comment: DeckComment
    replies: list[DeckComment] = field(default_factory=list)


def _seen(comment: DeckComment, reader: Any, owner_id: int) -> bool:
    """Whether the reader sees the comment at all (its text, or that it was hidden/deleted)."""
    mine = reader.is_authenticated and comment.author_id == reader.pk
    if comment.state == State.HIDDEN:
        return False
    if comment.state == State.PENDING:
        return mine
    if comment.hidden_by_owner:
        return mine or (reader.is_authenticated and reader.pk == owner_id)
    return True


def threads(deck: Deck, reader: Any, page: Any = 1) -> tuple[list[Thread], Page[Any]]:
    """A page of the deck's comments, oldest first, each with its replies: two queries and a count,
    however many there are. A deleted comment stays (as "deleted") while a reply to it shows."""
    tops = DeckComment.objects.filter(deck=deck, parent=None).select_related("author")
    tops = tops.annotate(shown_replies=Count("replies", filter=Q(replies__state=State.SHOWN)))
    tops = tops.exclude(Q(state=State.DELETED) & Q(shown_replies=0)).order_by("created", "id")
    paged = Paginator(tops, int(THREADS_PER_PAGE)).get_page(page)
    found = [Thread(c) for c in paged.object_list]
    by_id = {t.comment.pk: t for t in found}
    replies = DeckComment.objects.filter(parent_id__in=list(by_id)).exclude(state=State.DELETED)
    for reply in replies.select_related("author"):
        if reply.parent_id is not None and _seen(reply, reader, deck.owner_id):
            by_id[reply.parent_id].replies.append(reply)
    shown = [t for t in found if t.comment.state == State.DELETED or _seen(t.comment, reader, deck.owner_id)]
    window, now = timedelta(minutes=int(EDIT_MINUTES)), timezone.now()
    for comment in (c for t in shown for c in (t.comment, *t.replies)):
        mine = reader.is_authenticated and comment.author_id == reader.pk and comment.state != State.DELETED
        comment.mine = mine  # type: ignore[attr-defined]
        comment.may_edit = mine and now - comment.created <= window  # type: ignore[attr-defined]
    return shown, paged


# Moderation: comments are one kind of writing for others.


def _items(ids: Iterable[int]) -> dict[int, registry.Item]:
    found = DeckComment.objects.filter(pk__in=list(ids)).select_related("author")
    return {
        c.pk: registry.Item(
            id=c.pk,
            author_id=c.author_id,
            author=c.author.username if c.author else "",
            html=c.body_html,
            link=f"{reverse_memo('decks:detail', c.deck_id)}#comment-{c.pk}",
            hidden=c.state == State.HIDDEN,
            pending=c.state == State.PENDING,
        )
        for c in found
    }


def _pending() -> list[int]:
    return list(DeckComment.objects.filter(state=State.PENDING).order_by("created").values_list("pk", flat=True)[:100])


def _set_hidden(item: int, hidden: bool) -> None:
    comment = DeckComment.objects.filter(pk=item).exclude(state=State.DELETED).first()
    if comment is None:
        return
    with transaction.atomic():
        _locked(comment.deck_id)
        # Read again under the deck's lock: two staff approving at once tell the owner once.
        was = DeckComment.objects.filter(pk=item).values_list("state", flat=True).first()
        DeckComment.objects.filter(pk=item).update(state=State.HIDDEN if hidden else State.SHOWN)
        _recount(comment.deck_id)
        if was == State.PENDING and not hidden and comment.author is not None:
            # An approved comment is news the way a shown one is when written.
            _tell(comment.deck, comment.author, comment.parent)


def _written_since(user_id: int, since: datetime) -> int:
    return DeckComment.objects.filter(author_id=user_id, created__gte=since).count()


def _hide_all_of(user_id: int) -> list[int]:
    mine = DeckComment.objects.filter(author_id=user_id).exclude(state=State.DELETED)
    ids = list(mine.values_list("pk", flat=True))
    decks = sorted(set(mine.values_list("deck_id", flat=True)))
    with transaction.atomic():
        for deck_id in decks:
            _locked(deck_id)
        DeckComment.objects.filter(pk__in=ids).update(state=State.HIDDEN)
        for deck_id in decks:
            _recount(deck_id)
    return ids


registry.register(
    registry.Kind(
        slug=KIND,
        label=gettext_lazy("comment on a deck"),
        items=_items,
        pending=_pending,
        set_hidden=_set_hidden,
        written_since=_written_since,
        hide_all_of=_hide_all_of,
    )
)
