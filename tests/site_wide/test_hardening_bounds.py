"""The second hardening pass: no request holds a worker past its bound, no input answers 500,
no fault leaves a public file behind. Each test reproduces a finding of the probe of the
running site (digits, NUL and surrogates in imports, amplification, check-many, deck archives,
feeds, a kill mid-approval, 429 in the schema)."""

from __future__ import annotations

import io
import json
import xml.etree.ElementTree as ET
import zipfile
from pathlib import Path

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import call_command
from django.test import Client, TestCase

from catalog import images
from catalog.models import Card, CardImage
from contributions import services as contributions
from contributions.models import Proposal
from decks import archive, batch
from decks.models import Deck, DeckVersion
from rules_check.model import MAX_LISTED_PROBLEMS
from tests.support.collection_helpers import own
from tests.support.contribution_helpers import WD_CARD, propose
from tests.support.deck_helpers import make_deck
from tests.support.decklists import LEGAL_40
from tests.support.image_helpers import picture_bytes, stored_files
from webutil.pause import pause_at

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("english")]

ODD_DIGITS = ["²", "٣", "１２", "1" * 4400]


# --- numbers: ASCII digits only ---------------------------------------------------------------


@pytest.mark.parametrize("digits", ODD_DIGITS)
@pytest.mark.parametrize(
    "address",
    [
        "/decks/compare/?a={d}&b=1",
        "/api/decks/compare/?a={d}&b=1",
        "/cards/?per_page={d}",
        "/cards/?page={d}",
        "/decks/?per_page={d}",
        "/decks/?page={d}",
        "/collection/?per_page={d}",
        "/collection/?page={d}",
        "/api/cards/?page_size={d}",
        "/api/decks/?page_size={d}",
    ],
)
def test_digits_that_are_not_ascii_are_a_4xx_or_ignored(alice_client: Client, address: str, digits: str) -> None:
    response = alice_client.get(address.format(d=digits))
    assert response.status_code in (200, 400, 404), response.content[:300]
    if address.startswith("/api/") and "page_size" in address:
        assert response.status_code == 400 and "page_size" in response.json()


@pytest.mark.parametrize("digits", ODD_DIGITS)
def test_a_csv_quantity_of_odd_digits_is_a_row_error(alice_client: Client, digits: str) -> None:
    content = f"code,quantity,foil_quantity\nYXJQ-003,{digits},0\n".encode()
    response = alice_client.post(
        "/collection/import/", {"file": SimpleUploadedFile("c.csv", content, "text/csv"), "mode": "add"}
    )
    assert response.status_code in (200, 400)
    assert "is not a whole number" in response.content.decode()


# --- JSON and zip input cleaned like form input -------------------------------------------------


def _archive(decks: list[dict]) -> io.BytesIO:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as bundle:
        document = {"kind": archive.KIND, "version": 1, "decks": decks}
        bundle.writestr(archive.JSON_NAME, json.dumps(document, ensure_ascii=True))
    buffer.seek(0)
    buffer.name = "decks.zip"
    return buffer


def _deck(**fields: object) -> dict:
    return {"name": "牌庫", "format": "standard", "general": "WJ-001", "main": {"YXJQ-003": 3}} | fields


SNAPSHOT = {"name": "v", "format": "standard", "general": None, "main": {"YXJQ-003": 1}, "reinforcements": {}}


@pytest.mark.parametrize("bad", ["a\x00b", "a\ud800b"])
@pytest.mark.parametrize(
    "where",
    ["name", "description", "tags", "note", "key"],
)
def test_nul_and_lone_surrogates_in_decks_json_are_refused(alice_client: Client, alice, bad: str, where: str) -> None:
    deck = {
        "name": _deck(name=bad),
        "description": _deck(description=bad),
        "tags": _deck(tags=["ok", bad]),
        "note": _deck(versions=[{"number": 1, "note": bad, "snapshot": SNAPSHOT}]),
        "key": _deck(main={bad: 1}),
    }[where]
    response = alice_client.post("/decks/archive/", {"file": _archive([deck])})
    assert response.status_code == 400
    html = response.content.decode()
    assert ("NUL" in html) if "\x00" in bad else ("surrogate" in html)
    assert not Deck.objects.filter(owner=alice).exists()


