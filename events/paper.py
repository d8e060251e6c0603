"""Paper lists at an event: the organiser photographs (or scans to a PDF) the registration sheets
handed in; each page is read in the background (a Scan of purpose sheet, private to the
organiser), then checked by the organiser and added as a list of the event, judged like any other.

A sheet printed here carries its deck code as a QR code, read exactly; a sheet or typed list
without one is read line by line (scanning.sheet) and becomes a deck list whose unsure lines the
organiser confirms first. A PDF's pages are rendered with pypdfium2.
"""

from __future__ import annotations

import io
from dataclasses import dataclass, field
from typing import IO, Any

from django.db import transaction
from django.utils.translation import gettext as _

from catalog import scans as readings
from catalog.lookup import catalog_index
from catalog.models import Scan
from catalog.textkeys import to_simplified
from catalog.vocab import Kind
from decks.intake import DeckInputError, read_code
from decks.legality import check_list, deck_for_rules
from events.day import players_from_lists
from events.models import Event, PaperList, Submission
from events.services import EventClosed, closed_reason
from rules_check import export
from scanning.matching import SURE
from webutil.i18n import wants_simplified

# A PDF of sheets: at most this many pages and bytes; each page is drawn this many pixels wide
# (A4 at about 200 dpi: the codes and counts of a sheet read well, a page stays under 1 MB).
MAX_PDF_PAGES = 40
MAX_PDF_BYTES = 20 * 1024 * 1024
PAGE_WIDTH = 1650
GENERALS = frozenset({Kind.GENERAL, Kind.AWAKENED_GENERAL})
# How a JPEG and a PNG begin (a WebP: RIFF, then WEBP at byte 8).
_PICTURES = (b"\xff\xd8", b"\x89PNG", b"RIFF")


