"""Counting a collection by photo through the API: a photo is read (here at once; and by the
database backend's worker), the cards found are the right catalogue cards, the owner adds the
checked copies once; bad files, other users' scans, the limit of photos waiting and a failed
reading get clear answers."""

from __future__ import annotations

import io

import pytest
from django.core.management import call_command
from django.test import Client

from catalog.models import MAX_WAITING_SCANS, Card, Scan
from collection.models import CollectionChange, CollectionEntry
from tests.support.card_photos import card_face, spread

pytestmark = pytest.mark.django_db


def _photo(*codes: str) -> io.BytesIO:
    cards = [Card.objects.get(code=code) for code in codes]
    data = spread([card_face(c.code, c.name, c.text or "", c.cost) for c in cards], columns=len(cards), seed=7)
    upload = io.BytesIO(data)
    upload.name = "table.jpg"
    return upload


def _send(client: Client, upload: io.BytesIO):
    return client.post("/api/scans/", {"image": upload}, format="multipart")


def test_a_photo_is_read_and_its_checked_cards_are_added_once(alice, alice_client: Client, bob_client: Client) -> None:
    sent = _send(alice_client, _photo("YXJQ-004", "WJ-001"))
    assert sent.status_code == 202, sent.content
    scan = sent.json()
    answer = alice_client.get(f"/api/scans/{scan['id']}/").json()
    assert answer["status"] == "done" and sorted(c["card"] for c in answer["cards"]) == ["WJ-001", "YXJQ-004"]
    first = answer["cards"][0]
    assert len(first["box"]) == 4 and 0 < first["confidence"] <= 1 and first["text"]
    assert bob_client.get(f"/api/scans/{scan['id']}/").status_code == 404
    assert (
        bob_client.post(f"/api/scans/{scan['id']}/apply/", {"cards": []}, content_type="application/json").status_code
        == 404
    )
    body = {"cards": [{"card": "YXJQ-004", "add": 2}, {"card": "WJ-001", "add": 1, "add_foil": 1}]}
    applied = alice_client.post(f"/api/scans/{scan['id']}/apply/", body, content_type="application/json")
    assert applied.status_code == 200 and applied.json() == {"added": 4}
    owned = {e.card.code: (e.quantity, e.foil_quantity) for e in CollectionEntry.objects.filter(user=alice)}
    assert owned == {"YXJQ-004": (2, 0), "WJ-001": (1, 1)}
    assert set(CollectionChange.objects.filter(user=alice).values_list("source", flat=True)) == {"scan"}
    again = alice_client.post(f"/api/scans/{scan['id']}/apply/", body, content_type="application/json")
    assert again.status_code == 409 and CollectionEntry.objects.get(user=alice, card__code="YXJQ-004").quantity == 2


def test_the_photo_is_private_and_kept_as_a_clean_picture(alice, alice_client: Client, media_root) -> None:
    scan_id = _send(alice_client, _photo("YXJQ-003")).json()["id"]
    scan = Scan.objects.get(pk=scan_id)
    assert scan.user == alice and scan.image.name.endswith(".webp") and scan.width > 0
    with pytest.raises(ValueError, match="private files have no URL"):
        scan.image.url


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"\x00not a picture" * 30, "Only JPEG, PNG, WebP and HEIC photos are accepted."),
        (b"", "The submitted file is empty."),
    ],
)
def test_a_file_that_is_no_photo_is_refused_with_a_message(
    alice_client: Client, english, content: bytes, message: str
) -> None:
    upload = io.BytesIO(content)
    upload.name = "x.jpg"
    answer = _send(alice_client, upload)
    assert answer.status_code == 400 and message in answer.content.decode()
    assert Scan.objects.count() == 0


def test_at_most_ten_photos_wait_at_once(alice, alice_client: Client) -> None:
    Scan.objects.bulk_create([Scan(user=alice) for _ in range(MAX_WAITING_SCANS)])
    assert _send(alice_client, _photo("YXJQ-003")).status_code == 429
    assert Scan.objects.count() == MAX_WAITING_SCANS


def test_photos_refused_under_the_lock_leave_no_file(alice, alice_client: Client, media_root, monkeypatch) -> None:
    """The file is written before the owner's row is locked; when another upload filled the
    queue meanwhile, the check under the lock refuses and the file written goes again."""
    from catalog import scans
    from tests.support.image_helpers import stored_files
    from webutil.storage import private_root

    keep = scans._keep

    def another_upload_meanwhile(user, upload):  # what a second tab's request commits meanwhile
        name = keep(user, upload)
        Scan.objects.bulk_create([Scan(user=alice) for _ in range(MAX_WAITING_SCANS)])
        return name

    monkeypatch.setattr(scans, "_keep", another_upload_meanwhile)
    assert _send(alice_client, _photo("YXJQ-003")).status_code == 429
    assert Scan.objects.count() == MAX_WAITING_SCANS
    assert not private_root().exists() or stored_files(private_root()) == []


def test_a_reading_that_fails_says_so_and_nothing_is_stuck(alice_client: Client, monkeypatch) -> None:
    """In the reader's language (here the default, Traditional); what failed is kept for us."""
    import scanning.reader

    def broken(image: object, kind: str = "cards") -> list:
        raise RuntimeError("the recogniser broke")

    monkeypatch.setattr(scanning.reader, "read_lines", broken)
    scan = _send(alice_client, _photo("YXJQ-003")).json()
    answer = alice_client.get(f"/api/scans/{scan['id']}/").json()
    assert answer["status"] == "failed" and "這張照片無法辨識" in answer["error"] and answer["cards"] == []
    assert Scan.objects.get(pk=scan["id"]).error == "unreadable: RuntimeError"
    assert (
        alice_client.post(f"/api/scans/{scan['id']}/apply/", {"cards": []}, content_type="application/json").status_code
        == 409
    )