@pytest.mark.parametrize("number", [2**40, 0, -1, "1", 1.5])
def test_a_version_number_out_of_range_is_refused(alice_client: Client, alice, number: object) -> None:
    deck = _deck(versions=[{"number": number, "note": "", "snapshot": SNAPSHOT}])
    response = alice_client.post("/decks/archive/", {"file": _archive([deck])})
    assert response.status_code == 400 and "a version needs a number from 1 to 1,000,000" in response.content.decode()
    assert not DeckVersion.objects.filter(deck__owner=alice).exists()


def test_an_upload_keeps_the_newest_twenty_versions_of_each_deck(alice_client: Client, alice) -> None:
    versions = [{"number": n, "note": "", "snapshot": SNAPSHOT | {"name": f"v{n}"}} for n in range(1, 311)]
    response = alice_client.post("/decks/archive/", {"file": _archive([_deck(versions=versions)] * 3)})
    assert response.status_code == 302, response.content.decode()[:500]
    for deck in Deck.objects.filter(owner=alice):
        numbers = sorted(deck.versions.values_list("number", flat=True))
        assert numbers[:20] == list(range(291, 311)) and len(numbers) <= archive.MAX_VERSIONS + 1


def test_more_than_five_hundred_decks_are_refused(alice_client: Client, alice) -> None:
    response = alice_client.post("/decks/archive/", {"file": _archive([_deck()] * 501)})
    assert response.status_code == 400 and "At most 500 decks" in response.content.decode()
    assert not Deck.objects.filter(owner=alice).exists()


def test_ten_uploads_an_hour(alice_client: Client, alice, bob_client: Client) -> None:
    for _ in range(archive.UPLOADS_PER_HOUR.count):
        assert alice_client.post("/decks/archive/", {"file": _archive([_deck()])}).status_code == 302
    refused = alice_client.post("/decks/archive/", {"file": _archive([_deck()])})
    assert refused.status_code == 429 and int(refused["Retry-After"]) > 0
    assert "At most 10 uploads an hour" in refused.content.decode()
    assert Deck.objects.filter(owner=alice).count() == 10
    assert bob_client.post("/decks/archive/", {"file": _archive([_deck()])}).status_code == 302  # per user


@pytest.mark.parametrize(
    ("url", "body"),
    [
        (f"/api/cards/{WD_CARD}/proposals/", {"facts": {"text": "造成\ud800傷害"}, "note": "x"}),
        (f"/api/cards/{WD_CARD}/proposals/", {"facts": {"text": "ok"}, "note": "\ud800"}),
        ("/api/decks/", {"name": "\udfff", "general": "WJ-001", "cards": []}),
        ("/api/legality/", {"list": "武將: 劉備\n3 新兵\ud800"}),
        ("/api/legality/", {"list": "3 新兵", "\ud800": 1}),
        ("/api/decks/", {"name": "a\u0000b", "general": "WJ-001", "cards": []}),
    ],
)
def test_a_lone_surrogate_or_nul_in_an_api_body_is_a_400(alice_client: Client, url: str, body: dict) -> None:
    # json.dumps writes a lone surrogate as the escape \ud800, as a broken client would send it.
    response = alice_client.post(url, json.dumps(body), content_type="application/json")
    assert response.status_code == 400, response.content[:300]
    message = json.dumps(response.json())
    assert "surrogate" in message or "NUL" in message
    assert not Proposal.objects.exists() and not Deck.objects.exists()


# --- amplification: an answer is at most 4× its list plus 16 KB -------------------------------

HOSTILE_LISTS = {
    "one unknown card, repeated": "3 zz\n" * 13_000,
    "one-letter lines": "z\n" * 32_000,
    "distinct unknown names": "".join(f"{chr(0x4E00 + i)}{chr(0x4E00 + i // 7)}\n" for i in range(9_000)),
    "unreadable controls": "3 \x01\n" * 16_000,
    "counts alone": "3\n" * 32_000,
    "every other line": "".join("3 zz\n" if i % 2 else "\n" for i in range(20_000)),
    "long lines": ("x" * 201 + "\n") * 300,
}


