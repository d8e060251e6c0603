"""Event work done outside the request, by `manage.py worker`."""

from __future__ import annotations

from datetime import date, timedelta

from django.utils import timezone
from django_tasks import default_task_backend, task

from webutil.batching import queue_once

# Results entered within this long are counted in one run of the cards' win rates.
CARD_WINS_BATCH = timedelta(minutes=1)


@task()
def recompute_card_wins() -> int:
    """Every card's match-win rate at the public events (events.card_wins), for the results of
    the last minute together. Returns the matches counted."""
    from events.card_wins import compute

    return compute()


def schedule_card_wins() -> None:
    """Queue the cards' win rates a minute on, unless a run is queued already: a round of fifty
    results makes one run. A backend that cannot defer (tests) leaves it to the caller."""
    queue_once(recompute_card_wins, CARD_WINS_BATCH)


@task()
def record_event_decks(event_id: int) -> int:
    """The event's public lists written again as event decks (events.event_decks), once it is
    finished; returns how many."""
    from events.event_decks import record  # it reads the day (events.day), which queues this task

    written = record(event_id)
    schedule_card_wins()  # the cards' event-deck counts follow
    return written


def schedule_event_decks(event_id: int) -> None:
    record_event_decks.enqueue(event_id)


# Results entered within this long are rated in one run.
RATINGS_BATCH = timedelta(minutes=1)


def recover_lost_ratings() -> int:
    """A rating run whose worker died queued again (or failed, out of tries)."""
    from events.models import RatingRun
    from webutil import leases

    again = leases.recover(RatingRun, RatingRun.STATES, failed={"error": "the worker stopped too often"})
    for run_id in again:
        update_ratings.enqueue(run_id)
    return len(again)


@task()
def update_ratings(run_id: int) -> str:
    """The ratings from the run's date on, computed again (events.ratings), under a lease; if
    another run wrote meanwhile, computed again from the data as it is then."""
    from events import ratings
    from events.models import RatingRun
    from webutil import leases

    run = leases.claim(RatingRun.objects.filter(pk=run_id), RatingRun.STATES)
    if run is None:
        return "skipped"
    with leases.held(run):
        for _try in range(3):
            try:
                ratings.recompute(run.from_date)
                break
            except ratings.Busy:
                continue
        else:
            RatingRun.objects.filter(pk=run.pk).update(status=RatingRun.Status.QUEUED, lease_until=None)
            update_ratings.using(run_after=timezone.now() + RATINGS_BATCH).enqueue(run.pk)
            return "busy"
    RatingRun.objects.filter(pk=run.pk).update(status=RatingRun.Status.DONE, lease_until=None)
    return "done"


def schedule_ratings(day: date) -> None:
    """Ratings from `day` on, in a minute (with the results of that minute); a run queued already
    goes back to `day` if need be. A backend that cannot defer (tests) runs it now."""
    from events import ratings

    run = ratings.queue_from(day)
    if run is None:
        return
    if default_task_backend.supports_defer:
        update_ratings.using(run_after=timezone.now() + RATINGS_BATCH).enqueue(run.pk)
    else:
        update_ratings.enqueue(run.pk)
