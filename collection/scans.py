"""Counting a collection by photo: the photo is read against the catalogue (catalog.scans), and
the cards found are added to the collection once the owner has checked them."""

from __future__ import annotations

from dataclasses import dataclass
from typing import IO, Any
from uuid import uuid4

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from catalog import scans as readings
from catalog.models import Card, Scan
from catalog.scans import ScanError
from collection.models import CollectionChange
from collection.services import CountError, change_counts

__all__ = ["Addition", "ScanError", "apply", "start", "start_photos"]


def start(user: Any, upload: IO[bytes]) -> Scan:
    """A photo of my cards, queued to be read."""
    return readings.start(user, upload, Scan.Purpose.COLLECTION)


def start_photos(user: Any, uploads: list[Any]) -> list[Scan]:
    """Several photos of my cards at once: the waiting limit asked first, then each photo's
    header; all are queued, or (ScanError, naming the photo) none."""
    readings.ensure_room(user, Scan.Purpose.COLLECTION, len(uploads))
    checked = []
    for upload in uploads:
        try:
            checked.append(readings.check_photo(upload))
        except ScanError as exc:
            raise ScanError(f"{str(getattr(upload, 'name', ''))[:80]}: {exc.message}", exc.status) from None
    return readings.start_many(user, checked, Scan.Purpose.COLLECTION)


@dataclass(frozen=True)
class Addition:
    card: Card
    add: int
    add_foil: int


def apply(user: Any, scan_id: int, additions: list[Addition]) -> int:
    """The copies the owner checked, added to their collection at once (one history entry,
    undone as one); a scan is applied once. Returns how many copies were added."""
    batch = uuid4()
    with transaction.atomic():
        scan = Scan.objects.select_for_update().filter(pk=scan_id, user=user).first()
        if scan is None:
            raise ScanError(_("No such scan."), status=404)
        if scan.purpose != Scan.Purpose.COLLECTION:
            raise ScanError(_("This photo was sent to complete a card, not to count your cards."), status=409)
        if scan.status != Scan.Status.DONE:
            raise ScanError(_("This photo has not been read yet."), status=409)
        if scan.applied_at is not None:
            raise ScanError(_("The cards of this photo were already added."), status=409)
        for addition in additions:
            if addition.add or addition.add_foil:
                try:
                    change_counts(
                        user,
                        addition.card,
                        add=addition.add,
                        add_foil=addition.add_foil,
                        source=CollectionChange.Source.SCAN,
                        batch=batch,
                    )
                except CountError as exc:  # nothing of this scan is added
                    raise ScanError(str(exc)) from None
        scan.applied_at = timezone.now()
        scan.save(update_fields=["applied_at"])
    return sum(a.add + a.add_foil for a in additions)
