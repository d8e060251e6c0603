"""Background work batched by time: a task queued to run a while on, unless a run of it is queued
already, so that a hundred saves in that while make one run (the cards' figures, their win rates)."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.utils import timezone
from django_tasks import default_task_backend


def queue_once(task: Any, after: timedelta) -> None:
    """Queue `task` to run `after` from now unless a run of it waits already. A backend that
    cannot defer (tests run tasks at once) queues nothing: the caller runs the work itself."""
    from django_tasks_db.models import DBTaskResult

    if not default_task_backend.supports_defer:
        return
    if DBTaskResult.objects.filter(task_path=task.module_path, status="READY").exists():
        return
    task.using(run_after=timezone.now() + after).enqueue()
