"""Check every deck again against the current catalogue (what the public deck list does by
itself on its first request after a catalogue change); `make serve-prod` runs it after loading."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand

from decks.services import refresh_verdicts


class Command(BaseCommand):
    help = "Refresh the verdicts decks keep, after a catalogue change."

    def handle(self, *args: Any, **options: Any) -> None:
        changed = refresh_verdicts()
        self.stdout.write(self.style.SUCCESS(f"{changed} verdicts changed"))