class PaperError(ValueError):
    """A paper list refused, in words for the organiser; `status` is the HTTP answer's."""

    def __init__(self, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.message = message
        self.status = status


def _pdf_pages(data: bytes) -> list[bytes]:
    """Each page of a PDF as a PNG, or PaperError for a PDF that cannot be read or is too long."""
    import pypdfium2

    try:
        document = pypdfium2.PdfDocument(data)
    except pypdfium2.PdfiumError:
        raise PaperError(_("This PDF cannot be read.")) from None
    try:
        if len(document) > MAX_PDF_PAGES:
            raise PaperError(
                _("This PDF has %(pages)d pages; at most %(max)d are read at once.")
                % {"pages": len(document), "max": MAX_PDF_PAGES}
            )
        pages = []
        for page in document:
            width, _height = page.get_size()
            picture = page.render(scale=PAGE_WIDTH / max(1.0, width)).to_pil()
            out = io.BytesIO()
            picture.convert("L").save(out, "PNG")
            pages.append(out.getvalue())
            page.close()
        return pages
    finally:
        document.close()


def _pages(upload: Any) -> list[tuple[int | None, IO[bytes]]]:
    """An upload as the pictures to read: a photo is one, a PDF one a page (numbered)."""
    head = upload.read(12)
    upload.seek(0)
    if not head.startswith(b"%PDF-"):
        if not head.startswith(_PICTURES) and head[8:12] != b"WEBP":
            raise PaperError(_("Only photos (JPEG, PNG or WebP) and PDFs are accepted."))
        return [(None, upload)]  # the photo itself: checked in full as every upload is
    if getattr(upload, "size", 0) > MAX_PDF_BYTES:
        raise PaperError(_("A PDF may be at most %(mb)d MB.") % {"mb": MAX_PDF_BYTES // (1024 * 1024)})
    pages = _pdf_pages(upload.read(MAX_PDF_BYTES + 1))
    return [(number, io.BytesIO(png)) for number, png in enumerate(pages, start=1)]


def send(event: Event, organiser: Any, upload: Any) -> list[PaperList]:
    """One upload (a photo, or a PDF of several sheets) queued to be read, a paper list a page.
    Refused whole (PaperError, EventClosed) when any page is: nothing of it is kept."""
    if event.locked:
        raise EventClosed(closed_reason(event))
    pages = _pages(upload)
    name = str(getattr(upload, "name", "") or "")[:200]
    with transaction.atomic():
        made = []
        for number, picture in pages:
            try:
                scan = readings.start(organiser, picture, Scan.Purpose.SHEET)
            except readings.ScanError as exc:
                raise PaperError(exc.message, exc.status) from None
            made.append(PaperList.objects.create(event=event, scan=scan, file_name=name, page=number))
    return made


@dataclass
class Unsure:
    """A line of the sheet the organiser is asked to check: what was read and what it became."""

    number: int  # its place in the scan's lines (for its crop)
    count: int | None
    card: str | None  # the card it became, as the page names it (None: not understood)
    text: str


@dataclass
class Reading:
    """What a paper list was read as, for the organiser to confirm: the player's name, the list,
    and whether it is exact (the sheet's QR code) or has lines to check."""

    player: str
    text: str
    exact: bool
    unsure: list[Unsure] = field(default_factory=list)


def _label(code: str) -> str:
    facts = catalog_index().by_code[code]
    return f"{to_simplified(facts.name) if wants_simplified() else facts.name} ({code})"


def _from_code(codes: list[str]) -> str | None:
    """The list of the first QR code that is a deck code of known cards."""
    for code in codes:
        try:
            data, notes = read_code(code)
        except DeckInputError:
            continue
        if not notes:
            return export(deck_for_rules(data), fmt=data.format)
    return None


def _from_lines(lines: list[dict[str, Any]]) -> tuple[str, list[Unsure]]:
    """A deck list from the lines read: the general first, the reinforcements in their section;
    a line not understood is left out of it and asked about."""
    index = catalog_index().by_code
    general: list[str] = []
    main: list[str] = []
    reinforcements: list[str] = []
    unsure = []
    for number, line in enumerate(lines):
        code, count = line.get("card"), line.get("count")
        facts = index.get(code) if isinstance(code, str) else None
        # A general is written without a count; any other line needs one, and a sure card.
        sure = facts is not None and float(line.get("confidence", 0)) >= SURE
        if not sure or (count is None and facts is not None and facts.kind not in GENERALS):
            unsure.append(Unsure(number, count, _label(facts.code) if facts else None, str(line.get("text", ""))))
        if facts is None:
            continue
        written = f"{facts.name} ({code})"
        if facts.kind in GENERALS and not general:
            general.append(f"武將: {written}")
        elif facts.kind == Kind.REINFORCEMENT:
            reinforcements.append(f"{count or 1} {written}")
        else:
            main.append(f"{count or 1} {written}")
    text = [*general, "牌庫:", *main, *(["援軍:", *reinforcements] if reinforcements else [])]
    return "\n".join(text) + "\n", unsure


def reading(paper: PaperList) -> Reading | None:
    """What the paper list's photo was read as (None while it is read, or when it could not be)."""
    scan = paper.scan
    if scan.status != Scan.Status.DONE:
        return None
    result = scan.result
    player = str(result.get("player") or "")[:100] or _("Sheet %(n)d") % {"n": paper.pk}
    exact = _from_code([str(code) for code in result.get("codes", [])])
    if exact is not None:
        return Reading(player, exact, True)
    text, unsure = _from_lines(list(result.get("lines", [])))
    return Reading(player, text, False, unsure)


@transaction.atomic
def confirm(event: Event, paper_id: int, player_name: str, text: str) -> Submission:
    """The organiser's checked list added to the event (once), under the event's row lock, as a
    list brought in by hand: checked like any other, a player of the day as it is added."""
    current = Event.objects.select_for_update().get(pk=event.pk)
    if current.locked:
        raise EventClosed(closed_reason(current))
    paper = PaperList.objects.select_for_update().filter(event=current, pk=paper_id).first()
    if paper is None:
        raise PaperError(_("No such paper list."), status=404)
    if paper.submission_id is not None:
        raise PaperError(_("This sheet is already a list of the event."), status=409)
    check_list(text, current.format)  # a list that is no list at all (DeckListError) is not stored
    submission = Submission.objects.create(
        event=current, player_name=player_name[:100], text=text, file_name=paper.source[:200]
    )
    paper.submission = submission
    paper.save(update_fields=["submission"])
    players_from_lists(current)
    return submission


@transaction.atomic
def discard(event: Event, paper_id: int) -> None:
    """A sheet read by mistake (or twice) is deleted with its photo; a list made from it stays."""
    paper = PaperList.objects.select_related("scan").filter(event=event, pk=paper_id).first()
    if paper is None:
        raise PaperError(_("No such paper list."), status=404)
    scan = paper.scan
    paper.delete()
    if scan.image:
        scan.image.delete(save=False)
    scan.delete()
