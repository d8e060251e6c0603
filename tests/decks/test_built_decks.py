"""Built (sleeved) decks take their copies from the owner's collection: available copies, who
holds the rest, over-commitment, and "buildable from my collection" with its fixed cost."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from catalog import cache_version
from collection.models import AllocatedCard, Allocation
from decks.models import Deck, VerdictState
from decks.services import change_entry, refresh_verdicts, set_built, set_tags, update_deck, verdict_stamp
from tests.conftest import logged_in
from tests.support.collection_helpers import own
from tests.support.deck_helpers import make_deck

pytestmark = pytest.mark.django_db


def held(deck: Deck) -> dict[str, int]:
    deck.refresh_from_db()
    assert deck.allocation is not None
    return {a.card.code: a.copies for a in AllocatedCard.objects.filter(allocation=deck.allocation)}


def test_a_built_deck_sets_its_cards_aside_general_and_reinforcements_included(alice) -> None:
    deck = make_deck(alice, main={"YXJQ-003": 3}, reinforcements={"YXJQ-002": 1}, general="WJ-001")
    assert not deck.built and not Allocation.objects.exists()
    set_built(deck, True)
    assert held(deck) == {"YXJQ-003": 3, "YXJQ-002": 1, "WJ-001": 1}
    # Every later save keeps the set-aside copies equal to the deck.
    change_entry(deck, "YXJQ-003", delta=-1)
    change_entry(deck, "YXJQ-004", delta=2)
    assert held(deck) == {"YXJQ-003": 2, "YXJQ-004": 2, "YXJQ-002": 1, "WJ-001": 1}
    set_built(deck, False)
    deck.refresh_from_db()
    assert not deck.built and not Allocation.objects.exists()


def test_deleting_a_built_deck_gives_its_copies_back(alice) -> None:
    deck = set_built(make_deck(alice, main={"YXJQ-003": 3}), True)
    assert Allocation.objects.count() == 1
    Deck.objects.filter(pk=deck.pk).delete()
    assert not Allocation.objects.exists() and not AllocatedCard.objects.exists()


def test_available_copies_are_owned_minus_other_built_decks_with_their_names(alice_client: Client, alice) -> None:
    own(alice, YXJQ_003=(2, 2), WJ_001=1)  # 4 copies of 新兵, foils count
    infantry = set_built(make_deck(alice, name="蜀漢步兵", main={"YXJQ-003": 2}, general=None), True)
    other = make_deck(alice, name="新牌庫", main={"YXJQ-003": 3}, general="WJ-001")
    html = alice_client.get(f"/decks/{other.pk}/").content.decode()
    # 4 owned − 2 in 蜀漢步兵 = 2 of the 3 wanted; the general is owned.
    assert "</span> 2/3<" in html and "蜀漢步兵 用了 2 張" in html
    api = alice_client.get(f"/api/decks/{other.pk}/missing/").json()["missing"]
    assert api == [{"card": "YXJQ-003", "name": "新兵", "needed": 3, "owned": 2, "missing": 1}]
    # The built deck itself uses its own copies: nothing is missing for it.
    assert alice_client.get(f"/api/decks/{infantry.pk}/missing/").json() == {"missing": []}
    # Wishlist gets the one copy really missing.
    alice_client.post(f"/decks/{other.pk}/want-missing/")
    assert alice.wishlist.get().wanted == 1


def test_over_commitment_shows_on_the_collection_card_page_and_each_deck(alice_client: Client, alice) -> None:
    own(alice, YXJQ_003=3)
    a = set_built(make_deck(alice, name="甲", main={"YXJQ-003": 2}, general=None), True)
    b = set_built(make_deck(alice, name="乙", main={"YXJQ-003": 2}, general=None), True)
    collection = alice_client.get("/collection/").content.decode()
    assert 'data-in-built="4"' in collection and "over-committed" in collection
    card = alice_client.get("/cards/YXJQ-003/").content.decode()
    assert 'data-in-built="4"' in card and "over-committed" in card
    for deck in (a, b):
        assert "over-committed" in alice_client.get(f"/decks/{deck.pk}/").content.decode()
    # Taking one deck apart ends it.
    set_built(b, False)
    assert "over-committed" not in alice_client.get("/collection/").content.decode()
    assert 'data-in-built="2"' in alice_client.get("/collection/").content.decode()


def test_built_and_tags_through_the_builder_settings_form(alice_client: Client, alice) -> None:
    own(alice, YXJQ_003=3, WJ_001=1)
    deck = make_deck(alice, main={"YXJQ-003": 3})
    form = {"name": deck.name, "format": "standard", "description": "", "built": "on", "tags": "比賽, testing，比賽"}
    assert alice_client.post(f"/decks/{deck.pk}/build/", form).status_code == 302
    deck.refresh_from_db()
    assert deck.built and sorted(t.name for t in deck.tags.all()) == ["testing", "比賽"]
    mine = alice_client.get("/decks/mine/?tag=比賽").content.decode()
    assert deck.name in mine
    assert deck.name not in alice_client.get("/decks/mine/?tag=other").content.decode()
    other = make_deck(alice, name="乙牌庫")
    set_tags(other, ["aaa"])
    make_deck(alice, name="無標籤")
    listed = alice_client.get("/decks/mine/?sort=tag").content.decode()
    assert listed.index("乙牌庫") < listed.index(deck.name) < listed.index("無標籤")  # aaa, testing, none
    too_long = form | {"tags": "x" * 31}
    assert alice_client.post(f"/decks/{deck.pk}/build/", too_long).status_code == 400


def test_archived_decks_are_listed_apart(alice_client: Client, alice) -> None:
    old = make_deck(alice, name="舊的牌庫")
    make_deck(alice, name="新的牌庫")

    def archive(current: Deck, data: object) -> None:
        current.archived = True

    update_deck(old, archive)
    assert "舊的牌庫" not in alice_client.get("/decks/mine/").content.decode()
    assert "舊的牌庫" in alice_client.get("/decks/mine/?archived=1").content.decode()


def test_the_api_reads_and_writes_built_tags_and_archived(alice_client: Client, alice, bob) -> None:
    deck = make_deck(alice, main={"YXJQ-003": 3})
    url = f"/api/decks/{deck.pk}/"
    got = alice_client.patch(url, {"built": True, "tags": ["蜀", "蜀", " 快攻 "]}, content_type="application/json")
    assert got.status_code == 200, got.content
    assert got.json()["built"] is True and got.json()["tags"] == ["快攻", "蜀"] and got.json()["archived"] is False
    assert held(deck)["YXJQ-003"] == 3
    bad = alice_client.patch(url, {"tags": ["x" * 31]}, content_type="application/json")
    assert bad.status_code == 400 and "tags" in bad.json()
    assert alice_client.patch(url, {"tags": "蜀"}, content_type="application/json").status_code == 400
    assert logged_in(bob).patch(url, {"built": False}, content_type="application/json").status_code == 404
    assert held(deck)["YXJQ-003"] == 3  # unchanged by the refused requests


# --- what can I build ------------------------------------------------------------------------


def test_buildable_and_the_owned_badge_count_every_copy(alice_client: Client, alice, bob) -> None:
    own(alice, YXJQ_003=3, YXJQ_004=(1, 1), WJ_001=1)
    full = make_deck(bob, name="全有", main={"YXJQ-003": 3, "YXJQ-004": 2}, general="WJ-001", public=True)
    short = make_deck(bob, name="差一張", main={"YXJQ-003": 3, "YXJQ-004": 3}, general="WJ-001", public=True)
    far = make_deck(bob, name="差很多", main={"YXJQ-005": 3}, general="WJ-002", public=True)
    # A deck needing more than the bits record (an illegal 5 copies) is counted exactly.
    over = make_deck(bob, name="五張", main={"YXJQ-003": 5}, general=None, public=True)
    listing = alice_client.get("/api/decks/?public=1&sort=missing").json()["results"]
    by_name = {d["name"]: (d["owned"], d["missing"]) for d in listing}
    assert by_name == {"全有": (6, 0), "差一張": (6, 1), "差很多": (0, 4), "五張": (3, 2)}
    assert [d["name"] for d in listing][:2] == ["全有", "差一張"]
    buildable = alice_client.get("/api/decks/?public=1&buildable=1").json()["results"]
    assert [d["id"] for d in buildable] == [full.pk]
    shares = [d["name"] for d in alice_client.get("/api/decks/?public=1&sort=-owned_share").json()["results"]]
    assert shares[0] == "全有" and shares[-1] == "差很多"
    page = alice_client.get("/decks/?buildable=1").content.decode()
    assert "全有" in page and "差一張" not in page and ">6/6<" in page
    assert {short.pk, far.pk, over.pk}  # listed above by name
    # A built deck of alice's takes her copies away from what she can build.
    set_built(make_deck(alice, name="我的", main={"YXJQ-004": 1}, general=None), True)
    assert alice_client.get("/api/decks/?public=1&buildable=1").json()["results"] == []


def test_a_fourth_copy_is_counted_in_the_bits_not_deck_by_deck(alice_client: Client, alice, bob) -> None:
    # The usual mistake of an illegal deck: its four copies are in the one pass over the bits.
    own(alice, YXJQ_003=3)
    four = make_deck(bob, name="四張", main={"YXJQ-003": 4}, general=None, public=True)
    assert four.needs_over is False and not four.is_legal
    listing = alice_client.get("/api/decks/?public=1&sort=missing").json()["results"]
    assert [(d["name"], d["owned"], d["missing"]) for d in listing] == [("四張", 3, 1)]
    own(alice, YXJQ_003=4)
    assert alice_client.get("/api/decks/?public=1&buildable=1").json()["results"][0]["id"] == four.pk


def test_decks_needing_more_copies_than_the_bits_say_are_counted_exactly(alice_client: Client, alice, bob) -> None:
    # Five copies and more: the bits count the first four, `needs_more` the rest.
    own(alice, YXJQ_003=3)
    for name, n in (("五張甲", 5), ("六張", 6), ("五張乙", 5)):
        deck = make_deck(bob, name=name, main={"YXJQ-003": n}, general=None, public=True)
        assert deck.needs_over and deck.needs_more == {str(deck.entries.get().card_id): n}

    def missing() -> list[tuple[str, int]]:
        listing = alice_client.get("/api/decks/?public=1&sort=missing").json()["results"]
        return sorted((d["name"], d["missing"]) for d in listing)

    assert missing() == [("五張乙", 2), ("五張甲", 2), ("六張", 3)]
    own(alice, YXJQ_003=5)  # more than the bits' four levels
    assert missing() == [("五張乙", 0), ("五張甲", 0), ("六張", 1)]
    buildable = alice_client.get("/api/decks/?public=1&buildable=1").json()["results"]
    assert sorted(d["name"] for d in buildable) == ["五張乙", "五張甲"]


def test_decks_written_for_another_bit_layout_are_encoded_again(alice_client: Client, alice, bob) -> None:
    own(alice, YXJQ_003=1)
    deck = make_deck(bob, name="舊", main={"YXJQ-003": 3}, general=None, public=True)
    fresh = deck.needs
    # As an earlier layout (three bits a card) left them: other bits, and a stamp without it.
    Deck.objects.filter(pk=deck.pk).update(needs="1" * 64)
    VerdictState.objects.update_or_create(pk=1, defaults={"catalog_version": cache_version.current()})
    assert refresh_verdicts() == 1
    deck.refresh_from_db()
    assert deck.needs == fresh and VerdictState.objects.get(pk=1).catalog_version == verdict_stamp()
    [listed] = alice_client.get("/api/decks/?public=1").json()["results"]
    assert (listed["owned"], listed["missing"]) == (1, 2)


def test_anonymous_readers_cannot_sort_by_a_collection(client: Client, bob) -> None:
    make_deck(bob, public=True)
    assert client.get("/api/decks/?public=1&sort=missing").status_code == 400
    assert client.get("/api/decks/?public=1&buildable=1").status_code == 400
    assert client.get("/api/decks/?public=1&sort=bogus").status_code == 400
    assert "owned" not in client.get("/api/decks/?public=1").json()["results"][0]
    assert client.get("/decks/?buildable=1&sort=missing").status_code == 200


def test_the_buildable_list_costs_the_same_queries_for_3_or_30_decks(alice_client: Client, alice, bob) -> None:
    own(alice, YXJQ_003=3)

    def count() -> int:
        with CaptureQueriesContext(connection) as queries:
            assert alice_client.get("/decks/?buildable=1&sort=missing").status_code == 200
        return len(queries)

    for n in range(3):
        make_deck(bob, name=f"d{n}", public=True, main={"YXJQ-003": 5})  # exact-checked decks too
    count()  # the first request of a session does a little more (the verdict state, the session)
    few = count()
    for n in range(27):
        make_deck(bob, name=f"e{n}", public=True, main={"YXJQ-003": 3 if n % 2 else 5})
    assert count() == few


@pytest.mark.parametrize("sort", ["missing", "-owned_share"])
def test_buildable_decks_sorted_by_what_i_own_come_newest_first(alice_client: Client, alice, bob, sort: str) -> None:
    # Every buildable deck misses nothing and owns it all: the order is the tie-breakers', the
    # last updated first, on the page and through the API.
    own(alice, YXJQ_003=3)
    older = make_deck(bob, name="舊的", main={"YXJQ-003": 2}, general=None, public=True)
    newer = make_deck(bob, name="新的", main={"YXJQ-003": 3}, general=None, public=True)
    make_deck(bob, name="缺的", main={"YXJQ-004": 1}, general=None, public=True)
    Deck.objects.filter(pk=older.pk).update(updated=newer.updated.replace(year=2020))
    api = alice_client.get(f"/api/decks/?public=1&buildable=1&sort={sort}").json()["results"]
    assert [d["name"] for d in api] == ["新的", "舊的"]
    page = alice_client.get(f"/decks/?buildable=1&sort={sort}").content.decode()
    assert page.index("新的") < page.index("舊的") and "缺的" not in page
    assert '<span class="own-share complete"' in page


def test_marking_a_deck_built_without_its_copies_says_so_first(alice_client: Client, alice, english) -> None:
    own(alice, YXJQ_003=1)
    deck = make_deck(alice, main={"YXJQ-003": 3, "YXJQ-004": 2}, general=None)
    form = {"name": deck.name, "format": "standard", "description": "", "built": "on", "tags": ""}
    asked = alice_client.post(f"/decks/{deck.pk}/build/", form)
    assert asked.status_code == 200
    assert "its 5 cards are set aside in your collection, and you lack 4 copies of them" in asked.content.decode()
    deck.refresh_from_db()
    assert not deck.built
    assert alice_client.post(f"/decks/{deck.pk}/build/", form | {"confirm": "yes"}).status_code == 302
    deck.refresh_from_db()
    assert deck.built
    # The collection says what built decks take that is not owned, and lists those cards.
    mine = alice_client.get("/collection/").content.decode()
    assert "Your built decks take 4 copies you do not own." in mine
    short = alice_client.get("/collection/?short=1").content.decode()
    assert "YXJQ-004" in short and "YXJQ-003" in short
    assert "YXJQ-004" not in mine.split('id="short-of-built"')[0]


def test_a_deck_whose_copies_are_all_owned_is_marked_built_at_once(alice_client: Client, alice) -> None:
    own(alice, YXJQ_003=3)
    deck = make_deck(alice, main={"YXJQ-003": 3}, general=None)
    form = {"name": deck.name, "format": "standard", "description": "", "built": "on", "tags": ""}
    assert alice_client.post(f"/decks/{deck.pk}/build/", form).status_code == 302
    assert "you do not own" not in alice_client.get("/collection/").content.decode()