def test_an_unknown_card_or_a_bad_count_adds_nothing(alice, alice_client: Client) -> None:
    scan = _send(alice_client, _photo("YXJQ-003")).json()
    for cards in (
        [{"card": "NOPE-001", "add": 1}],
        [{"card": "YXJQ-003", "add": -1}],
        [{"card": "YXJQ-003", "add": 10**6}],
    ):
        answer = alice_client.post(f"/api/scans/{scan['id']}/apply/", {"cards": cards}, content_type="application/json")
        assert answer.status_code == 400, cards
    assert not CollectionEntry.objects.filter(user=alice).exists()


def test_the_database_backend_queues_the_reading_for_the_worker(alice_client: Client, settings, monkeypatch) -> None:
    import django_tasks_db.management.commands.db_worker as worker

    settings.TASKS = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend", "QUEUES": ["default"]}}
    scan = _send(alice_client, _photo("WJ-001")).json()
    assert scan["status"] == "queued"
    # The worker's own housekeeping would close the test's connection (its transaction is the test).
    monkeypatch.setattr(worker, "close_old_connections", lambda: None)
    call_command("db_worker", batch=True, no_startup_delay=True, verbosity=0)
    answer = alice_client.get(f"/api/scans/{scan['id']}/").json()
    assert answer["status"] == "done" and [c["card"] for c in answer["cards"]] == ["WJ-001"]


def test_photos_are_deleted_thirty_days_after_their_scan(alice_client: Client, media_root) -> None:
    from datetime import timedelta

    from django.utils import timezone

    old, new = (_send(alice_client, _photo("YXJQ-003")).json()["id"] for _ in range(2))
    Scan.objects.filter(pk=old).update(finished_at=timezone.now() - timedelta(days=31))
    old_file = Scan.objects.get(pk=old).image
    storage, name = old_file.storage, old_file.name
    call_command("cleanscans", verbosity=0)
    assert not storage.exists(name) and Scan.objects.get(pk=old).image.name == ""
    assert Scan.objects.get(pk=old).result["cards"]  # what was found stays
    kept = Scan.objects.get(pk=new).image
    assert kept.storage.exists(kept.name)


def test_the_cards_of_a_photo_are_one_history_entry_undone_as_one(alice, alice_client: Client, english) -> None:
    alice_client.post("/collection/cards/YXJQ-004/", {"action": "inc"})  # before the photo: stays
    scan = _send(alice_client, _photo("YXJQ-004", "WJ-001")).json()
    body = {"cards": [{"card": "YXJQ-004", "add": 2}, {"card": "WJ-001", "add": 1, "add_foil": 1}]}
    alice_client.post(f"/api/scans/{scan['id']}/apply/", body, content_type="application/json")
    page = alice_client.get("/collection/history/").content.decode()
    assert page.count("<details>") == 1 and "2 cards" in page and "(4 copies)" in page and "photo" in page
    assert page.count(">Undo</button>") == 2  # the photo's entry and the +1 before it
    entry = CollectionChange.objects.filter(user=alice, source="scan").first()
    asked = alice_client.post(f"/collection/history/{entry.pk}/undo/").content.decode()
    assert "The 2 cards changed in this step go back to their counts before it." in asked
    assert alice_client.post(f"/collection/history/{entry.pk}/undo/", {"confirm": "yes"}).status_code == 302
    owned = {e.card.code: (e.quantity, e.foil_quantity) for e in CollectionEntry.objects.filter(user=alice)}
    assert owned == {"YXJQ-004": (1, 0), "WJ-001": (0, 0)}
    assert CollectionChange.objects.filter(user=alice, source="scan", undone=True).count() == 2
    undo = list(CollectionChange.objects.filter(user=alice, source="undo"))
    assert len(undo) == 2 and undo[0].batch == undo[1].batch is not None  # the undo: one entry too
    again = alice_client.post(f"/collection/history/{entry.pk}/undo/", {"confirm": "yes"})
    assert again.status_code == 400


def test_a_step_is_undone_whole_or_not_at_all(alice, alice_client: Client) -> None:
    scan = _send(alice_client, _photo("YXJQ-004", "WJ-001")).json()
    body = {"cards": [{"card": "YXJQ-004", "add": 2}, {"card": "WJ-001", "add": 1}]}
    alice_client.post(f"/api/scans/{scan['id']}/apply/", body, content_type="application/json")
    alice_client.post("/collection/cards/WJ-001/", {"action": "set", "quantity": "0"})  # sold since
    entry = CollectionChange.objects.filter(user=alice, source="scan").first()
    assert alice_client.post(f"/collection/history/{entry.pk}/undo/", {"confirm": "yes"}).status_code == 400
    owned = {e.card.code: e.quantity for e in CollectionEntry.objects.filter(user=alice)}
    assert owned == {"YXJQ-004": 2, "WJ-001": 0}  # nothing of the step was undone
    assert not CollectionChange.objects.filter(user=alice, source="scan", undone=True).exists()
