"""The shopping list over several decks, and all my decks as a zip: download, upload, round trip."""

from __future__ import annotations

import io
import json
import zipfile

import pytest
from django.test import Client

from collection.models import WishlistEntry
from decks.models import Deck
from decks.services import change_entry, set_built, set_tags
from tests.conftest import logged_in
from tests.support.collection_helpers import own
from tests.support.deck_helpers import make_deck

pytestmark = pytest.mark.django_db


# --- shopping list -------------------------------------------------------------------------------


def test_the_shopping_list_sums_the_decks_and_subtracts_what_is_available(alice_client: Client, alice, bob) -> None:
    own(alice, YXJQ_003=(2, 1), YXJQ_004=1, WJ_001=1)
    a = make_deck(alice, name="甲", main={"YXJQ-003": 3, "YXJQ-004": 2}, general="WJ-001")
    b = make_deck(alice, name="乙", main={"YXJQ-003": 2}, general="WJ-001")
    public = make_deck(bob, name="丙", main={"YXJQ-005": 1}, general=None, public=True)
    # A built deck not chosen holds one copy of 新兵 away from the list.
    set_built(make_deck(alice, name="已組", main={"YXJQ-003": 1}, general=None), True)
    WishlistEntry.objects.create(user=alice, card_id=a.entries.get(card__code="YXJQ-004").card_id, wanted=1)
    query = f"?deck={a.pk}&deck={b.pk}&deck={public.pk}"
    page = alice_client.get("/decks/shopping/" + query)
    assert page.status_code == 200
    html = page.content.decode()
    # 新兵: 5 needed, 3 owned − 1 in 已組 = 2 available → 3; 羽林內醫: 2 − 1 → 1; 劉備: 2 − 1 → 1;
    # 丙's 1 card → 1.
    text = alice_client.get("/decks/shopping/" + query + "&output=text").content.decode()
    expected = ["3 新兵 (YXJQ-003)", "1 羽林內醫 (YXJQ-004)", f"1 {_name('YXJQ-005')} (YXJQ-005)", "1 劉備 (WJ-001)"]
    assert sorted(text.splitlines()) == sorted(expected)
    assert "已組 用了 1 張" in html
    csv = alice_client.get("/decks/shopping/" + query + "&output=csv").content.decode("utf-8-sig")
    assert csv.splitlines()[0] == "code,name,needed,available,missing"
    assert "YXJQ-003,新兵,5,2,3" in csv
    # With the wishlist, its wanted copies add to the decks'.
    with_wish = alice_client.get("/decks/shopping/" + query + "&wishlist=1&output=csv").content.decode("utf-8-sig")
    assert "YXJQ-004,羽林內醫,3,1,2" in with_wish
    # Add all to the wishlist: never lowers what it already wants.
    alice_client.post("/decks/shopping/want/", {"deck": [a.pk, b.pk, public.pk]})
    wanted = {w.card.code: w.wanted for w in WishlistEntry.objects.filter(user=alice).select_related("card")}
    assert wanted == {"YXJQ-003": 3, "YXJQ-004": 1, "YXJQ-005": 1, "WJ-001": 1}


def _name(code: str) -> str:
    from catalog.models import Card

    return Card.objects.get(code=code).name


def test_the_shopping_list_refuses_other_peoples_private_decks_and_bad_ids(alice_client: Client, bob) -> None:
    private = make_deck(bob, name="秘密")
    assert alice_client.get(f"/decks/shopping/?deck={private.pk}").status_code == 404
    assert alice_client.get("/decks/shopping/?deck=abc").status_code == 404
    assert alice_client.get("/decks/shopping/?deck=99999999999999999999999").status_code == 404
    assert alice_client.post("/decks/shopping/want/", {"deck": [private.pk]}).status_code == 404
    assert alice_client.get("/decks/shopping/").status_code == 200


# --- download and upload all my decks --------------------------------------------------------


def _zip(files: dict[str, bytes | str]) -> io.BytesIO:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, content in files.items():
            archive.writestr(name, content)
    buffer.seek(0)
    buffer.name = "decks.zip"
    return buffer


def _comparable(user) -> list[tuple]:
    out = []
    for deck in Deck.objects.filter(owner=user).order_by("name"):
        entries = sorted((e.card.code, e.section, e.count) for e in deck.entries.select_related("card"))
        versions = [(v.number, v.snapshot) for v in deck.versions.order_by("number")]
        tags = sorted(t.name for t in deck.tags.all())
        out.append(
            (
                deck.name,
                deck.format,
                deck.general_id,
                deck.description,
                deck.public,
                deck.archived,
                deck.built,
                entries,
                tags,
                versions,
            )
        )
    return out


