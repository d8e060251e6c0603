"""Contributed card facts: proposing (pages and API), the curators' review, the history and
provenance of every fact, the incomplete cards, and the data file as the source of a release."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import call_command
from django.test import Client

from catalog import cache_version
from catalog.loading import DATA_FILE, export_catalog, load_catalog
from catalog.lookup import catalog_index
from catalog.models import Card, CardChange, CardImage
from contributions import services
from contributions.models import MAX_OPEN, Proposal, ProposalPhoto
from tests.conftest import PASSWORD
from tests.support.catalogue import CARD_COUNT
from tests.support.contribution_helpers import WD_CARD, make_curator, propose
from tests.support.image_helpers import jpeg_with_exif, picture_bytes, stored_files

pytestmark = pytest.mark.django_db

PROPOSE_URL = f"/cards/{WD_CARD}/propose/"


def _jpeg(name: str = "front.jpg") -> SimpleUploadedFile:
    return SimpleUploadedFile(name, jpeg_with_exif(6, (60, 40)), "image/jpeg")


@pytest.fixture
def curator(charlie):
    return charlie  # staff count as curators


@pytest.fixture
def curator_client(charlie_client):
    return charlie_client


# --- proposing ---------------------------------------------------------------------------------


def test_the_form_shows_each_fact_with_its_current_value(alice_client: Client, english) -> None:
    body = alice_client.get(PROPOSE_URL).content.decode()
    assert 'name="cost"' in body and 'name="text"' in body and 'name="power"' in body
    assert 'name="life"' not in body  # a troop prints no life
    assert "Now:" in body and "Infantry" in body  # the class as it is now


def test_a_proposal_with_a_photo_is_stored_and_the_photo_stays_private(
    alice, alice_client: Client, bob_client: Client, curator_client: Client, media_root
) -> None:
    response = alice_client.post(
        PROPOSE_URL,
        {"cost": "3", "text": "登場時摸一張牌。", "note": "my copy, 2nd printing", "front": _jpeg()},
    )
    assert response.status_code == 302, response.content[:500]
    proposal = Proposal.objects.get(author=alice)
    assert proposal.facts == {"cost": 3, "text": "登場時摸一張牌。"} and proposal.base == {"cost": None, "text": None}
    photo = proposal.photos.get()
    assert photo.side == "front" and (photo.width, photo.height) == (40, 60)  # EXIF orientation applied
    assert stored_files(media_root) == []  # nothing under the public media root
    url = f"/contributions/{proposal.pk}/photos/front/"
    assert alice_client.get(url).status_code == 200
    assert curator_client.get(url).status_code == 200
    assert bob_client.get(url).status_code == 404
    assert Client().get(url).status_code == 302
    served = alice_client.get(url)
    assert served["Cache-Control"] == "private, no-store" and b"".join(served.streaming_content)[:4] == b"RIFF"
    assert Card.objects.get(code=WD_CARD).cost is None  # nothing changes before review


@pytest.mark.parametrize(
    "data, field",
    [
        ({"cost": "three"}, "cost"),
        ({"cost": "100000"}, "cost"),
        ({"troop_class": "dragon"}, "troop_class"),
        ({"tier": "silver"}, "tier"),  # a metal without its stars
        ({"stars": "9", "tier": "gold"}, "stars"),
        ({"name": "鄉 勇"}, "name"),
        ({"text": "x\x00y"}, "text"),
        ({}, None),  # nothing to change
        ({"troop_class": "infantry"}, None),  # the same as now
    ],
)
def test_bad_values_are_refused_and_nothing_is_stored(alice_client: Client, data, field, english, media_root) -> None:
    response = alice_client.post(PROPOSE_URL, {"note": "my copy", **data})
    assert response.status_code == 400
    if field:
        assert f'id="id_{field}"' in response.content.decode()
    assert Proposal.objects.count() == 0 and ProposalPhoto.objects.count() == 0


def test_values_are_read_in_any_script_or_language(alice) -> None:
    proposal = propose(alice, troop_class="騎兵", tier="銀", stars="3", text="  造成2點傷害  ")
    assert proposal.facts == {"troop_class": "cavalry", "tier": "silver", "stars": 3, "text": "造成2點傷害"}
    simplified = propose(alice, code="五道·002", troop_class="骑兵", name="野蛮村夫2")
    assert simplified.facts["troop_class"] == "cavalry" and simplified.facts["name"] == "野蠻村夫2"


def test_a_note_on_the_source_is_required(alice_client: Client) -> None:
    assert alice_client.post(PROPOSE_URL, {"cost": "3", "note": ""}).status_code == 400
    assert Proposal.objects.count() == 0


def test_a_garbage_photo_is_refused_and_the_proposal_is_not_kept(alice_client: Client, media_root) -> None:
    garbage = SimpleUploadedFile("front.jpg", b"\x00not an image" * 50, "image/jpeg")
    response = alice_client.post(PROPOSE_URL, {"cost": "3", "note": "my copy", "front": garbage})
    assert response.status_code == 400
    assert Proposal.objects.count() == 0


def test_at_most_twenty_open_proposals(alice, alice_client: Client) -> None:
    for i in range(MAX_OPEN):
        propose(alice, text=f"第{i}版")
    response = alice_client.post(PROPOSE_URL, {"cost": "3", "note": "my copy"})
    assert response.status_code == 400
    api = alice_client.post(
        f"/api/cards/{WD_CARD}/proposals/", {"facts": {"cost": 3}, "note": "x"}, content_type="application/json"
    )
    assert api.status_code == 429
    assert Proposal.objects.count() == MAX_OPEN


def test_the_author_edits_and_withdraws_with_a_second_step(alice, alice_client: Client, media_root) -> None:
    proposal = propose(alice)
    services.add_photo(proposal.pk, alice, "back", io.BytesIO(picture_bytes("PNG", (30, 40))))
    edited = alice_client.post(f"/contributions/{proposal.pk}/edit/", {"cost": "4", "note": "my copy, 3rd printing"})
    assert edited.status_code == 302
    proposal.refresh_from_db()
    assert proposal.facts == {"cost": 4} and proposal.note == "my copy, 3rd printing"
    asked = alice_client.post(f"/contributions/{proposal.pk}/withdraw/")
    assert asked.status_code == 200 and 'name="confirm"' in asked.content.decode()
    proposal.refresh_from_db()
    assert proposal.status == "open"
    assert alice_client.post(f"/contributions/{proposal.pk}/withdraw/", {"confirm": "yes"}).status_code == 302
    proposal.refresh_from_db()
    assert proposal.status == "withdrawn"
    assert alice_client.get(f"/contributions/{proposal.pk}/photos/back/").status_code == 404


def test_nobody_else_edits_withdraws_or_sees_a_proposal(alice, bob_client: Client) -> None:
    proposal = propose(alice)
    for url in (f"/contributions/{proposal.pk}/", f"/contributions/{proposal.pk}/edit/"):
        assert bob_client.get(url).status_code == 404
    assert bob_client.post(f"/contributions/{proposal.pk}/withdraw/", {"confirm": "yes"}).status_code == 404
    assert bob_client.get(f"/api/proposals/{proposal.pk}/").status_code == 404
    assert bob_client.get("/api/proposals/").json() == []
    proposal.refresh_from_db()
    assert proposal.status == "open"


# --- reviewing ---------------------------------------------------------------------------------


def test_the_queue_is_for_curators(alice, alice_client: Client, curator_client: Client) -> None:
    propose(alice)
    assert alice_client.get("/review/").status_code == 403
    body = curator_client.get("/review/").content.decode()
    assert "鄉勇" in body


def test_a_group_member_is_a_curator(alice, bob, bob_client: Client) -> None:
    proposal = propose(alice)
    make_curator(bob)
    assert bob_client.get("/review/").status_code == 200
    assert bob_client.post(f"/contributions/{proposal.pk}/approve/").status_code == 302
    assert Card.objects.get(code=WD_CARD).cost == 3


def test_approval_applies_everything_at_once(
    alice, curator, curator_client: Client, media_root, english, django_capture_on_commit_callbacks
) -> None:
    proposal = propose(alice, cost="3", text="登場時，摸一張牌。", tier="silver", stars="3")
    services.add_photo(proposal.pk, alice, "front", io.BytesIO(picture_bytes("JPEG", (300, 420))))
    private = proposal.photos.get().image.path
    version = cache_version.current()
    card_json_before = Client().get(f"/api/cards/{WD_CARD}/").json()
    assert card_json_before["provenance"]["cost"] == "printed"

    diff = curator_client.get(f"/contributions/{proposal.pk}/").content.decode()
    assert "登場時，摸一張牌。" in diff and 'name="reason"' in diff
    with django_capture_on_commit_callbacks(execute=True):
        assert curator_client.post(f"/contributions/{proposal.pk}/approve/").status_code == 302

    card = Card.objects.get(code=WD_CARD)
    assert (card.cost, card.text, card.tier, card.stars) == (3, "登場時，摸一張牌。", "silver", 3)
    change = CardChange.objects.get(card=card)
    assert change.source == "contribution" and change.proposer == alice and change.reviewer == curator
    assert change.changes["cost"] == [None, 3] and change.note == "my copy, 2nd printing"
    assert card.provenance["cost"] == {"change": change.pk, "note": "my copy, 2nd printing"}
    assert cache_version.current() != version
    # the API, the page, search and the history all show it
    data = Client().get(f"/api/cards/{WD_CARD}/").json()
    assert data["cost"] == 3 and data["provenance"]["cost"] == change.pk and data["provenance"]["power"] == "printed"
    page = Client().get(f"/cards/{WD_CARD}/").content.decode()
    assert "登場時，摸一張牌。" in page and f"#change-{change.pk}" in page and "Photo by" in page
    found = Client().get("/api/cards/", {"q": 'set:wd cost=3 t:"摸一張牌"'}).json()
    assert [c["code"] for c in found["results"]] == [WD_CARD]
    history = Client().get(f"/api/cards/{WD_CARD}/history/").json()
    assert history[0]["id"] == change.pk and history[0]["proposer"] == "alice"
    # the photo became the card's public picture, credited, and left the private store
    picture = CardImage.objects.get(card=card, side="front")
    assert picture.contributor == alice and (media_root / picture.image.name).exists()
    assert not Path(private).exists()
    assert data["pictures"]["front"]["credit"] == "alice"
    proposal.refresh_from_db()
    assert proposal.status == "approved" and proposal.change == change and not proposal.seen


def test_approving_after_editing(alice, curator_client: Client) -> None:
    proposal = propose(alice, cost="3")
    response = curator_client.post(f"/contributions/{proposal.pk}/approve/", {"fact-cost": "2", "edited": "yes"})
    assert response.status_code == 302
    assert Card.objects.get(code=WD_CARD).cost == 2
    proposal.refresh_from_db()
    assert proposal.facts == {"cost": 2}


def test_nobody_approves_their_own_proposal(curator, curator_client: Client) -> None:
    proposal = propose(curator)
    assert curator_client.post(f"/contributions/{proposal.pk}/approve/").status_code == 403
    api = curator_client.post(f"/api/proposals/{proposal.pk}/approve/", {}, content_type="application/json")
    assert api.status_code == 403
    assert Card.objects.get(code=WD_CARD).cost is None


def test_a_player_cannot_approve(alice, bob, bob_client: Client, alice_client: Client) -> None:
    proposal = propose(alice)
    assert bob_client.post(f"/contributions/{proposal.pk}/approve/").status_code == 404
    assert alice_client.post(f"/contributions/{proposal.pk}/approve/").status_code == 403
    assert Card.objects.get(code=WD_CARD).cost is None


def test_a_card_changed_since_asks_the_reviewer_to_confirm(
    alice, bob, curator, curator_client: Client, english
) -> None:
    first, second = propose(alice, cost="3"), propose(bob, cost="4")
    services.approve(first.pk, curator)
    response = curator_client.post(f"/contributions/{second.pk}/approve/")
    assert response.status_code == 409
    body = response.content.decode()
    assert "When proposed" in body and 'name="confirm"' in body  # three values: then, now, proposed
    assert Card.objects.get(code=WD_CARD).cost == 3
    api = curator_client.post(f"/api/proposals/{second.pk}/approve/", {}, content_type="application/json")
    assert api.status_code == 409 and api.json()["stale"] == [
        {"fact": "cost", "proposed_on": None, "now": 3, "proposed": 4}
    ]
    assert curator_client.post(f"/contributions/{second.pk}/approve/", {"confirm": "yes"}).status_code == 302
    assert Card.objects.get(code=WD_CARD).cost == 4


def test_rejecting_needs_a_reason_the_author_then_sees(
    alice, alice_client: Client, curator_client: Client, english
) -> None:
    proposal = propose(alice)
    alice_client.get("/contributions/")  # a contributor: the header counts reviewed proposals
    assert curator_client.post(f"/contributions/{proposal.pk}/reject/", {"reason": ""}).status_code == 400
    assert curator_client.post(f"/contributions/{proposal.pk}/reject/", {"reason": "背面照片看不清"}).status_code == 302
    header = alice_client.get("/cards/").content.decode()
    assert "1 reviewed" in header
    mine = alice_client.get("/contributions/").content.decode()
    assert "背面照片看不清" in mine and "Rejected" in mine
    assert "1 reviewed" not in alice_client.get("/cards/").content.decode()  # seen now
    assert Card.objects.get(code=WD_CARD).cost is None
    again = curator_client.post(f"/contributions/{proposal.pk}/approve/")
    assert again.status_code == 409  # already reviewed


# --- history, revert, provenance ---------------------------------------------------------------


def test_history_pages_and_feeds(alice, curator, english) -> None:
    proposal = propose(alice, cost="3", note="my copy, 2nd printing")
    services.approve(proposal.pk, curator)
    page = Client().get(f"/cards/{WD_CARD}/history/").content.decode()
    assert "my copy, 2nd printing" in page and "alice" in page and "charlie" in page
    everything = Client().get("/changes/", {"set": "WD", "field": "cost"}).content.decode()
    assert "鄉勇" in everything
    assert "鄉勇" not in Client().get("/changes/", {"field": "text"}).content.decode()
    for url in (f"/cards/{WD_CARD}/history/feed/", "/changes/feed/?set=WD"):
        feed = Client().get(url)
        assert feed.status_code == 200 and feed["Content-Type"].startswith("application/atom+xml")
        assert "<entry>" in feed.content.decode() and "鄉勇" in feed.content.decode()


def test_a_curator_reverts_a_change(alice, curator, curator_client: Client, alice_client: Client) -> None:
    proposal = propose(alice, cost="3")
    services.approve(proposal.pk, curator)
    change = CardChange.objects.get(card__code=WD_CARD)
    assert alice_client.post(f"/changes/{change.pk}/revert/", {"confirm": "yes"}).status_code == 403
    asked = curator_client.post(f"/changes/{change.pk}/revert/")
    assert asked.status_code == 200 and Card.objects.get(code=WD_CARD).cost == 3
    assert curator_client.post(f"/changes/{change.pk}/revert/", {"confirm": "yes"}).status_code == 302
    card = Card.objects.get(code=WD_CARD)
    assert card.cost is None and "cost" not in card.provenance
    revert = CardChange.objects.filter(card=card).order_by("-pk").first()
    assert revert.source == "revert" and revert.reverts == change and revert.changes == {"cost": [3, None]}


def test_admin_edits_join_the_history(charlie, charlie_client: Client) -> None:
    charlie.is_superuser = True
    charlie.save()
    card = Card.objects.get(code="YXJQ-003")
    form = charlie_client.get(f"/admin/catalog/card/{card.pk}/change/")
    assert form.status_code == 200
    fields = ["code", "name", "set", "kind", "cost", "cost_text", "power", "health", "life", "troop_class"]
    fields += ["affiliation", "faction", "speed", "element", "tier", "stars", "awakening"]
    data = {k: ("" if v is None else v) for k, v in Card.objects.filter(pk=card.pk).values(*fields).get().items()}
    data.update({"text": "新兵的技能", "images-TOTAL_FORMS": "0", "images-INITIAL_FORMS": "0"})
    response = charlie_client.post(f"/admin/catalog/card/{card.pk}/change/", data)
    assert response.status_code == 302, response.content.decode()[:2000]
    change = CardChange.objects.get(card=card)
    assert change.source == "admin" and change.changes == {"text": [None, "新兵的技能"]}
    assert Card.objects.get(pk=card.pk).provenance["text"]["change"] == change.pk


def test_a_renamed_card_still_reads_under_its_old_name(alice, curator, django_capture_on_commit_callbacks) -> None:
    catalog_index()  # built before the change: the new catalogue version must rebuild it
    proposal = propose(alice, name="鄉勇兵")
    with django_capture_on_commit_callbacks(execute=True):
        services.approve(proposal.pk, curator)
    card = Card.objects.get(code=WD_CARD)
    assert card.name == "鄉勇兵" and card.aliases == ["鄉勇"]
    index = catalog_index()
    assert index.lookup("鄉勇").code == WD_CARD and index.lookup("乡勇兵").code == WD_CARD
    found = Client().get("/api/cards/", {"q": "xiangyongbing"}).json()
    assert WD_CARD in [c["code"] for c in found["results"]]


# --- incomplete cards and the query language ---------------------------------------------------


def test_the_incomplete_page_counts_what_each_set_lacks(english) -> None:
    response = Client().get("/cards/incomplete/")
    body = response.content.decode()
    assert response.status_code == 200
    lacking = Card.objects.filter(text__isnull=True).count()
    assert 0 < lacking < CARD_COUNT  # the seeds print few cards' skills
    assert "/cards/YXJQ-001/propose/" in body  # the first card to complete, with its link
    assert f"{lacking}/{CARD_COUNT}" in body.replace(" ", "") or "Skills text" in body
    assert "missing%3Acost" in body


@pytest.mark.parametrize(
    "query, expected",
    [("missing:cost", 122), ("缺:費用", 122), ("missing:rarity", 155), ("missing:text", 197)],
)
def test_missing_facts_in_the_query_language(query: str, expected: int) -> None:
    response = Client().get("/api/cards/", {"q": query, "page_size": 1})
    assert response.status_code == 200 and response.json()["count"] == expected


def test_is_incomplete_leaves_out_complete_cards(alice, curator) -> None:
    before = Client().get("/api/cards/", {"q": "is:incomplete", "page_size": 1}).json()["count"]
    assert before > 0
    card = Card.objects.get(code=WD_CARD)
    proposal = propose(alice, cost="2", power="1", health="3", text="無", tier="iron", stars="1")
    services.approve(proposal.pk, curator)
    codes = [
        c["code"]
        for c in Client().get("/api/cards/", {"q": "is:incomplete set:wd", "page_size": 200}).json()["results"]
    ]
    assert card.code not in codes and "五道·002" in codes
    assert Client().get("/api/cards/", {"q": "is:complete"}).status_code == 400


# --- the data file -----------------------------------------------------------------------------


def test_export_right_after_a_load_is_the_data_file_byte_for_byte(tmp_path) -> None:
    load_catalog()
    target = tmp_path / "cards.json"
    call_command("exportcatalog", str(target))
    assert target.read_bytes() == DATA_FILE.read_bytes()


def test_contributions_travel_in_the_exported_file(alice, curator, tmp_path) -> None:
    proposal = propose(alice, cost="3", name="鄉勇兵")
    services.approve(proposal.pk, curator)
    change = CardChange.objects.get(card__code=WD_CARD)
    data = json.loads(export_catalog())
    record = next(c for c in data["cards"] if c["code"] == WD_CARD)
    assert record["cost"] == 3 and record["aliases"] == ["鄉勇"]
    assert record["provenance"] == {
        "name": {"change": change.pk, "note": "my copy, 2nd printing"},
        "cost": {"change": change.pk, "note": "my copy, 2nd printing"},
    }
    # a fresh load of the released file keeps where each fact came from, and changes nothing
    path = tmp_path / "release.json"
    path.write_text(export_catalog(), encoding="utf-8")
    report = load_catalog(path)
    assert report.changed == [] and report.conflicts == []
    assert export_catalog() == path.read_text(encoding="utf-8")


def test_loadcatalog_keeps_a_contributed_fact_unless_the_file_is_preferred(alice, curator) -> None:
    proposal = propose(alice, cost="3")
    services.approve(proposal.pk, curator)
    out, err = io.StringIO(), io.StringIO()
    call_command("loadcatalog", stdout=out, stderr=err)  # the file still says cost unknown
    assert "conflict: 五道·001 cost: contributed 3, file None" in err.getvalue()
    card = Card.objects.get(code=WD_CARD)
    assert card.cost == 3 and "cost" in card.provenance
    call_command("loadcatalog", "--prefer-file", stdout=out, stderr=err)
    card = Card.objects.get(code=WD_CARD)
    assert card.cost is None and "cost" not in card.provenance
    load = CardChange.objects.filter(card=card, source="printed").get()
    assert load.changes == {"cost": [3, None]}


def test_a_bad_provenance_in_the_file_changes_nothing(tmp_path) -> None:
    data = json.loads(DATA_FILE.read_text(encoding="utf-8"))
    data["cards"][0]["cost"] = 9
    data["cards"][1]["provenance"] = {"cost": "my copy"}
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    with pytest.raises(Exception, match="provenance"):
        call_command("loadcatalog", str(path))
    assert Card.objects.get(code=data["cards"][0]["code"]).cost != 9


# --- API ---------------------------------------------------------------------------------------


def test_the_api_round_trip(alice, alice_client: Client, curator_client: Client, media_root) -> None:
    created = alice_client.post(
        f"/api/cards/{WD_CARD}/proposals/",
        {"facts": {"cost": 3, "text": "登場時摸一張牌。"}, "note": "my copy"},
        content_type="application/json",
    )
    assert created.status_code == 201, created.content
    body = created.json()
    assert body["status"] == "open" and body["facts"] == {"cost": 3, "text": "登場時摸一張牌。"}
    pid = body["id"]
    photo = alice_client.post(f"/api/proposals/{pid}/photos/", {"image": _jpeg(), "side": "front"})
    assert photo.status_code == 201 and photo.json()["photos"] == ["front"]
    bad = alice_client.post(f"/api/proposals/{pid}/photos/", {"image": _jpeg(), "side": "top"})
    assert bad.status_code == 400
    assert [p["id"] for p in alice_client.get("/api/proposals/?mine=1").json()] == [pid]
    assert [p["id"] for p in curator_client.get("/api/proposals/?status=open").json()] == [pid]
    assert curator_client.get("/api/proposals/?status=nonsense").status_code == 400
    assert curator_client.get("/api/proposals/?status=").status_code == 400  # the schema lists no empty status
    assert curator_client.get("/api/proposals/?mine=").status_code == 400
    approved = curator_client.post(f"/api/proposals/{pid}/approve/", {}, content_type="application/json")
    assert approved.status_code == 200 and approved.json()["status"] == "approved"
    assert approved.json()["change"] is not None
    again = curator_client.post(f"/api/proposals/{pid}/reject/", {"reason": "late"}, content_type="application/json")
    assert again.status_code == 409


@pytest.mark.parametrize(
    "payload",
    [
        {"facts": {"cost": "three"}, "note": "x"},
        {"facts": {"cost": True}, "note": "x"},
        {"facts": {"colour": "red"}, "note": "x"},
        {"facts": [1, 2], "note": "x"},
        {"facts": {"cost": 3}, "note": 5},
        {"facts": {"cost": 3}},
        {"facts": {"text": "a" * 5000}, "note": "x"},
        {"facts": {"cost": 2**70}, "note": "x"},
    ],
)
def test_the_api_refuses_bad_proposals(alice_client: Client, payload) -> None:
    response = alice_client.post(f"/api/cards/{WD_CARD}/proposals/", payload, content_type="application/json")
    assert response.status_code == 400, response.content
    assert Proposal.objects.count() == 0


def test_the_api_needs_a_login_and_a_real_card(alice_client: Client) -> None:
    payload = {"facts": {"cost": 3}, "note": "x"}
    assert (
        Client().post(f"/api/cards/{WD_CARD}/proposals/", payload, content_type="application/json").status_code == 401
    )
    assert (
        alice_client.post("/api/cards/XX-999/proposals/", payload, content_type="application/json").status_code == 404
    )


def test_the_header_counts_reviews_from_the_next_log_in(alice, curator, english) -> None:
    proposal = propose(alice)
    services.reject(proposal.pk, curator, "照片模糊")
    client = Client()
    assert client.post("/accounts/login/", {"username": "alice", "password": PASSWORD}).status_code == 302
    assert "1 reviewed" in client.get("/cards/").content.decode()


# What a curator (charlie, staff) gets on the routes the authorization table walks as the other
# three people: the queue, another's proposal and its photo, reviewing it, reverting.
CURATOR_ROUTES = [
    ("get", "/review/", None, 200),
    ("get", "/contributions/{proposal}/", None, 200),
    ("get", "/contributions/{proposal}/photos/front/", None, 200),
    ("get", "/contributions/{proposal}/edit/", None, 404),  # only the author edits
    ("post", "/contributions/{proposal}/withdraw/", {"confirm": "yes"}, 404),  # and withdraws
    ("get", "/api/proposals/?status=open", None, 200),
    ("get", "/api/proposals/{proposal}/", None, 200),
    ("post", "/contributions/{proposal}/reject/", {"reason": "看不清楚"}, 302),
    ("post", "/contributions/{proposal}/approve/", {}, 302),
    ("post", "/changes/{change}/revert/", {"confirm": "yes"}, 302),
]


@pytest.mark.parametrize(
    "method, url, data, expected", CURATOR_ROUTES, ids=[f"{m} {u}" for m, u, _d, _e in CURATOR_ROUTES]
)
def test_what_a_curator_may_do(
    alice, bob, curator, curator_client: Client, media_root, method, url, data, expected
) -> None:
    proposal = propose(alice, note="私人筆記")
    services.add_photo(proposal.pk, alice, "front", io.BytesIO(picture_bytes("PNG", (30, 40))))
    services.approve(propose(bob, code="五道·002", cost="2").pk, curator)
    change = CardChange.objects.get(card__code="五道·002")
    target = url.format(proposal=proposal.pk, change=change.pk)
    response = getattr(curator_client, method)(target, data) if method == "post" else curator_client.get(target)
    assert response.status_code == expected


def test_a_curator_who_is_not_staff_finds_the_review_queue_in_the_header(alice, bob) -> None:
    make_curator(bob)
    assert not bob.is_staff
    propose(alice)
    curator, author = Client(), Client()
    curator.force_login(bob)
    author.force_login(alice)
    header = curator.get("/cards/").content.decode()
    assert 'href="/review/"' in header and "1 件</span>" in header
    assert 'href="/review/"' not in author.get("/cards/").content.decode()
    assert curator.get("/review/").status_code == 200


def test_a_refused_value_says_at_the_top_that_the_photo_must_be_chosen_again(alice_client: Client, english) -> None:
    photo = SimpleUploadedFile("front.png", picture_bytes("PNG", (30, 40)), "image/png")
    response = alice_client.post(PROPOSE_URL, {"cost": "many", "note": "my copy", "front": photo})
    assert response.status_code == 400 and Proposal.objects.count() == 0
    html = response.content.decode()
    summary = html[html.index('class="error-box"') : html.index("</div>", html.index('class="error-box"'))]
    assert 'href="#id_cost"' in summary
    assert "choose it again (Photo of the front)" in summary
    plain = alice_client.post(PROPOSE_URL, {"cost": "many", "note": "my copy"}).content.decode()
    assert "choose it again" not in plain
