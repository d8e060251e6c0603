"""Regenerate the thumbnails of every card picture (after THUMBNAIL_WIDTHS changes, say, or a
restore of MEDIA_ROOT without them), with a progress bar."""

from __future__ import annotations

from typing import Any

from django.core.files.storage import default_storage
from django.core.management.base import BaseCommand, CommandParser
from tqdm import tqdm

from catalog import cache_version, images
from catalog.models import CardImage


class Command(BaseCommand):
    help = "Regenerate the thumbnails of all card pictures."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--missing", action="store_true", help="only pictures with a thumbnail file missing")

    def handle(self, *args: Any, missing: bool = False, **options: Any) -> None:
        rows = list(CardImage.objects.select_related("card"))
        if missing:
            rows = [
                r for r in rows if not all(default_storage.exists(n) for n in r.thumbnails.values()) or not r.thumbnails
            ]
        done, failed = 0, []
        # The bar goes to stderr (what tqdm is for); the summary to stdout, for scripts.
        for row in tqdm(rows, desc="thumbnails", unit="picture", file=self.stderr._out, disable=not rows):
            try:
                stale = set(row.thumbnails.values())
                row.thumbnails = images.make_thumbnails(row.image.name)
                row.save(update_fields=["thumbnails"])
                images.delete_files(sorted(stale - set(row.thumbnails.values())))
                done += 1
            except OSError as exc:  # the picture itself is gone or unreadable: say so, go on
                failed.append(f"{row.card.code} {row.side}: {exc}")
        cache_version.bump()
        for line in failed:
            self.stderr.write(line)
        self.stdout.write(f"{done} picture(s) given fresh thumbnails, {len(failed)} failed.")
        if failed:
            raise SystemExit(1)