def test_download_then_upload_into_an_empty_account_gives_the_same_decks(alice_client: Client, alice, bob) -> None:
    first = make_deck(alice, name="蜀漢步兵", main={"YXJQ-003": 3}, reinforcements={"YXJQ-002": 1}, public=True)
    change_entry(first, "YXJQ-004", delta=2)
    first.description = "**快攻**"
    first.save()
    set_tags(first, ["比賽", "快攻"])
    set_built(first, True)
    make_deck(alice, name="a/b: weird*name", main={"YXJQ-005": 2}, general=None)
    own(alice, YXJQ_003=2)
    download = alice_client.get("/decks/archive/decks.zip")
    assert download.status_code == 200 and download["Content-Type"] == "application/zip"
    archive = zipfile.ZipFile(io.BytesIO(download.content))
    names = archive.namelist()
    assert "decks.json" in names and len([n for n in names if n.endswith(".txt")]) == 2
    assert all(".." not in n and "/" not in n.removeprefix("decks/") for n in names)
    bob_client = logged_in(bob)
    upload = io.BytesIO(download.content)
    upload.name = "mine.zip"
    answer = bob_client.post("/decks/archive/", {"file": upload})
    assert answer.status_code == 302, answer.content.decode()[:2000]
    assert _comparable(bob) == _comparable(alice)
    # Uploading again adds beside, never replaces.
    upload.seek(0)
    bob_client.post("/decks/archive/", {"file": upload})
    assert Deck.objects.filter(owner=bob).count() == 4


def test_everything_holds_the_collection_and_the_wishlist(alice_client: Client, alice) -> None:
    own(alice, YXJQ_003=2)
    make_deck(alice)
    alice_client.post("/collection/wanted/YXJQ-004/", {"wanted": 2})
    archive = zipfile.ZipFile(io.BytesIO(alice_client.get("/decks/archive/everything.zip").content))
    assert {"decks.json", "collection.csv", "wishlist.csv"} <= set(archive.namelist())
    assert "YXJQ-003" in archive.read("collection.csv").decode("utf-8-sig")
    assert "YXJQ-004" in archive.read("wishlist.csv").decode("utf-8-sig")


def test_plain_txt_lists_are_added_as_decks(alice_client: Client, alice) -> None:
    answer = alice_client.post(
        "/decks/archive/", {"file": _zip({"001 紅.txt": "3 新兵\n2 羽林內醫\n", "藍.txt": "1 YXJQ-005\n"})}
    )
    assert answer.status_code == 302
    assert sorted(Deck.objects.filter(owner=alice).values_list("name", flat=True)) == ["紅", "藍"]


@pytest.mark.parametrize(
    "files, problem",
    [
        ({"decks.json": "not json"}, "decks.json"),
        ({"decks.json": json.dumps({"kind": "other", "decks": []})}, "decks.json"),
        (
            {
                "decks.json": json.dumps(
                    {
                        "kind": "zongheng-deckbox-decks",
                        "decks": [{"name": "好", "main": {"YXJQ-003": 2}}, {"name": "壞", "main": {"NOPE-1": 1}}],
                    }
                )
            },
            "壞",
        ),
        (
            {
                "decks.json": json.dumps(
                    {"kind": "zongheng-deckbox-decks", "decks": [{"name": "好", "main": {"YXJQ-003": 10**9}}]}
                )
            },
            "YXJQ-003",
        ),
        (
            {
                "decks.json": json.dumps(
                    {"kind": "zongheng-deckbox-decks", "decks": [{"name": "好", "tags": ["x" * 40]}]}
                )
            },
            "好",
        ),
        (
            {
                "decks.json": json.dumps(
                    {
                        "kind": "zongheng-deckbox-decks",
                        "decks": [
                            {
                                "name": "好",
                                "versions": [{"number": 1, "snapshot": {"name": "好", "main": {"YXJQ-003": "3"}}}],
                            }
                        ],
                    }
                )
            },
            "好",
        ),
        ({"good.txt": "3 新兵\n", "bad.txt": "3 不存在的牌\n"}, "bad.txt"),
        ({"readme.md": "hello"}, ".txt"),
    ],
)
def test_a_bad_upload_lists_its_problems_and_adds_nothing(alice_client: Client, alice, files, problem) -> None:
    make_deck(alice, name="原有")
    answer = alice_client.post("/decks/archive/", {"file": _zip(files)})
    assert answer.status_code == 400
    assert problem in answer.content.decode()
    assert list(Deck.objects.filter(owner=alice).values_list("name", flat=True)) == ["原有"]


def test_garbage_and_oversized_uploads_are_refused(alice_client: Client, alice) -> None:
    garbage = io.BytesIO(b"\x00\x01 not a zip")
    garbage.name = "x.zip"
    assert alice_client.post("/decks/archive/", {"file": garbage}).status_code == 400
    assert alice_client.post("/decks/archive/", {}).status_code == 400
    assert not Deck.objects.filter(owner=alice).exists()


def test_each_user_downloads_only_their_own(alice, bob) -> None:
    make_deck(alice, name="艾莉絲的")
    own(alice, YXJQ_003=2)
    archive = zipfile.ZipFile(io.BytesIO(logged_in(bob).get("/decks/archive/everything.zip").content))
    assert json.loads(archive.read("decks.json"))["decks"] == []
    assert "YXJQ-003" not in archive.read("collection.csv").decode("utf-8-sig")
    assert not [n for n in archive.namelist() if n.endswith(".txt")]
