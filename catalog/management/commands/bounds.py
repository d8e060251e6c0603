"""Print the site's bounds (webutil.bounds) as the README's tables: `manage.py bounds`."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand

from webutil import bounds


class Command(BaseCommand):
    help = "Print every bound the site keeps, and the routes that take files, as Markdown tables."

    def handle(self, *args: Any, **options: Any) -> None:
        self.stdout.write(bounds.markdown(), ending="")
