"""Paper lists at an event: the organiser photographs (or scans to a PDF) the sheets handed in;
each is read in the background, a printed sheet exactly from its QR code, any other list line by
line with its unsure lines shown; the organiser confirms and it is a list of the event, checked
like any other. Bad files, a locked event and another organiser's sheets get clear answers."""

from __future__ import annotations

import io
import re
from datetime import timedelta
from html import unescape

import pytest
from django.test import Client
from django.utils import timezone
from PIL import Image

from catalog.lookup import catalog_index
from catalog.models import Scan
from decks import deckcode
from events.models import Event, PaperList, Submission
from tests.support.card_photos import as_scan, sheet

pytestmark = pytest.mark.django_db

TROOPS = [f"YXJQ-{n:03d}" for n in (3, 4, 5, 6, 7, 8, 9, 12, 13, 14, 15, 16, 17)]


@pytest.fixture
def event(alice) -> Event:
    return Event.objects.create(organiser=alice, name="春季賽", deadline=timezone.now() + timedelta(days=1))


def _entries(extra: tuple[int, str, str] | None = None) -> list[tuple[int, str, str]]:
    index = catalog_index().by_code
    tactic = catalog_index().lookup("南蠻入侵")
    assert tactic is not None
    rows = [(3, index[code].name, code) for code in TROOPS] + [(1, tactic.name, tactic.code)]
    return rows + ([extra] if extra else [])


def _upload(data: bytes, name: str = "sheet.jpg") -> io.BytesIO:
    upload = io.BytesIO(data)
    upload.name = name
    return upload


def _send(client: Client, event: Event, *uploads: io.BytesIO):
    return client.post(f"/events/{event.pk}/paper/", {"sheets": list(uploads)})


def _form(page: str) -> dict[str, str]:
    player = re.search(r'name="player_name"[^>]*value="([^"]*)"', page)
    text = re.search(r'<textarea name="text"[^>]*>(.*?)</textarea>', page, re.S)
    assert player and text, page[:2000]
    return {"player_name": unescape(player.group(1)), "text": unescape(text.group(1)).lstrip("\n")}


def test_a_photographed_sheet_without_a_code_becomes_a_list_of_the_event(
    alice_client: Client, event: Event, english
) -> None:
    photo = as_scan(sheet("陳大文", _entries(), ("劉備", "WJ-001")), seed=1)
    sent = _send(alice_client, event, _upload(photo))
    assert sent.status_code == 302 and sent["Location"] == f"/events/{event.pk}/paper/"
    paper = PaperList.objects.get(event=event)
    assert paper.scan.purpose == Scan.Purpose.SHEET and paper.scan.status == Scan.Status.DONE
    page = alice_client.get(f"/events/{event.pk}/paper/{paper.pk}/").content.decode()
    assert "Every line was read surely" in page
    form = _form(page)
    assert form["player_name"] == "陳大文"
    assert "武將: 劉備 (WJ-001)" in form["text"] and "3 新兵 (YXJQ-003)" in form["text"]
    added = alice_client.post(f"/events/{event.pk}/paper/{paper.pk}/", {**form, "action": "add"})
    assert added.status_code == 302
    submission = Submission.objects.get(event=event)
    assert submission.player_name == "陳大文" and submission.player is None
    assert submission.file_name == "sheet.jpg"
    listed = alice_client.get(f"/events/{event.pk}/").content.decode()
    assert "陳大文" in listed and "legal: 1" in listed  # 40 cards, judged like any other list
    assert event.players.get().name == "陳大文"  # a player of the day as it is added
    again = alice_client.post(f"/events/{event.pk}/paper/{paper.pk}/", {**form, "action": "add"})
    assert "This sheet is the list of 陳大文" in again.content.decode()
    assert Submission.objects.filter(event=event).count() == 1


def test_a_printed_sheet_is_read_exactly_from_its_qr_code(alice_client: Client, event: Event, english) -> None:
    main = {code: 3 for code in TROOPS[:-1]} | {TROOPS[-1]: 2}
    code = deckcode.encode("standard", "WJ-001", main, {})
    # The printed rows are smudged past reading: the QR code alone tells the list.
    photo = as_scan(sheet("林美玲", [(3, "◆◆", "◆◆◆◆")], None, deck_code=code), seed=2)
    _send(alice_client, event, _upload(photo))
    paper = PaperList.objects.get(event=event)
    page = alice_client.get(f"/events/{event.pk}/paper/{paper.pk}/").content.decode()
    assert "Read from the sheet's QR code" in page
    form = _form(page)
    assert form["player_name"] == "林美玲"
    assert "2 弓兵指揮官 (YXJQ-017)" in form["text"] and "武將: 劉備 (WJ-001)" in form["text"]


def test_unsure_lines_are_shown_and_the_organiser_corrects_the_list(
    alice_client: Client, event: Event, english
) -> None:
    photo = as_scan(sheet("王小明", _entries(extra=(2, "貂蟬蟬蟬", "")), ("劉備", "WJ-001")), seed=3)
    _send(alice_client, event, _upload(photo))
    paper = PaperList.objects.get(event=event)
    page = alice_client.get(f"/events/{event.pk}/paper/{paper.pk}/").content.decode()
    assert "1 line to check" in page and "no card found: add it to the list by hand" in page
    crop = re.search(r'src="(/events/\d+/paper/\d+/lines/\d+\.webp)"', page)
    assert crop is not None
    picture = alice_client.get(crop.group(1))
    assert picture.status_code == 200 and picture["Content-Type"] == "image/webp"
    form = _form(page)
    assert "貂蟬" not in form["text"]  # a line not understood is left out, and asked about
    refused = alice_client.post(f"/events/{event.pk}/paper/{paper.pk}/", {"player_name": "王小明", "text": "\x00"})
    assert refused.status_code == 400 and not Submission.objects.exists()
    corrected = form["text"] + "2 YXJQ-018\n"
    alice_client.post(f"/events/{event.pk}/paper/{paper.pk}/", {"player_name": "王小明", "text": corrected})
    assert "2 YXJQ-018" in Submission.objects.get(event=event).text


