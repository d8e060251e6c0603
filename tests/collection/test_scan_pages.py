"""Counting a collection by photo, the pages: send photos from a phone, follow their reading
(htmx, or a reload without JavaScript), check each card found beside its crop, add them all."""

from __future__ import annotations

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client

from catalog.models import Card, Scan
from collection.models import CollectionEntry
from tests.support.card_photos import card_face, spread

pytestmark = pytest.mark.django_db


def _photo(*codes: str, name: str = "cards.jpg") -> SimpleUploadedFile:
    cards = [Card.objects.get(code=code) for code in codes]
    data = spread([card_face(c.code, c.name, c.text or "", c.cost) for c in cards], columns=len(cards), seed=5)
    return SimpleUploadedFile(name, data, "image/jpeg")


def test_the_page_takes_photos_from_the_camera(alice_client: Client, english) -> None:
    html = alice_client.get("/collection/scan/").content.decode()
    assert 'accept="image/*,.heic,.heif"' in html and 'capture="environment"' in html and "multiple" in html
    assert 'href="/collection/scan/"' in alice_client.get("/collection/").content.decode()


def test_photos_are_read_checked_and_added_in_one_step(
    alice, alice_client: Client, bob_client: Client, english
) -> None:
    sent = alice_client.post("/collection/scan/", {"photos": [_photo("YXJQ-004", "WJ-001")]})
    scan = Scan.objects.get(user=alice)
    assert sent.status_code == 302 and sent["Location"] == f"/collection/scan/{scan.pk}/"
    page = alice_client.get(sent["Location"]).content.decode()
    assert "2 cards found" in page and 'name="card_0"' in page and 'name="add_1"' in page
    crop = alice_client.get(f"/collection/scan/{scan.pk}/crop/0.webp")
    assert crop.status_code == 200 and crop["Content-Type"] == "image/webp" and "private" in crop["Cache-Control"]
    assert bob_client.get(f"/collection/scan/{scan.pk}/").status_code == 404
    assert bob_client.get(f"/collection/scan/{scan.pk}/crop/0.webp").status_code == 404
    assert alice_client.get(f"/collection/scan/{scan.pk}/crop/9.webp").status_code == 404
    first = scan.result["cards"][0]["card"]
    form = {"card_0": first, "add_0": "3", "foil_0": "1", "card_1": "", "add_1": "1", "foil_1": "0"}
    added = alice_client.post(f"/collection/scan/{scan.pk}/", form)
    assert added.status_code == 302 and added["Location"] == "/collection/history/"
    owned = {e.card.code: (e.quantity, e.foil_quantity) for e in CollectionEntry.objects.filter(user=alice)}
    assert owned == {first: (3, 1)}  # "none of these" adds nothing
    again = alice_client.post(f"/collection/scan/{scan.pk}/", form)
    assert again.status_code == 400 and "already added" in again.content.decode()
    assert CollectionEntry.objects.get(user=alice, card__code=first).quantity == 3


def test_a_cards_crop_is_the_whole_card_not_the_strip_from_its_name_to_its_code(alice, alice_client: Client) -> None:
    import io

    from PIL import Image

    alice_client.post("/collection/scan/", {"photos": [_photo("YXJQ-004")]})
    scan = Scan.objects.get(user=alice)
    crop = Image.open(io.BytesIO(alice_client.get(f"/collection/scan/{scan.pk}/crop/0.webp").content)).convert("RGB")
    assert crop.width / crop.height >= 0.7  # a card's shape (63 × 88), margins included
    # The cost, printed in the face's top-left corner (a gold disc), is in the picture's left half.
    left = crop.crop((0, 0, crop.width // 2, crop.height // 3))
    raw = left.tobytes()
    pixels = zip(raw[0::3], raw[1::3], raw[2::3], strict=True)
    gold = [p for p in pixels if abs(p[0] - 0xD8) < 40 and abs(p[1] - 0xC2) < 40 and p[2] < 0xA0]
    assert len(gold) > 50


def test_a_photo_being_read_is_followed_live_or_by_reloading(alice, alice_client: Client, english) -> None:
    scan = Scan.objects.create(user=alice)
    page = alice_client.get(f"/collection/scan/{scan.pk}/").content.decode()
    assert '<meta http-equiv="refresh" content="3">' in page and 'hx-trigger="every 2s"' in page
    poll = alice_client.get(f"/collection/scan/{scan.pk}/", HTTP_HX_REQUEST="true")
    assert 'id="scan-progress"' in poll.content.decode() and "<html" not in poll.content.decode()
    Scan.objects.filter(pk=scan.pk).update(status=Scan.Status.DONE, result={"cards": [], "unmatched": []})
    done = alice_client.get(f"/collection/scan/{scan.pk}/", HTTP_HX_REQUEST="true")
    assert done["HX-Refresh"] == "true"
    assert "No card was found in this photo." in alice_client.get(f"/collection/scan/{scan.pk}/").content.decode()


def test_bad_files_and_too_many_at_once_are_refused_with_a_message(alice_client: Client, english) -> None:
    garbage = SimpleUploadedFile("x.jpg", b"\x00garbage" * 40, "image/jpeg")
    answer = alice_client.post("/collection/scan/", {"photos": [garbage]}, follow=True)
    assert "x.jpg: Only JPEG, PNG, WebP and HEIC photos are accepted." in answer.content.decode()
    many = [SimpleUploadedFile(f"{n}.jpg", b"x", "image/jpeg") for n in range(11)]
    refused = alice_client.post("/collection/scan/", {"photos": many})
    assert refused.status_code == 400 and "At most 10 photos at once." in refused.content.decode()
    assert Scan.objects.count() == 0
    assert alice_client.post("/collection/scan/", {}).status_code == 400


def test_an_unreadable_photo_says_so(alice, alice_client: Client, english) -> None:
    scan = Scan.objects.create(user=alice, status=Scan.Status.FAILED, error="The photo could not be read.")
    assert "This photo could not be read." in alice_client.get(f"/collection/scan/{scan.pk}/").content.decode()