@pytest.mark.parametrize("name", HOSTILE_LISTS)
def test_the_legality_api_answers_at_most_four_times_its_input(client: Client, name: str) -> None:
    text = HOSTILE_LISTS[name]
    size = len(text.encode())
    assert size <= 64 * 1024
    response = client.post("/api/legality/", {"list": text}, content_type="application/json")
    assert response.status_code == 200
    assert len(response.content) <= 4 * size + 16 * 1024, (name, len(response.content))
    data = response.json()
    assert data["legal"] is False and len(data["problems"]) <= MAX_LISTED_PROBLEMS
    listed = len(data["problems"]) + data["problems_omitted"]
    assert listed >= 1


@pytest.mark.parametrize("name", HOSTILE_LISTS)
def test_the_checker_page_answers_at_most_four_times_its_input(client: Client, name: str) -> None:
    text = HOSTILE_LISTS[name]
    response = client.post("/check/", {"list": text, "format": "standard"})
    assert response.status_code == 200
    base = len(client.get("/check/").content)  # the page around the verdict
    assert len(response.content) - base <= 4 * len(text.encode()) + 16 * 1024, (name, len(response.content))


def test_problems_of_one_reason_are_one_problem_with_its_lines() -> None:
    from decks.legality import check_list

    _parsed, verdict = check_list("3 zz\n3 新兵\n3 zz\n3 zz\n3 zz\n\n1 ???\n3\n3\n")
    unknown = [p for p in verdict.problems if p.code == "unknown_card"]
    assert [p.lines for p in unknown] == [(1, 3, 4, 5), (7,)]
    assert unknown[0].message_en == "Lines 1, 3–5: No card called 'zz'."
    assert unknown[0].message == "第 1、3–5 行：找不到卡牌「zz」。"
    counts = [p for p in verdict.problems if p.code == "unreadable_line"]
    assert [p.lines for p in counts] == [(8, 9)]


# --- check many: bounded by what the work costs -----------------------------------------------


def _files(count: int, content: bytes) -> list[SimpleUploadedFile]:
    return [SimpleUploadedFile(f"{i:03d}.txt", content) for i in range(count)]


def test_anonymous_check_many_takes_fifty_lists(client: Client, alice_client: Client) -> None:
    refused = client.post("/check/many/", {"files": _files(51, LEGAL_40.encode()), "format": "standard"})
    assert refused.status_code == 413 and "At most 50 files" in refused.content.decode()
    signed_in = alice_client.post("/check/many/", {"files": _files(51, LEGAL_40.encode()), "format": "standard"})
    assert signed_in.status_code == 200 and signed_in.content.decode().count('<tr class="legal">') == 51


def test_anonymous_check_many_takes_five_thousand_lines(client: Client) -> None:
    # The probe's worst case, within the file count: 40 files of 64 KiB of `3 zz`.
    files = _files(40, b"3 zz\n" * 13_000)
    refused = client.post("/check/many/", {"files": files, "format": "standard"})
    assert refused.status_code == 413
    html = refused.content.decode()
    assert "520,040 lines" in html and "at most 5,000" in html


def test_signed_in_check_many_takes_fifty_thousand_lines(alice_client: Client) -> None:
    files = _files(4, b"3 zz\n" * 13_000)
    refused = alice_client.post("/check/many/", {"files": files, "format": "standard"})
    assert refused.status_code == 413 and "at most 50,000" in refused.content.decode()


def test_the_worst_batch_within_the_bounds_answers_a_small_page(client: Client, alice_client: Client) -> None:
    """50 files of 100 unreadable lines each (5,000 lines, the anonymous bound): each list
    reports its first problems and how many more; the page stays small."""
    broken = "".join(f"3 zz{i}\n" for i in range(99)).encode()
    response = client.post("/check/many/", {"files": _files(50, broken), "format": "standard"})
    assert response.status_code == 200
    html = response.content.decode()
    assert html.count('<tr class="illegal">') == 50
    assert html.count('data-code="unknown_card"') == 50 * batch.PROBLEMS_PER_LIST
    assert html.count("more problems") == 50
    assert len(response.content) < 400_000
    csv_answer = client.post("/check/many/", {"files": _files(50, broken), "format": "standard", "as_csv": "on"})
    assert csv_answer.status_code == 200 and csv_answer.content.decode("utf-8-sig").count("more") == 50


