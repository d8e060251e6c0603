"""Photos and PDFs as people send them, through the real stack: a phone camera's photo (4032 ×
3024, stored on its side with an EXIF rotation), a 48 MP one, an iPhone's HEIC, a screenshot, a
scanner's 40-page PDF are taken on every photo route and read; the request only checks headers
and stores (the worker decodes); hostile files (tiny files declaring huge canvases, a PNG with no
pixels, PDFs that loop or have no paper's shape, a content-stream bomb) get a 400 naming what was
wrong, or fail in the worker with a message, and nothing half-queued is left behind."""

from __future__ import annotations

import io
from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone
from PIL import Image

from catalog import images, tasks
from catalog.models import MAX_WAITING_SCANS, Card, Scan
from catalog.scans import PDF
from events.models import Event, PaperList
from tests.support.card_photos import card_face, sheet, spread
from tests.support.real_files import (
    HEIC,
    jpeg_declaring,
    pdf_content_bomb,
    pdf_of_pages,
    pdf_page_tree_loop,
    phone_photo,
    png_plausible_bomb,
    png_without_pixels,
    scanned_pdf,
    screenshot_png,
)
from webutil import bounds
from webutil.storage import private_root

pytestmark = pytest.mark.django_db

CARDS = ("YXJQ-004", "WJ-001")


def _cards_photo() -> bytes:
    cards = [Card.objects.get(code=code) for code in CARDS]
    return spread([card_face(c.code, c.name, c.text or "", c.cost) for c in cards], columns=2, seed=7)


def _file(data: bytes, name: str) -> io.BytesIO:
    upload = io.BytesIO(data)
    upload.name = name
    return upload


def _found(client: Client, scan_id: int) -> list[str]:
    answer = client.get(f"/api/scans/{scan_id}/").json()
    assert answer["status"] == "done", answer
    return sorted(card["card"] for card in answer["cards"])


@pytest.fixture
def queued(settings):
    """Tasks kept in the database, as in production, instead of run at once: what a request
    leaves queued can be seen, and the worker's task run by hand."""
    settings.TASKS = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend", "QUEUES": ["default"]}}


@pytest.mark.parametrize(
    ("make", "name"),
    [
        (lambda photo: phone_photo(photo), "IMG_0001.jpg"),
        (lambda photo: HEIC.read_bytes(), "IMG_0002.HEIC"),
        (lambda photo: screenshot_png(photo), "Screenshot.png"),
    ],
    ids=["camera-jpeg-exif-rotated", "iphone-heic", "screenshot-png"],
)
def test_a_phone_s_photo_is_taken_and_read_as_well_as_a_small_one(
    alice_client: Client, media_root, make, name: str
) -> None:
    data = make(_cards_photo())
    sent = alice_client.post("/api/scans/", {"image": _file(data, name)})
    assert sent.status_code == 202, sent.content
    assert _found(alice_client, sent.json()["id"]) == sorted(CARDS)
    scan = Scan.objects.get()
    assert scan.image.name.endswith(".webp") and max(scan.width, scan.height) <= images.SCAN_SIDE
    if name.endswith(".jpg"):  # stored on its side, read upright: wider than tall, as taken
        assert scan.width > scan.height
    assert not scan.source  # the file as sent is gone once decoded


def test_a_camera_photo_passes_the_body_limit_of_every_photo_route(alice_client: Client, media_root) -> None:
    photo = phone_photo(_cards_photo())
    assert len(photo) > 2 * 1024 * 1024  # a camera's size, four times the default body limit
    page = alice_client.post("/collection/scan/", {"photos": [_file(photo, "a.jpg"), _file(photo, "b.jpg")]})
    assert page.status_code == 302, page.content[:500]
    assert Scan.objects.filter(status=Scan.Status.DONE).count() == 2
    proposal = alice_client.post("/cards/WD-001/propose/read/", {"photo": _file(photo, "face.jpg")})
    assert proposal.status_code in (200, 302), proposal.content[:500]
    assert Scan.objects.filter(purpose=Scan.Purpose.PROPOSAL).count() == 1


