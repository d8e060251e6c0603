"""Event work done outside the request, by `manage.py worker`."""

from __future__ import annotations

from datetime import timedelta

from django.utils import timezone
from django_tasks import default_task_backend, task

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
    from django_tasks_db.models import DBTaskResult

    if not default_task_backend.supports_defer:
        return
    if DBTaskResult.objects.filter(task_path=recompute_card_wins.module_path, status="READY").exists():
        return
    recompute_card_wins.using(run_after=timezone.now() + CARD_WINS_BATCH).enqueue()
