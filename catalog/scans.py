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
from catalog.models import MAX_WAITING_SCANS, MAX_WAITING_SHEETS, Card, Scan
from scanning import CardRef, Reading
from scanning.sheet import SheetReading


class ScanError(ValueError):
    """A scan refused, in words for its owner; `status` is the HTTP answer's."""

    def __init__(self, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.message = message
        self.status = status


def start(user: Any, upload: IO[bytes], purpose: str = Scan.Purpose.COLLECTION, card: Card | None = None) -> Scan:
    """The photo kept (private to its owner) and its reading queued; at most MAX_WAITING_SCANS
    of a user's photos wait at once (MAX_WAITING_SHEETS of an organiser's paper lists, apart)."""
    from catalog.tasks import read_scan

    try:
        clean = images.clean_upload(upload)
    except images.ImageRejected as exc:
        raise ScanError(str(exc)) from None
    with transaction.atomic():
        # The owner's row locked: two uploads at once cannot both pass the limit.
        get_user_model().objects.select_for_update().filter(pk=user.pk).first()
        sheets = purpose == Scan.Purpose.SHEET
        mine = Scan.objects.filter(user=user).waiting()
        waiting = (mine.filter(purpose=purpose) if sheets else mine.exclude(purpose=Scan.Purpose.SHEET)).count()
        limit = MAX_WAITING_SHEETS if sheets else MAX_WAITING_SCANS
        if waiting >= limit:
            raise ScanError(
                _("%(n)d of your photos are still waiting to be read: send more when they are done.") % {"n": limit},
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


def as_sheet(reading: SheetReading, codes: list[str]) -> dict[str, Any]:
    """scanning.sheet's reading of a paper list (and the QR codes of its photo) as plain data."""
    return {
        "codes": codes,
        "player": reading.player,
        "lines": [
            {
                "count": line.count,
                "card": line.card,
                "text": line.text,
                "confidence": line.confidence,
                "sure": line.sure,
                "box": list(line.box),
                "alternatives": [{"card": code, "confidence": conf} for code, conf in line.alternatives],
            }
            for line in reading.lines
        ],
        "unmatched": [{"text": line.text, "box": list(line.box)} for line in reading.unmatched],
    }


# The headings a registration sheet prints (templates/decks/_sheet.html), read in every language
# so that none of them is taken for a card; the first is the one beside the player's name.
SHEET_HEADINGS = (
    "Player name",
    "Player ID",
    "Event",
    "Date",
    "Deck",
    "Format",
    "General",
    "Card",
    "Code",
    "total",
    "Reinforcements",
    "Main deck",
    "Verdict",
    "Legal",
    "Not legal",
    "Player signature",
    "Judge",
    "Deck code",
    "Deck registration sheet",
)
# Written on typed lists: `玩家：張三` (rules_check's deck-list headings).
PLAYER_WORDS = ("Player", "玩家", "選手", "选手")


def sheet_labels() -> tuple[list[str], list[str]]:
    """Every heading of the sheet in each language (and the kinds' names, the tables' captions),
    and the headings whose value is the player's name."""
    from django.conf import settings
    from django.utils import translation

    from catalog.textkeys import to_simplified
    from catalog.vocab import ENGLISH, Kind

    # The tables' captions: each kind's name in both scripts and in English.
    headings: list[str] = [word for kind in Kind for word in (kind.label, to_simplified(str(kind.label)))]
    headings += [ENGLISH.get(kind.value, kind.value) for kind in Kind]
    players: list[str] = list(PLAYER_WORDS)
    for code, _name in settings.LANGUAGES:
        with translation.override(code):
            headings += [str(_(text)) for text in SHEET_HEADINGS]
            players.append(str(_(SHEET_HEADINGS[0])))
    return headings, players
