"""Every route that takes files, sent the hostile files a probe of the running site found (tiny
files that declare huge canvases, a PNG with no pixels, PDFs whose page tree loops or whose pages
have no paper's shape, a content-stream bomb, garbage, truncated HEIC) under every file field:
never a 500; and whatever a request queued, the worker ends it done or failed, never stuck."""

from __future__ import annotations

import io
from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone

from catalog import images, tasks
from catalog.models import Scan
from events.models import Event
from tests.support.image_helpers import png_claiming
from tests.support.real_files import (
    HEIC,
    jpeg_declaring,
    pdf_content_bomb,
    pdf_of_pages,
    pdf_page_tree_loop,
    png_plausible_bomb,
    png_without_pixels,
)
from webutil import bounds

pytestmark = pytest.mark.django_db

HOSTILE_FILES = {
    "png-without-pixels": png_without_pixels(),
    "jpeg-declaring-40mp": jpeg_declaring(6600, 6000),
    "png-declaring-3600mp": png_claiming(60000, 60000),
    "png-40mp-plausible": png_plausible_bomb(2000),
    "pdf-page-tree-loop": pdf_page_tree_loop(),
    "pdf-1-by-14400": pdf_of_pages((1, 14400)),
    "pdf-content-bomb": pdf_content_bomb(40_000),
    "heic-truncated": HEIC.read_bytes()[:400],
    "pdf-header-only": b"%PDF-1.7\n",
    "nul-bytes": b"\x00" * 300,
    "empty": b"",
}
# Each route that takes files (webutil.bounds), by the field its form or serializer reads.
FILE_FIELDS = {
    "/collection/scan/": "photos",
    "/cards/五道·001/propose/read/": "photo",
    "/events/{event}/paper/": "sheets",
    "/api/scans/": "image",
    "/check/": "file",
    "/check/many/": "files",
    "/decks/import/": "file",
    "/decks/archive/": "file",
    "/collection/import/": "file",
}


@pytest.fixture
def queued(settings):
    settings.TASKS = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend", "QUEUES": ["default"]}}


def test_the_fuzzed_routes_are_every_route_that_takes_files() -> None:
    routes = {
        "/" + route.replace("<str:code>", "五道·001").replace("<int:event_id>", "{event}")
        for route, _ in bounds.upload_routes()
    }
    missing = {r for r in routes if not r.startswith("/admin/")} - set(FILE_FIELDS)
    # Proposals' own forms and the API's photos take the same files through the same checks.
    assert missing <= {
        "/cards/五道·001/propose/",
        "/contributions/<int:pk>/edit/",
        "/api/proposals/<int:proposal_id>/photos/",
        "/e/<str:token>/",
        "/events/from-files/",
    }, missing


@pytest.mark.parametrize("url", FILE_FIELDS)
def test_hostile_files_on_every_upload_route_never_answer_500(url: str, alice, queued, monkeypatch) -> None:
    monkeypatch.setattr(images, "DECODE_SECONDS", bounds.Bound("decoding time", 2, "seconds", ""))
    event = Event.objects.create(organiser=alice, name="賽", deadline=timezone.now() + timedelta(days=1))
    client = Client(raise_request_exception=False)
    client.force_login(alice)
    target = url.format(event=event.pk)
    for name, data in HOSTILE_FILES.items():
        upload = io.BytesIO(data)
        upload.name = f"{name}.\x00bin" if name == "nul-bytes" else f"{name}.jpg"
        response = client.post(target, {FILE_FIELDS[url]: [upload]})
        assert response.status_code < 500, (url, name, response.status_code)
    # What was queued is read by the worker to an end, each scan done or failed.
    for scan in Scan.objects.filter(status=Scan.Status.QUEUED):
        tasks.read_scan.call(scan.pk)
    assert not Scan.objects.filter(status__in=Scan.WAITING).exists()
    for scan in Scan.objects.filter(status=Scan.Status.FAILED):
        assert scan.error_message
