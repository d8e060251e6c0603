from typing import Any

from django.apps import AppConfig

# The imports of models and services sit inside the functions below: Django reads an apps.py
# before its app registry is ready, when no model may be imported yet.


class EventsConfig(AppConfig):
    name = "events"
    verbose_name = "Events"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from django.db.models.signals import post_delete

        from groups.models import HouseFormat
        from groups.services import format_changing

        post_delete.connect(_house_format_gone, sender=HouseFormat, dispatch_uid="events-house-format-gone")
        format_changing.connect(_house_format_changing, sender=HouseFormat, dispatch_uid="events-house-format-changing")


def _house_format_gone(sender: Any, instance: Any, **kwargs: Any) -> None:
    """A house format deleted (alone, or with its group): its events play the default format from
    now on, in the same transaction (an event's lists are checked on every view of it)."""
    from events.models import Event
    from rules_check import DEFAULT_FORMAT

    Event.objects.filter(format=instance.key).update(format=DEFAULT_FORMAT)


def _house_format_changing(sender: Any, key: str, **kwargs: Any) -> None:
    """An event whose lists are closed (locked, or past its deadline) was judged by the format's
    rules as they are, and its pairings and results stand on that: they may not change under it.
    The format's events are locked as rows, so that an event locking meanwhile waits for the
    change (and is then judged by the new rules) instead of slipping between look and write."""
    from events.models import Event
    from events.services import event_freezing_format, format_frozen_by
    from groups.services import FormatInUse

    list(Event.objects.select_for_update().filter(format=key).values_list("pk", flat=True))
    closed = event_freezing_format(key)
    if closed is not None:
        raise FormatInUse(format_frozen_by(closed))
