"""Events as tests make them."""

from __future__ import annotations

from datetime import date, datetime, time

from django.utils import timezone


def starting(day: date, hour: int = 10) -> datetime:
    """An event's start on `day` at `hour` in local time (Taipei), as an organiser types it."""
    return timezone.make_aware(datetime.combine(day, time(hour)))
