"""Delete the photos of scans finished more than SCAN_KEEP_DAYS ago (run it daily from cron; the
worker has no scheduler). What was found stays; the photo goes, with its file."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.core.management.base import BaseCommand
from django.utils import timezone

from catalog.models import SCAN_KEEP_DAYS, Scan


class Command(BaseCommand):
    help = f"Delete the photos of scans finished more than {SCAN_KEEP_DAYS} days ago."

    def handle(self, *args: Any, **options: Any) -> None:
        cutoff = timezone.now() - timedelta(days=SCAN_KEEP_DAYS)
        old = Scan.objects.filter(finished_at__lt=cutoff).exclude(image="")
        deleted = 0
        for scan in old.iterator():
            scan.image.delete(save=False)
            Scan.objects.filter(pk=scan.pk).update(image="")
            deleted += 1
        self.stdout.write(f"{deleted} photos deleted")