def test_a_pdf_is_a_sheet_a_page_and_bad_files_are_refused(alice_client: Client, event: Event, english) -> None:
    pages = [sheet(name, _entries(), ("劉備", "WJ-001")).convert("L") for name in ("甲選手", "乙選手")]
    pdf = io.BytesIO()
    pages[0].save(pdf, "PDF", save_all=True, append_images=pages[1:], resolution=150)
    sent = _send(alice_client, event, _upload(pdf.getvalue(), "sheets.pdf"))
    assert sent.status_code == 302
    papers = list(PaperList.objects.filter(event=event))
    assert [(p.file_name, p.page) for p in papers] == [("sheets.pdf", 1), ("sheets.pdf", 2)]
    assert [p.scan.result["player"] for p in papers] == ["甲選手", "乙選手"]
    listing = alice_client.get(f"/events/{event.pk}/paper/").content.decode()
    assert "sheets.pdf (2)" in listing and "read: check it and add it" in listing

    blank = Image.new("L", (40, 40), 255)
    long_pdf = io.BytesIO()
    blank.save(long_pdf, "PDF", save_all=True, append_images=[blank] * 60)
    for data, name, said in (
        (b"%PDF-1.4 not really", "broken.pdf", "This PDF cannot be read."),
        (long_pdf.getvalue(), "long.pdf", "This PDF has 61 pages; at most 60 are read at once."),
        (b"just some text", "notes.txt", "Only photos (JPEG, PNG, WebP or HEIC) and PDFs are accepted."),
    ):
        answer = _send(alice_client, event, _upload(data, name))
        assert answer.status_code == 400, name
        assert said in unescape(answer.content.decode()), name
    assert PaperList.objects.filter(event=event).count() == 2  # nothing of a refused file is kept


def test_a_locked_event_takes_no_paper_list_and_a_sheet_can_be_deleted(
    alice_client: Client, event: Event, media_root, english, django_capture_on_commit_callbacks
) -> None:
    _send(alice_client, event, _upload(as_scan(sheet("陳大文", _entries()[:3]), seed=4)))
    paper = PaperList.objects.get(event=event)
    stored = paper.scan.image
    assert stored.storage.exists(stored.name)
    with django_capture_on_commit_callbacks(execute=True):
        deleted = alice_client.post(f"/events/{event.pk}/paper/{paper.pk}/", {"action": "discard"})
    assert deleted.status_code == 302
    assert not PaperList.objects.exists() and not Scan.objects.exists()
    assert not stored.storage.exists(stored.name)
    _send(alice_client, event, _upload(as_scan(sheet("陳大文", _entries()[:3]), seed=4)))
    paper = PaperList.objects.get(event=event)
    event.locked_at = timezone.now()
    event.save()
    refused = _send(alice_client, event, _upload(as_scan(sheet("林美玲", _entries()[:3]), seed=5)))
    assert refused.status_code == 400 and "locked" in unescape(refused.content.decode())
    added = alice_client.post(f"/events/{event.pk}/paper/{paper.pk}/", {"player_name": "x", "text": "3 新兵"})
    assert added.status_code == 400 and "locked" in added.content.decode()
    assert PaperList.objects.count() == 1 and not Submission.objects.exists()


def test_another_organisers_sheets_are_not_found(alice_client: Client, bob_client: Client, event: Event) -> None:
    _send(alice_client, event, _upload(as_scan(sheet("陳大文", _entries()[:3]), seed=6)))
    paper = PaperList.objects.get(event=event)
    for url in (f"/events/{event.pk}/paper/", f"/events/{event.pk}/paper/{paper.pk}/"):
        assert bob_client.get(url).status_code == 404
    assert bob_client.post(f"/events/{event.pk}/paper/{paper.pk}/", {"action": "discard"}).status_code == 404
    assert bob_client.get(f"/events/{event.pk}/paper/{paper.pk}/lines/0.webp").status_code == 404
    assert PaperList.objects.filter(pk=paper.pk).exists()


def test_the_list_of_sheets_updates_itself_while_one_is_read_and_then_stops(
    alice_client: Client, alice, event: Event, english
) -> None:
    waiting = Scan.objects.create(user=alice, purpose=Scan.Purpose.SHEET, status=Scan.Status.QUEUED)
    PaperList.objects.create(event=event, scan=waiting)
    page = alice_client.get(f"/events/{event.pk}/paper/").content.decode()
    section = page.split('<section id="sheets"', 1)[1].split(">", 1)[0]
    assert 'hx-trigger="every 3s"' in section and 'hx-select="#sheets"' in section
    assert "1 sheet is being read: this list updates itself." in page
    # The poll is the page at its own address; once the sheet is read, it asks no more.
    waiting.status = Scan.Status.DONE
    waiting.result = {"lines": [], "codes": []}
    waiting.save()
    polled = alice_client.get(f"/events/{event.pk}/paper/", HTTP_HX_REQUEST="true").content.decode()
    section = polled.split('<section id="sheets"', 1)[1].split(">", 1)[0]
    assert "hx-trigger" not in section and "read: check it and add it" in polled
