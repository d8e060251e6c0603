"""Completing a card by photo: the photo of the card's face is read in the background, the
proposal form comes back filled with what was read surely enough (marked, to check), and the
photo is attached as the proposal's evidence."""

from __future__ import annotations

import re
from urllib.parse import unquote

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client

from catalog.models import Scan
from contributions.models import Proposal
from tests.support.card_photos import as_photo, card_face
from tests.support.contribution_helpers import WD_CARD

pytestmark = pytest.mark.django_db
PROPOSE = f"/cards/{WD_CARD}/propose/"


def _face_photo() -> SimpleUploadedFile:
    face = card_face(WD_CARD, "鄉勇", "登場時，摸一張牌。", 2, power=3, health=4)
    return SimpleUploadedFile("face.jpg", as_photo(face, seed=4, angle=3, blur=0.5, scale=0.9), "image/jpeg")


def test_a_photo_fills_the_form_and_becomes_the_proposals_evidence(
    alice, alice_client: Client, media_root, english
) -> None:
    sent = alice_client.post(f"{PROPOSE}read/", {"photo": _face_photo()})
    scan = Scan.objects.get(user=alice)
    assert sent.status_code == 302 and unquote(sent["Location"]) == f"{PROPOSE}?scan={scan.pk}"
    assert scan.purpose == "proposal" and scan.card.code == WD_CARD and scan.status == "done"
    page = alice_client.get(sent["Location"]).content.decode()
    assert "read from your photo: check it" in page
    assert "登場時，摸一張牌。" in page and 'name="scan"' in page
    for field, value in (("cost", 2), ("power", 3), ("health", 4)):  # each figure filled in
        assert re.search(f'name="{field}" value="{value}"', page), field
    assert scan.result["facts"]["power"]["value"] == 3 and scan.result["facts"]["health"]["value"] == 4
    form = {"scan": str(scan.pk), "text": "登場時，摸一張牌。", "cost": "2", "note": "my copy"}
    saved = alice_client.post(PROPOSE, form)
    assert saved.status_code == 302
    proposal = Proposal.objects.get(author=alice)
    assert proposal.facts["text"] == "登場時，摸一張牌。" and proposal.facts["cost"] == 2
    assert [p.side for p in proposal.photos.all()] == ["front"]  # the photo read is the evidence


def test_the_faces_type_line_is_not_read_as_its_effect_text(alice, alice_client: Client, media_root) -> None:
    face = card_face(WD_CARD, "鄉勇", "登場時，摸一張牌。", 2, power=3, health=4, type_line="部隊 · 步兵")
    photo = SimpleUploadedFile("face.jpg", as_photo(face, seed=4, angle=3, blur=0.5, scale=0.9), "image/jpeg")
    alice_client.post(f"{PROPOSE}read/", {"photo": photo})
    scan = Scan.objects.get(user=alice)
    assert scan.result["facts"]["text"]["value"] == "登場時，摸一張牌。"
    assert any("部隊" in line or "部队" in line for line in _lines_read(face)), "the type line was on the photo"


def _lines_read(face) -> list[str]:
    from scanning import reader

    return [line.text for line in reader.read_lines(face.convert("RGB"))]


def test_another_users_or_another_cards_photo_is_not_found(
    alice, bob_client: Client, alice_client: Client, media_root
) -> None:
    alice_client.post(f"{PROPOSE}read/", {"photo": _face_photo()})
    scan = Scan.objects.get(user=alice)
    assert bob_client.get(f"{PROPOSE}?scan={scan.pk}").status_code == 404
    assert alice_client.get(f"/cards/五道·002/propose/?scan={scan.pk}").status_code == 404
    assert alice_client.get(f"{PROPOSE}?scan=x").status_code == 404
    assert alice_client.get(f"{PROPOSE}?scan=1%00").status_code == 400  # NUL bytes: refused at the door