def test_a_48_megapixel_photo_is_read(alice_client: Client, media_root) -> None:
    data = phone_photo(_cards_photo(), (8000, 6000), orientation=1)
    assert len(data) > 10 * 1024 * 1024
    sent = alice_client.post("/api/scans/", {"image": _file(data, "big.jpg")})
    assert sent.status_code == 202, sent.content
    assert _found(alice_client, sent.json()["id"]) == sorted(CARDS)


def test_the_request_only_stores_and_the_worker_decodes(alice, alice_client: Client, media_root, queued) -> None:
    # A PNG that really decodes to 40 MP in 50 KB is plausible for its size: taken, not decoded.
    sent = alice_client.post("/api/scans/", {"image": _file(png_plausible_bomb(), "white.png")})
    assert sent.status_code == 202 and sent.json()["status"] == "queued"
    scan = Scan.objects.get()
    assert not scan.image and scan.source and (private_root() / scan.source.name).exists()
    assert tasks.read_scan.call(scan.pk) == "done"
    scan.refresh_from_db()
    assert scan.image and max(scan.width, scan.height) == images.SCAN_SIDE and not scan.source


@pytest.mark.parametrize(
    ("data", "name", "said"),
    [
        (jpeg_declaring(6600, 6000), "patched.jpg", "claims 39.6 megapixels"),
        (png_without_pixels(), "empty.png", "truncated or corrupt"),
        (jpeg_declaring(9000, 6000) + b"\0" * 60_000, "huge.jpg", "54.0 megapixels; at most 50"),
        (b"GIF89a" + b"\0" * 100, "anim.gif", "Only JPEG, PNG, WebP and HEIC"),
    ],
    ids=["tiny-jpeg-declaring-40mp", "png-without-pixels", "over-50mp", "gif"],
)
def test_a_hostile_photo_is_refused_in_the_request_and_nothing_is_queued(
    alice_client: Client, media_root, english, data: bytes, name: str, said: str
) -> None:
    answer = alice_client.post("/api/scans/", {"image": _file(data, name)})
    assert answer.status_code == 400 and said in answer.json()["image"][0], answer.content
    assert not Scan.objects.exists()
    assert not (private_root() / "scans").exists()


def test_ten_files_with_a_bad_one_queue_nothing(alice_client: Client, media_root, english, queued) -> None:
    good = _cards_photo()
    files = [_file(good, f"{n}.jpg") for n in range(9)] + [_file(png_without_pixels(), "bad.png")]
    answer = alice_client.post("/collection/scan/", {"photos": files})
    assert answer.status_code == 400 and "bad.png: The image is truncated or corrupt." in answer.content.decode()
    assert not Scan.objects.exists()


def test_the_waiting_limit_is_asked_before_anything_is_stored(alice, alice_client: Client, media_root) -> None:
    Scan.objects.bulk_create([Scan(user=alice) for _ in range(MAX_WAITING_SCANS)])
    answer = alice_client.post("/api/scans/", {"image": _file(_cards_photo(), "one.jpg")})
    assert answer.status_code == 429
    assert not (private_root() / "scans").exists()
    page = alice_client.post("/collection/scan/", {"photos": [_file(_cards_photo(), "two.jpg")]})
    assert page.status_code == 429 and Scan.objects.count() == MAX_WAITING_SCANS


def test_the_api_takes_no_paper_sheets(alice_client: Client, media_root) -> None:
    answer = alice_client.post("/api/scans/", {"image": _file(_cards_photo(), "s.jpg"), "purpose": "sheet"})
    assert answer.status_code == 400 and "purpose" in answer.json()
    assert not Scan.objects.exists()


@pytest.fixture
def event(alice) -> Event:
    return Event.objects.create(organiser=alice, name="春季賽", deadline=timezone.now() + timedelta(days=1))


