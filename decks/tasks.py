"""Deck work done outside the request, by `manage.py worker`."""

from __future__ import annotations

from datetime import datetime, timedelta

from django.utils import timezone
from django_tasks import default_task_backend, task

from webutil.batching import queue_once

# How often this week's likes are counted again (their weights fall with their age).
RECOUNT_EVERY = timedelta(hours=1)


@task()
def recheck_format(key: str) -> int:
    """A house format's rules changed, or it went: its decks' kept verdicts written again (a
    group's members may keep thousands of decks: not inside the owner's request)."""
    from decks.services import recheck_format as recheck  # here: decks.services queues this task

    return recheck(key)


@task()
def recount_week_likes() -> int:
    """This week's like scores written again (decks.likes.recount_week), then the next run
    queued an hour on: the worker has no scheduler, so the task keeps its own hour."""
    from decks.likes import recount_week

    scored = recount_week()
    schedule_week_recount(timezone.now() + RECOUNT_EVERY)
    return scored


def schedule_week_recount(when: datetime | None = None) -> None:
    """Queue the recount (at `when`, or an hour from now) unless one is queued already. A
    backend that cannot defer (tests run tasks at once) counts the week now, not in an hour."""
    from django_tasks_db.models import DBTaskResult

    if not default_task_backend.supports_defer:
        return
    name = f"{recount_week_likes.module_path}"
    if DBTaskResult.objects.filter(task_path=name, status="READY").exists():
        return
    run_after = when if when is not None else timezone.now() + RECOUNT_EVERY
    recount_week_likes.using(run_after=run_after).enqueue()


# Public decks saved within this long are counted in one run of the cards' figures.
CARD_STATS_BATCH = timedelta(minutes=1)


@task()
def recompute_card_stats() -> int:
    """Every card's figures from the public decks (decks.card_stats), for the saves of the last
    minute together. Returns how many decks they rest on."""
    from decks.card_stats import compute

    return compute()


def schedule_card_stats() -> None:
    """Queue the cards' figures a minute on, unless a run is queued already: a hundred saves in
    that minute make one run. A backend that cannot defer (tests) leaves it to the caller."""
    queue_once(recompute_card_stats, CARD_STATS_BATCH)


@task()
def tell_followers(deck_id: int) -> int:
    """A deck became public for the first time: each of its owner's followers is told (once,
    however often it goes private and public again). Returns how many were told."""
    from decks.models import Deck
    from people.models import Notification
    from people.notices import notify
    from people.profiles import followers_of

    deck = Deck.objects.select_related("owner").filter(pk=deck_id).first()
    if deck is None or not deck.public:
        return 0
    url = deck.get_absolute_url()
    told = set(Notification.objects.filter(kind="new_deck", url=url).values_list("recipient_id", flat=True))
    count = 0
    for follower in followers_of(deck.owner_id):
        if follower not in told and notify(follower, "new_deck", deck.owner, deck.name, url):
            count += 1
    return count
