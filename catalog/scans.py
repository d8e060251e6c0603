"""Photos read against the catalogue: a photo becomes a Scan (checked and cleaned as every upload
is, private to its owner) and is read outside the request (catalog.tasks.read_scan). What it is
for is the caller's: counting a collection (collection.scans), completing a card (contributions).
"""

from __future__ import annotations

import hashlib
from dataclasses import asdict, dataclass
from typing import IO, Any
from uuid import uuid4

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.files.base import ContentFile
from django.db import transaction
from django.utils import translation
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from catalog import images
from catalog.lookup import catalog_index
from catalog.models import MAX_WAITING_SCANS, MAX_WAITING_SHEETS, Card, Scan
from catalog.textkeys import to_simplified
from catalog.vocab import ENGLISH, Element, Faction, Kind, Speed, TroopClass
from scanning import CardRef, Reading
from scanning.pictures import Header, PageLimits, PictureError, inspect_pdf, run_bounded
from scanning.sheet import SheetReading
from webutil import bounds
from webutil.storage import private_storage, taken_back_unless_kept


class ScanError(ValueError):
    """A scan refused, in words for its owner; `status` is the HTTP answer's."""

    def __init__(self, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.message = message
        self.status = status


# A PDF of paper lists (events.paper reads it a page a scan): its bound, and how its pages may be.
PDF = bounds.upload("pdf", 20 * bounds.MB, "a PDF of paper deck lists (a scanner's 40 pages of A4 fit)")
PDF_PAGES = bounds.declare("pdf pages", 60, "pages", "the pages of one PDF of paper lists")
PAGE_WIDTH = bounds.declare("pdf page width", 1650, "pixels", "how wide a PDF page is drawn at most (A4 at 200 dpi)")
PAGE_HEIGHT = bounds.declare("pdf page height", 2400, "pixels", "how tall a PDF page is drawn at most")
# A sheet of paper: each side between 2 inches and about 1.8 m, the longer at most 3 times the
# shorter (A4 is 1.41, a receipt roll is refused).
PAGE_LIMITS = PageLimits(
    max_pages=int(PDF_PAGES),
    min_side=144,
    max_side=5000,
    max_ratio=3,
    max_width=int(PAGE_WIDTH),
    max_height=int(PAGE_HEIGHT),
)


@dataclass(frozen=True)
class Upload:
    """A file checked from its header alone, ready to keep: a photo, or a PDF of `header.pages`
    pages (each read as a scan of its own)."""

    data: bytes
    header: Header
    name: str

    @property
    def pages(self) -> list[int | None]:
        return list(range(1, self.header.pages + 1)) if self.header.kind == "PDF" else [None]


def check_photo(upload: IO[bytes]) -> Upload:
    """A photo as a request may take it: its size and header checked, nothing decoded."""
    try:
        data, header = images.inspect_upload(upload)
    except images.ImageRejected as exc:
        raise ScanError(str(exc)) from None
    return Upload(data, header, str(getattr(upload, "name", "") or "")[:200])


def check_pdf(upload: IO[bytes]) -> Upload:
    """A PDF as a request may take it: its size, its page count and each page's MediaBox
    checked, no page rendered."""
    data = upload.read(int(PDF) + 1)
    if len(data) > int(PDF):
        raise ScanError(_("A PDF may be at most %(mb)d MB.") % {"mb": int(PDF) // bounds.MB})
    try:
        header = inspect_pdf(data, PAGE_LIMITS)
    except PictureError as exc:
        raise ScanError(images.refusal(exc)) from None
    return Upload(data, header, str(getattr(upload, "name", "") or "")[:200])


def _limit(purpose: str) -> int:
    return MAX_WAITING_SHEETS if purpose == Scan.Purpose.SHEET else MAX_WAITING_SCANS


def _waiting(user: Any, purpose: str) -> int:
    mine = Scan.objects.filter(user=user).waiting()
    sheets = purpose == Scan.Purpose.SHEET
    return (mine.filter(purpose=purpose) if sheets else mine.exclude(purpose=Scan.Purpose.SHEET)).count()


def ensure_room(user: Any, purpose: str, adding: int = 1) -> None:
    """ScanError (429) when `adding` more would pass the user's limit of waiting photos: asked
    before anything is read from the upload, and again under the user's row lock."""
    limit = _limit(purpose)
    waiting = _waiting(user, purpose)
    if waiting + adding > limit:
        raise ScanError(
            ngettext(
                "%(n)d of your photos are still waiting to be read (at most %(limit)d): send more when they are done.",
                "%(n)d of your photos are still waiting to be read (at most %(limit)d): send more when they are done.",
                waiting,
            )
            % {"n": waiting, "limit": limit},
            status=429,
        )


def start(user: Any, upload: IO[bytes], purpose: str = Scan.Purpose.COLLECTION, card: Card | None = None) -> Scan:
    """One photo kept (private to its owner) and its reading queued."""
    ensure_room(user, purpose)
    return start_many(user, [check_photo(upload)], purpose, card)[0]


def start_many(user: Any, uploads: list[Upload], purpose: str, card: Card | None = None) -> list[Scan]:
    """Checked uploads kept as they came and queued to be read, a scan a photo or PDF page: all
    of them or (past the user's limit of waiting photos) none. The worker decodes them."""
    from catalog.tasks import read_scan  # here, not at the top: catalog.tasks reads this module

    pages = sum(len(u.pages) for u in uploads)
    ensure_room(user, purpose, pages)
    # Written before the lock is taken (a 25 MB file takes a while), and taken away again when
    # the check under the lock refuses them.
    names = [_keep(user, upload) for upload in uploads]
    made: list[Scan] = []
    with taken_back_unless_kept(names), transaction.atomic():
        # The owner's row locked: two uploads at once cannot both pass the limit.
        get_user_model().objects.select_for_update().filter(pk=user.pk).first()
        ensure_room(user, purpose, pages)
        for upload, name in zip(uploads, names, strict=True):
            made += [
                Scan.objects.create(
                    user=user,
                    purpose=purpose,
                    card=card,
                    source=name,
                    page=page,
                    width=upload.header.width,
                    height=upload.header.height,
                )
                for page in upload.pages
            ]
        for scan in made:
            read_scan.enqueue(scan.pk)
    for scan in made:
        scan.refresh_from_db()
    return made


def _keep(user: Any, upload: Upload) -> str:
    extension = "pdf" if upload.header.kind == "PDF" else upload.header.kind.lower()
    digest = hashlib.sha256(upload.data).hexdigest()[:16]
    return private_storage().save(f"scans/{user.pk}/sent-{digest}.{extension}", ContentFile(upload.data))


def decode_source(scan: Scan) -> None:
    """The worker's part: the scan's file as sent, decoded within bounds into the picture read
    (a clean WebP; a PDF page drawn in grey), its source deleted once no other page needs it.
    PictureError when the file cannot be decoded."""
    if scan.image:
        return  # decoded on an earlier try
    with scan.source.open("rb") as sent:
        data = sent.read()
    memory, seconds = int(images.DECODE_MEMORY), float(images.DECODE_SECONDS.value)
    if scan.page is not None:
        limits = asdict(PAGE_LIMITS)
        picture, width, height = run_bounded(
            "page", data, memory=memory, seconds=seconds, page=scan.page, limits=limits
        )
        extension = "png"
    else:
        longest, most = images.SCAN_SIDE, images.MAX_PIXELS
        picture, width, height = run_bounded(
            "image", data, memory=memory, seconds=seconds, max_pixels=most, longest=longest
        )
        extension = "webp"
    scan.image.save(f"scans/{scan.user_id}/{scan.pk}-{uuid4().hex[:12]}.{extension}", ContentFile(picture), save=False)
    scan.width, scan.height = width, height
    scan.save(update_fields=["image", "width", "height"])
    release_source(scan.source.name)


def forget(sender: Any, instance: Scan, **kwargs: Any) -> None:
    """post_delete: a deleted scan's files go once the deletion is committed."""
    image, source = instance.image.name, instance.source.name

    def remove() -> None:
        if image:
            private_storage().delete(image)
        if source and not Scan.objects.filter(source=source).exists():
            private_storage().delete(source)

    transaction.on_commit(remove)


def release_source(name: str) -> None:
    """Delete a sent file once no scan still needs it (a PDF's pages share one)."""
    if not name or Scan.objects.filter(source=name, image="").exclude(status=Scan.Status.FAILED).exists():
        return
    Scan.objects.filter(source=name).update(source="")
    private_storage().delete(name)


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


def type_words() -> list[str]:
    """What a card's type line prints, in both scripts: kinds, troop classes, factions, speeds,
    elements and the affiliations in the catalogue (scanning.facts leaves such a line out of
    the effect text read from a photo)."""
    printed = [str(choice.label) for vocab in (Kind, TroopClass, Faction, Speed, Element) for choice in vocab]
    printed += [a for a in Card.objects.exclude(affiliation=None).values_list("affiliation", flat=True).distinct() if a]
    return sorted({word for text in printed for word in (text, to_simplified(text))})


def sheet_labels() -> tuple[list[str], list[str]]:
    """Every heading of the sheet in each language (and the kinds' names, the tables' captions),
    and the headings whose value is the player's name."""

    # The tables' captions: each kind's name in both scripts and in English.
    headings: list[str] = [word for kind in Kind for word in (kind.label, to_simplified(str(kind.label)))]
    headings += [ENGLISH.get(kind.value, kind.value) for kind in Kind]
    players: list[str] = list(PLAYER_WORDS)
    for code, _name in settings.LANGUAGES:
        with translation.override(code):
            headings += [str(_(text)) for text in SHEET_HEADINGS]
            players.append(str(_(SHEET_HEADINGS[0])))
    return headings, players
