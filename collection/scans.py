"""Counting a collection by photo: a photo becomes a Scan (checked and cleaned as every upload
is), is read outside the request (collection.tasks.read_scan), and the cards found are added to
the collection once the owner has checked them."""

from __future__ import annotations

from dataclasses import dataclass
from typing import IO, Any

from django.contrib.auth import get_user_model
from django.core.files.base import ContentFile
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from catalog import images
from catalog.lookup import catalog_index
from catalog.models import Card
from collection.models import MAX_WAITING_SCANS, Scan
from collection.services import CountError, change_counts
from scanning import CardRef, Reading


class ScanError(ValueError):
    """A scan refused, in words for its owner; `status` is the HTTP answer's."""

    def __init__(self, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.message = message
        self.status = status


def start(user: Any, upload: IO[bytes]) -> Scan:
    """The photo kept (private to its owner) and its reading queued; at most MAX_WAITING_SCANS
    of a user's photos wait at once."""
    from collection.tasks import read_scan

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
        scan = Scan.objects.create(user=user, width=clean.width, height=clean.height)
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


@dataclass(frozen=True)
class Addition:
    card: Card
    add: int
    add_foil: int


def apply(user: Any, scan_id: int, additions: list[Addition]) -> int:
    """The copies the owner checked, added to their collection at once (a history entry a card,
    each undoable); a scan is applied once. Returns how many copies were added."""
    with transaction.atomic():
        scan = Scan.objects.select_for_update().filter(pk=scan_id, user=user).first()
        if scan is None:
            raise ScanError(_("No such scan."), status=404)
        if scan.status != Scan.Status.DONE:
            raise ScanError(_("This photo has not been read yet."), status=409)
        if scan.applied_at is not None:
            raise ScanError(_("The cards of this photo were already added."), status=409)
        for addition in additions:
            if addition.add or addition.add_foil:
                try:
                    change_counts(user, addition.card, add=addition.add, add_foil=addition.add_foil, source="scan")
                except CountError as exc:  # nothing of this scan is added
                    raise ScanError(str(exc)) from None
        scan.applied_at = timezone.now()
        scan.save(update_fields=["applied_at"])
    return sum(a.add + a.add_foil for a in additions)
