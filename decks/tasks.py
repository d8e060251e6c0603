"""Deck work done outside the request, by `manage.py worker`."""

from __future__ import annotations

from django_tasks import task


@task()
def recheck_format(key: str) -> int:
    """A house format's rules changed, or it went: its decks' kept verdicts written again (a
    group's members may keep thousands of decks: not inside the owner's request)."""
    from decks.services import recheck_format as recheck  # here: decks.services queues this task

    return recheck(key)
