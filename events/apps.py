from typing import Any

from django.apps import AppConfig

# The imports of models and services sit inside the functions below: Django reads an apps.py
# before its app registry is ready, when no model may be imported yet.
#
# Why signals: a house format belongs to groups, below this app, and goes with its group or its
# owner's account in cascades no service of ours sees; groups may not import events (the
# layers), so this app listens, and each handler only routes to events.services.


class EventsConfig(AppConfig):
    name = "events"
    verbose_name = "Events"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from django.db.models.signals import post_delete

        from events import tasks
        from groups.models import HouseFormat
        from groups.services import format_changing
        from webutil import leases

        leases.recovers("ratings", tasks.recover_lost_ratings)
        post_delete.connect(_house_format_gone, sender=HouseFormat, dispatch_uid="events-house-format-gone")
        format_changing.connect(_house_format_changing, sender=HouseFormat, dispatch_uid="events-house-format-changing")


def _house_format_gone(sender: Any, instance: Any, **kwargs: Any) -> None:
    from events.services import house_format_gone

    house_format_gone(instance.key)


def _house_format_changing(sender: Any, key: str, **kwargs: Any) -> None:
    from events.services import house_format_changing

    house_format_changing(key)