def test_a_photo_being_read_shows_its_progress_and_a_bad_file_a_message(alice, alice_client: Client, english) -> None:
    from catalog.models import Card

    scan = Scan.objects.create(user=alice, purpose="proposal", card=Card.objects.get(code=WD_CARD))
    page = alice_client.get(f"{PROPOSE}?scan={scan.pk}").content.decode()
    assert '<meta http-equiv="refresh" content="3">' in page and 'hx-trigger="every 2s"' in page
    poll = alice_client.get(f"{PROPOSE}?scan={scan.pk}", HTTP_HX_REQUEST="true")
    assert 'id="reading"' in poll.content.decode()
    Scan.objects.filter(pk=scan.pk).update(status="done", result={"cards": [], "unmatched": [], "facts": {}})
    assert alice_client.get(f"{PROPOSE}?scan={scan.pk}", HTTP_HX_REQUEST="true")["HX-Refresh"] == "true"
    garbage = SimpleUploadedFile("x.jpg", b"\x00nope" * 50, "image/jpeg")
    refused = alice_client.post(f"{PROPOSE}read/", {"photo": garbage})
    assert (
        refused.status_code == 400 and "Only JPEG, PNG, WebP and HEIC photos are accepted." in refused.content.decode()
    )
    assert alice_client.post(f"{PROPOSE}read/", {}).status_code == 400


def test_a_reading_below_the_gate_is_a_hint_not_a_value(alice, alice_client: Client, english) -> None:
    from catalog.models import Card

    facts = {"text": {"value": "造成2贴售害", "confidence": 0.6}, "cost": {"value": "3", "confidence": 0.97}}
    scan = Scan.objects.create(
        user=alice, purpose="proposal", card=Card.objects.get(code=WD_CARD), status="done", result={"facts": facts}
    )
    page = alice_client.get(f"{PROPOSE}?scan={scan.pk}").content.decode()
    assert "Read from your photo, not surely:" in page and "造成2贴售害" in page
    text_box = page.split('name="text"', 1)[1].split("</textarea>", 1)[0]
    assert "造成2贴售害" not in text_box  # not put in the field
    assert (
        'value="3"'
        in page.split('name="cost"', 1)[0].rsplit("<input", 1)[1] + page.split('name="cost"', 1)[1].split(">", 1)[0]
    )


def test_the_api_reads_a_face_for_a_proposal_and_attaches_its_photo(
    alice, alice_client: Client, bob_client: Client, media_root
) -> None:
    sent = alice_client.post("/api/scans/", {"image": _face_photo(), "purpose": "proposal", "card": WD_CARD})
    assert sent.status_code == 202, sent.content
    assert sent.json()["purpose"] == "proposal" and sent.json()["card"] == WD_CARD
    scan = alice_client.get(f"/api/scans/{sent.json()['id']}/").json()
    assert scan["status"] == "done"
    assert scan["facts"]["text"]["value"] == "登場時，摸一張牌。" and scan["facts"]["cost"]["value"] == 2
    assert 0 < scan["facts"]["cost"]["confidence"] <= 1
    assert (scan["facts"]["power"]["value"], scan["facts"]["health"]["value"]) == (3, 4)
    assert "life" not in scan["facts"]  # a troop prints no life
    # Counting is not what it was sent for.
    applied = alice_client.post(f"/api/scans/{scan['id']}/apply/", {"cards": []}, content_type="application/json")
    assert applied.status_code == 409
    body = {"facts": {"text": scan["facts"]["text"]["value"]}, "note": "my copy", "scan": scan["id"]}
    assert bob_client.post(f"/api/cards/{WD_CARD}/proposals/", body, content_type="application/json").status_code == 400
    made = alice_client.post(f"/api/cards/{WD_CARD}/proposals/", body, content_type="application/json")
    assert made.status_code == 201, made.content
    assert made.json()["photos"] == ["front"] and made.json()["facts"] == {"text": "登場時，摸一張牌。"}
    elsewhere = alice_client.post("/api/cards/五道·002/proposals/", body, content_type="application/json")
    assert elsewhere.status_code == 400 and "scan" in elsewhere.json()


def test_a_proposal_scan_names_a_known_card(alice_client: Client) -> None:
    for card, field in ((None, "card"), ("NOPE-1", "card")):
        form = {"image": _face_photo(), "purpose": "proposal", **({"card": card} if card else {})}
        answer = alice_client.post("/api/scans/", form)
        assert answer.status_code == 400 and field in answer.json()
    assert not Scan.objects.exists()
    collection = alice_client.post("/api/scans/", {"image": _face_photo(), "card": "NOPE-1"}).json()
    assert collection["purpose"] == "collection" and collection["card"] is None and collection["facts"] == {}
