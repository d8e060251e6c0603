from typing import Any

from django.apps import AppConfig


class EventsConfig(AppConfig):
    name = "events"
    verbose_name = "Events"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from django.db.models.signals import post_delete

        from groups.models import HouseFormat

        post_delete.connect(_house_format_gone, sender=HouseFormat, dispatch_uid="events-house-format-gone")


def _house_format_gone(sender: Any, instance: Any, **kwargs: Any) -> None:
    """A house format deleted (alone, or with its group): its events play the default format from
    now on, in the same transaction (an event's lists are checked on every view of it)."""
    from events.models import Event
    from rules_check import DEFAULT_FORMAT

    Event.objects.filter(format=instance.key).update(format=DEFAULT_FORMAT)
