"""Paper lists at an event: the organiser photographs (or scans to a PDF) the registration sheets
handed in; each page is read in the background (a Scan of purpose sheet, private to the
organiser), then checked by the organiser and added as a list of the event, judged like any other.

A sheet printed here carries its deck code as a QR code, read exactly; a sheet or typed list
without one is read line by line (scanning.sheet) and becomes a deck list whose unsure lines the
organiser confirms first. A PDF's pages are counted and measured here, and rendered by the
worker (catalog.scans.decode_source).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

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
from scanning.pictures import sniff
from webutil.i18n import wants_simplified

GENERALS = frozenset({Kind.GENERAL, Kind.AWAKENED_GENERAL})


class PaperError(ValueError):
    """A paper list refused, in words for the organiser; `status` is the HTTP answer's."""

    def __init__(self, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.message = message
        self.status = status


def check(upload: Any) -> readings.Upload:
    """A photo or a PDF of sheets, checked from its header alone (nothing decoded or rendered)."""
    head = upload.read(12)
    upload.seek(0)
    kind = sniff(head)
    if kind is None:
        raise PaperError(_("Only photos (JPEG, PNG, WebP or HEIC) and PDFs are accepted."))
    try:
        return readings.check_pdf(upload) if kind == "PDF" else readings.check_photo(upload)
    except readings.ScanError as exc:
        raise PaperError(exc.message, exc.status) from None


def send(event: Event, user: Any, uploads: list[Any]) -> list[PaperList]:
    """Photos and PDFs of sheets queued to be read, a paper list a photo or page; refused whole
    (PaperError, EventClosed) when any file is: nothing of them is kept. The waiting limit is
    asked first, then each file's header; the worker decodes and renders."""
    if event.locked:
        raise EventClosed(closed_reason(event))
    try:
        readings.ensure_room(user, Scan.Purpose.SHEET)
    except readings.ScanError as exc:
        raise PaperError(exc.message, exc.status) from None
    checked = []
    for upload in uploads:
        try:
            checked.append(check(upload))
        except PaperError as exc:
            raise PaperError(f"{str(getattr(upload, 'name', ''))[:80]}: {exc.message}", exc.status) from None
    with transaction.atomic():
        try:
            scans = readings.start_many(user, checked, Scan.Purpose.SHEET)
        except readings.ScanError as exc:
            raise PaperError(exc.message, exc.status) from None
        names = {id(u): u.name for u in checked}
        made = []
        pages = [(upload, page) for upload in checked for page in upload.pages]
        for (upload, page), scan in zip(pages, scans, strict=True):
            made.append(PaperList.objects.create(event=event, scan=scan, file_name=names[id(upload)], page=page))
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
    """A sheet read by mistake (or twice) is deleted with its photo (catalog.scans.forget); a
    list made from it stays."""
    paper = PaperList.objects.select_related("scan").filter(event=event, pk=paper_id).first()
    if paper is None:
        raise PaperError(_("No such paper list."), status=404)
    scan = paper.scan
    paper.delete()
    scan.delete()