def test_a_scanner_s_40_page_pdf_is_taken_a_sheet_a_page_and_rendered_by_the_worker(
    alice_client: Client, event: Event, media_root, queued
) -> None:
    pages = [sheet(f"選手{n}", [(3, "新兵", "YXJQ-003")]) for n in range(40)]
    data = scanned_pdf(pages)
    assert 6 * 1024 * 1024 < len(data) <= int(PDF)
    sent = alice_client.post(f"/events/{event.pk}/paper/", {"sheets": [_file(data, "scans.pdf")]})
    assert sent.status_code == 302, sent.content[:800]
    papers = list(PaperList.objects.filter(event=event).order_by("page"))
    assert [p.page for p in papers] == list(range(1, 41))
    assert {p.scan.status for p in papers} == {"queued"} and not any(p.scan.image for p in papers)
    assert tasks.read_scan.call(papers[0].scan.pk) == "done"
    first = Scan.objects.get(pk=papers[0].scan.pk)
    assert first.width <= 1650 and first.height <= 2400 and first.result["player"] == "選手0"
    assert Scan.objects.filter(source=first.source.name).count() == 40 or not first.source  # shared, kept
    assert (private_root() / papers[1].scan.source.name).exists()  # still needed by the other pages


@pytest.mark.parametrize(
    ("data", "said"),
    [
        (pdf_page_tree_loop(), "This PDF cannot be read."),
        (pdf_of_pages((1, 14400)), "Page 1 of this PDF measures 1 × 14400 points"),
        (pdf_of_pages((100, 2400), 40), "Page 1 of this PDF measures 100 × 2400 points"),
        (pdf_of_pages((595, 842), 61), "This PDF has 61 pages; at most 60 are read at once."),
    ],
    ids=["page-tree-loop", "one-by-14400", "100-by-2400", "61-pages"],
)
def test_a_hostile_pdf_is_refused_in_the_request(
    alice_client: Client, event: Event, media_root, english, data: bytes, said: str
) -> None:
    answer = alice_client.post(f"/events/{event.pk}/paper/", {"sheets": [_file(data, "x.pdf")]})
    assert answer.status_code == 400 and said in answer.content.decode().replace("&#x27;", "'")
    assert not Scan.objects.exists() and not PaperList.objects.exists()


def test_a_content_stream_bomb_fails_in_the_worker_with_a_message(
    alice_client: Client, event: Event, media_root, english, queued, monkeypatch
) -> None:
    monkeypatch.setattr(images, "DECODE_SECONDS", bounds.Bound("decoding time", 2, "seconds", ""))
    sent = alice_client.post(f"/events/{event.pk}/paper/", {"sheets": [_file(pdf_content_bomb(), "bomb.pdf")]})
    assert sent.status_code == 302
    scan = Scan.objects.get()
    assert tasks.read_scan.call(scan.pk) == "failed"
    scan.refresh_from_db()
    assert "more memory or time to read than any photo" in scan.error_message
    assert not scan.source and not list((private_root() / "scans").glob("*/sent-*"))


def test_a_judge_sends_paper_sheets_too(alice, bob, bob_client: Client, event: Event, media_root, queued) -> None:
    assert bob_client.get(f"/events/{event.pk}/paper/").status_code == 404
    event.judges.add(bob)
    page = Image.new("RGB", (1240, 1754), "white")
    out = io.BytesIO()
    page.save(out, "JPEG")
    sent = bob_client.post(f"/events/{event.pk}/paper/", {"sheets": [_file(out.getvalue(), "s.jpg")]})
    assert sent.status_code == 302 and PaperList.objects.get(event=event).scan.user == bob


def test_the_worker_is_fair_between_users(alice, bob, media_root, queued) -> None:
    # Alice queued five photos before Bob's one: Bob's is read second, not sixth.
    for _ in range(5):
        Scan.objects.create(user=alice)
    theirs = Scan.objects.create(user=bob)
    order = [scan.pk for scan in tasks.fair_order()]
    assert order.index(theirs.pk) == 1
    first = Scan.objects.filter(user=alice).order_by("created", "pk").first()
    Scan.objects.filter(pk=first.pk).update(status=Scan.Status.RUNNING)  # being read: still hers
    assert next(scan.pk for scan in tasks.fair_order()) == theirs.pk
