"""Photos read against the catalogue: a photo becomes a Scan (checked and cleaned as every upload
is, private to its owner) and is read outside the request (catalog.tasks.read_scan). What it is
for is the caller's: counting a collection (collection.scans), completing a card (contributions).
"""

from __future__ import annotations

from typing import IO, Any

from django.contrib.auth import get_user_model
from django.core.files.base import ContentFile
from django.db import transaction
from django.utils.translation import gettext as _

from catalog import images
from catalog.lookup import catalog_index
from catalog.models import MAX_WAITING_SCANS, Card, Scan
from scanning import CardRef, Reading


class ScanError(ValueError):
    """A scan refused, in words for its owner; `status` is the HTTP answer's."""

    def __init__(self, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.message = message
        self.status = status


def start(user: Any, upload: IO[bytes], purpose: str = Scan.Purpose.COLLECTION, card: Card | None = None) -> Scan:
    """The photo kept (private to its owner) and its reading queued; at most MAX_WAITING_SCANS
    of a user's photos wait at once."""
    from catalog.tasks import read_scan

    try:
        clean = images.clean_upload(upload)
    except images.ImageRejected as exc:
        raise ScanError(str(exc)) from None
    with transaction.atomic():
        # The owner's row locked: two uploads at once cannot both pass the limit.
        get_user_model().objects.select_for_update().filter(pk=user.pk).first()
        if Scan.objects.filter(user=user).waiting().count() >= MAX_WAITING_SCANS:
            raise ScanError(
                _("%(n)d of your photos are still waiting to be read: send more when they are done.")
                % {"n": MAX_WAITING_SCANS},
                status=429,
            )
        scan = Scan.objects.create(user=user, purpose=purpose, card=card, width=clean.width, height=clean.height)
        scan.image.save(f"scans/{user.pk}/{scan.pk}-{clean.digest}.webp", ContentFile(clean.data), save=True)
        read_scan.enqueue(scan.pk)
    scan.refresh_from_db()
    return scan


def catalogue_refs() -> list[CardRef]:
    """The catalogue as the matching knows it: codes and names in both scripts."""
    index = catalog_index()
    simplified = dict(Card.objects.values_list("code", "name_simplified"))
    return [CardRef(code, facts.name, simplified.get(code) or "") for code, facts in index.by_code.items()]


def as_result(reading: Reading) -> dict[str, Any]:
    """scanning.Reading as the plain data a Scan keeps and the API answers."""
    return {
        "cards": [
            {
                "card": found.card,
                "confidence": found.confidence,
                "box": list(found.box),
                "text": " / ".join(found.text),
                "alternatives": [{"card": code, "confidence": conf} for code, conf in found.alternatives],
            }
            for found in reading.cards
        ],
        "unmatched": [{"text": line.text, "box": list(line.box)} for line in reading.unmatched],
    }
