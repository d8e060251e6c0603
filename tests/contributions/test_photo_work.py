"""A proposal's photo is decoded by the worker, never in the request: the request checks its
header and keeps the file as sent; until the worker has made the clean picture the photo waits
(shown as such, never reviewed), a file that cannot be decoded says why, and a worker that dies
mid-photo leaves it queued again."""

from __future__ import annotations

import io
from datetime import timedelta

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.utils import timezone
from PIL import Image

from catalog import images
from contributions.models import ProposalPhoto
from contributions.tasks import prepare_photo
from scanning import pictures
from tests.support.card_photos import card_face, spread
from tests.support.contribution_helpers import make_curator, propose
from tests.support.real_files import phone_photo, png_plausible_bomb
from webutil import bounds, leases

pytestmark = pytest.mark.django_db


@pytest.fixture
def queued(settings):
    """The database backend: work waits for the worker, as in production."""
    settings.TASKS = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend", "QUEUES": ["default"]}}


def _send(client: Client, proposal_id: int, data: bytes, name: str = "front.jpg"):
    return client.post(
        f"/api/proposals/{proposal_id}/photos/", {"image": SimpleUploadedFile(name, data), "side": "front"}
    )


def test_a_phone_photo_waits_for_the_worker_then_is_the_clean_picture(
    alice, alice_client: Client, queued, monkeypatch, media_root, english
) -> None:
    proposal = propose(alice)
    face = card_face("五道·001", "新兵", "出牌階段", 2)
    monkeypatch.setattr(pictures, "run_bounded", lambda *a, **k: pytest.fail("decoded in the request"))
    sent = _send(
        alice_client, proposal.pk, phone_photo(spread([face], columns=1, seed=7))
    )  # 4032 × 3024, stored on its side
    assert sent.status_code == 201
    photo = ProposalPhoto.objects.get(proposal=proposal)
    assert photo.waiting and not photo.image.name and photo.source.name.endswith(".jpeg")
    page = alice_client.get(f"/contributions/{proposal.pk}/").content.decode()
    assert "This photo is being prepared" in page
    assert alice_client.get(f"/contributions/{proposal.pk}/photos/front/").status_code == 404
    monkeypatch.undo()

    assert prepare_photo.call(photo.pk) == "ready"  # what the worker runs
    photo.refresh_from_db()
    assert photo.ready and photo.image.name.endswith(".webp") and not photo.source.name
    assert (photo.width, photo.height) == (4000, 3000)  # upright (stored 3024 × 4032): the EXIF turn applied
    answer = alice_client.get(f"/contributions/{proposal.pk}/photos/front/")
    assert answer.status_code == 200
    served = Image.open(io.BytesIO(b"".join(answer.streaming_content)))
    assert served.format == "WEBP" and served.size == (4000, 3000) and not served.info.get("exif")


def test_a_photo_that_cannot_be_decoded_says_why_and_never_becomes_a_picture(
    alice, charlie, alice_client: Client, charlie_client: Client, queued, media_root, english, monkeypatch
) -> None:
    make_curator(charlie)
    proposal = propose(alice)
    assert _send(alice_client, proposal.pk, png_plausible_bomb(), "front.png").status_code == 201
    photo = ProposalPhoto.objects.get(proposal=proposal)
    refused = charlie_client.post(f"/api/proposals/{proposal.pk}/approve/", {}, content_type="application/json")
    assert refused.status_code == 409 and "still being prepared" in refused.content.decode()

    # The decoding child ran out of its memory bound (as a bigger bomb than this one would).
    monkeypatch.setattr(images, "DECODE_MEMORY", bounds.Bound("decoding memory", 64 * bounds.MB, "bytes", ""))
    assert prepare_photo.call(photo.pk) == "failed"
    photo.refresh_from_db()
    assert photo.status == ProposalPhoto.Status.FAILED and not photo.source.name
    page = alice_client.get(f"/contributions/{proposal.pk}/").content.decode()
    assert "This photo could not be read:" in page and "takes more memory or time" in page


def test_a_photo_whose_worker_died_is_prepared_again(alice, alice_client: Client, queued, media_root) -> None:
    proposal = propose(alice)
    _send(
        alice_client,
        proposal.pk,
        phone_photo(spread([card_face("五道·001", "新兵", "出牌階段", 2)], columns=1, seed=7), (1600, 1200)),
    )
    photo = ProposalPhoto.objects.get(proposal=proposal)
    # Claimed by a worker that was then killed: running, its lease run out.
    ProposalPhoto.objects.filter(pk=photo.pk).update(
        status=ProposalPhoto.Status.RUNNING, attempts=1, lease_until=timezone.now() - timedelta(seconds=1)
    )
    assert leases.recover_all() >= 1  # what every heartbeat of the worker runs
    photo.refresh_from_db()
    assert photo.status == ProposalPhoto.Status.QUEUED
    assert prepare_photo.call(photo.pk) == "ready"