def test_check_many_stops_at_its_time_budget(client: Client, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(batch, "ANONYMOUS", batch.BatchLimits(files=50, lines=5_000, seconds=0.0))
    monkeypatch.setattr(batch.time, "monotonic", iter(range(1000)).__next__)  # a second per list
    response = client.post("/check/many/", {"files": _files(3, LEGAL_40.encode()), "format": "standard"})
    assert response.status_code == 413 and "more than 0 seconds" in response.content.decode()


# --- feeds escape what users wrote --------------------------------------------------------------

PAYLOAD = "<script>alert(1)</script><img src=x onerror=alert(1)>"


def test_feeds_send_user_text_as_text(alice, charlie) -> None:
    proposal = propose(alice, text=PAYLOAD, note=f"seen at {PAYLOAD}")
    contributions.approve(proposal.pk, charlie)
    for url in (f"/cards/{WD_CARD}/history/feed/", "/changes/feed/"):
        response = Client().get(url)
        assert response.status_code == 200
        root = ET.fromstring(response.content)
        summaries = [e for e in root.iter("{http://www.w3.org/2005/Atom}summary")]
        assert summaries
        for summary in summaries:
            html = summary.text or ""  # what a feed reader renders as HTML
            assert "<script" not in html and "<img" not in html and "onerror=alert(1)>" not in html.replace("&gt;", "")
            assert "&lt;script&gt;" in html


def test_a_builders_feed_sends_deck_names_and_descriptions_as_text(alice) -> None:
    make_deck(alice, name=PAYLOAD, public=True, description=f"**{PAYLOAD}**")
    response = Client().get("/u/alice/feed/")
    root = ET.fromstring(response.content)
    atom = "{http://www.w3.org/2005/Atom}"
    texts = [e.text or "" for tag in ("title", "summary") for e in root.iter(atom + tag)]
    assert any("&lt;script&gt;" in t or "<script>" in t for t in texts)  # the name, as text in XML
    summaries = [e.text or "" for e in root.iter(atom + "summary")]
    assert summaries and all("<script" not in s and "onerror" not in s for s in summaries)  # sanitised HTML


# --- a kill between the commit and the files ----------------------------------------------------


class Killed(BaseException):
    """What kill -9 does to the work: nothing after this point runs."""


def _die() -> None:
    raise Killed


def test_a_kill_mid_approval_leaves_no_public_file_and_cleanmedia_repairs(alice, charlie, media_root: Path) -> None:
    proposal = propose(alice, cost="3")
    contributions.add_photo(proposal.pk, alice, "front", io.BytesIO(picture_bytes("JPEG", (300, 420))))
    with pause_at(images.FILES_PAUSE, _die), pytest.raises(Killed), TestCase.captureOnCommitCallbacks(execute=True):
        contributions.approve(proposal.pk, charlie)
    # The database is whole: approved, the card changed, the picture's row committed...
    proposal.refresh_from_db()
    picture = CardImage.objects.get(card__code=WD_CARD)
    assert proposal.status == "approved" and Card.objects.get(code=WD_CARD).cost == 3
    # ...and nothing is in the public folder yet; the private photo is still there.
    assert stored_files(media_root) == []
    assert proposal.photos.get().image.storage.exists(proposal.photos.get().image.name)
    out = io.StringIO()
    call_command("cleanmedia", stdout=out)
    assert "1 pictures written again" in out.getvalue()
    assert sorted(stored_files(media_root)) == sorted(picture.files())
    assert not proposal.photos.get().image.storage.exists(proposal.photos.get().image.name)


def test_a_rolled_back_approval_writes_no_file_and_a_reject_leaves_none(
    alice, charlie, media_root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    proposal = propose(alice, cost="3")
    contributions.add_photo(proposal.pk, alice, "front", io.BytesIO(picture_bytes("JPEG", (300, 420))))

    def fail(*args: object, **kwargs: object) -> None:
        raise RuntimeError("the database went away")

    with monkeypatch.context() as patched:
        patched.setattr(Proposal, "save", fail)
        with pytest.raises(RuntimeError), TestCase.captureOnCommitCallbacks(execute=True):
            contributions.approve(proposal.pk, charlie)
    assert stored_files(media_root) == [] and not CardImage.objects.exists()
    with TestCase.captureOnCommitCallbacks(execute=True):
        contributions.reject(proposal.pk, charlie, "not this printing")
    assert stored_files(media_root) == []


def test_cleanmedia_deletes_files_nothing_refers_to(alice, media_root: Path) -> None:
    stray = media_root / "cards" / "999" / "front-0123456789abcdef.webp"
    stray.parent.mkdir(parents=True)
    stray.write_bytes(picture_bytes("WEBP"))
    with TestCase.captureOnCommitCallbacks(execute=True):
        images.store(
            CardImage(card=Card.objects.get(code="WJ-001")), images.clean_upload(io.BytesIO(picture_bytes("PNG")))
        )
    kept = CardImage.objects.get().files()
    out = io.StringIO()
    call_command("cleanmedia", stdout=out)
    assert not stray.exists() and sorted(stored_files(media_root)) == sorted(kept)
    assert "1 unreferenced files deleted" in out.getvalue()


# --- 429 in the schema --------------------------------------------------------------------------


def test_every_throttled_operation_documents_429_with_retry_after(client: Client) -> None:
    schema = client.get("/api/schema/?format=json").json()
    operations = [
        (path, method, operation)
        for path, methods in schema["paths"].items()
        for method, operation in methods.items()
        if isinstance(operation, dict) and "responses" in operation
    ]
    assert len(operations) > 30
    for path, method, operation in operations:
        throttled = operation["responses"].get("429")
        assert throttled is not None, (method, path)
        assert "Retry-After" in throttled.get("headers", {}), (method, path)


def test_a_throttled_call_answers_as_documented(client: Client, monkeypatch: pytest.MonkeyPatch) -> None:
    from rest_framework.throttling import SimpleRateThrottle

    monkeypatch.setitem(SimpleRateThrottle.THROTTLE_RATES, "anon", "2/minute")
    statuses = [client.get("/api/sets/").status_code for _ in range(2)]
    throttled = client.get("/api/sets/")
    assert statuses == [200, 200] and throttled.status_code == 429 and int(throttled["Retry-After"]) >= 0


# --- the deck filter named format ---------------------------------------------------------------


def test_format_in_a_query_is_the_decks_format_not_a_renderer(client: Client, alice) -> None:
    own(alice, YXJQ_003=1)
    classic = make_deck(alice, name="經典", fmt="classic", public=True)
    make_deck(alice, name="標準", fmt="standard", public=True)
    response = client.get("/api/decks/?public=1&format=classic")
    assert response.status_code == 200
    assert [d["id"] for d in response.json()["results"]] == [classic.pk]
    assert client.get("/api/proposals/?format=null").status_code in (200, 401, 403)


# --- the worst case of each bounded route stays within 100 MB ----------------------------------


def _peak_megabytes(work) -> float:
    import tracemalloc

    tracemalloc.start()
    try:
        work()
        return tracemalloc.get_traced_memory()[1] / 1e6
    finally:
        tracemalloc.stop()


def test_the_worst_anonymous_requests_stay_within_their_memory_bound(client: Client) -> None:
    """What the probe sent (40 files of 64 KiB of `3 zz`: +327 MB before), the largest batch an
    anonymous reader may send, and 64 KiB of unreadable lines to the API and the page: each
    peaks well under 100 MB, because the bounds refuse or group the work before it is done."""
    worst = {
        "refused batch": lambda: client.post(
            "/check/many/", {"files": _files(40, b"3 zz\n" * 13_000), "format": "standard"}
        ),
        "largest batch": lambda: client.post(
            "/check/many/", {"files": _files(50, "".join(f"3 zz{i}\n" for i in range(99)).encode())}
        ),
        "api": lambda: client.post("/api/legality/", {"list": "3 zz\n" * 13_000}, content_type="application/json"),
        "page": lambda: client.post("/check/", {"list": "3 zz\n" * 13_000, "format": "standard"}),
    }
    for name, work in worst.items():
        assert _peak_megabytes(work) < 100, name


def test_two_lists_of_one_name_are_each_checked(client: Client) -> None:
    files = [SimpleUploadedFile("a.txt", LEGAL_40.encode()), SimpleUploadedFile("a.txt", b"3 zz\n")]
    html = client.post("/check/many/", {"files": files, "format": "standard"}).content.decode()
    assert html.count('<tr class="legal">') == 1 and html.count('<tr class="illegal">') == 1
