"""Django's migrate, under the start-up lock (webutil.locks): servers starting together on a
fresh database migrate it once; the others wait, then find nothing to do."""

from __future__ import annotations

from typing import Any

from django.core.management.commands.migrate import Command as MigrateCommand

from webutil.locks import database_lock


class Command(MigrateCommand):
    def handle(self, *args: Any, **options: Any) -> None:
        with database_lock("startup", using=options.get("database") or "default"):
            super().handle(*args, **options)
