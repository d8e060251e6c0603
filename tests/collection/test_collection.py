"""The collection: counts by page, htmx and API; limits; completion; trade list and sharing;
history and undo; and that one user never reaches another's data."""

from __future__ import annotations

import json
import re
from urllib.parse import unquote

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from catalog.models import Card
from collection.models import CollectionChange, CollectionEntry, WishlistEntry
from collection.queries import completion
from tests.support.collection_helpers import own

# Messages are read in English here; tests/site_wide/test_i18n.py covers the other languages.
pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("english")]


def counts(user, code: str) -> tuple[int, int]:
    entry = CollectionEntry.objects.filter(user=user, card__code=code).first()
    return (entry.quantity, entry.foil_quantity) if entry else (0, 0)


# --- pages and htmx ------------------------------------------------------------------------


def test_plus_one_by_a_plain_form_returns_to_the_page(alice_client: Client, alice) -> None:
    response = alice_client.post("/collection/cards/YXJQ-003/", {"action": "inc", "next": "/cards/?q=新兵"})
    assert response.status_code == 302 and unquote(response["Location"]) == "/cards/?q=新兵"
    alice_client.post("/collection/cards/YXJQ-003/", {"action": "inc"})
    alice_client.post("/collection/cards/YXJQ-003/", {"action": "inc_foil"})
    alice_client.post("/collection/cards/YXJQ-003/", {"action": "dec"})
    assert counts(alice, "YXJQ-003") == (1, 1)


def test_a_foreign_next_is_not_followed(alice_client: Client) -> None:
    response = alice_client.post("/collection/cards/YXJQ-003/", {"action": "inc", "next": "https://evil.example/"})
    assert response["Location"] == "/cards/YXJQ-003/"


def test_htmx_plus_one_returns_the_new_counter(alice_client: Client, alice) -> None:
    response = alice_client.post("/collection/cards/WD-001/", {"action": "inc", "compact": "1"}, HTTP_HX_REQUEST="true")
    html = response.content.decode()
    assert response.status_code == 200 and "<html" not in html
    assert 'data-owned="1"' in html and 'class="counter compact"' in html
    assert counts(alice, "五道·001") == (1, 0)


def test_set_counts_by_form(alice_client: Client, alice) -> None:
    alice_client.post("/collection/cards/YXJQ-003/", {"action": "set", "quantity": "7", "foil_quantity": "2"})
    assert counts(alice, "YXJQ-003") == (7, 2)
    alice_client.post("/collection/cards/YXJQ-003/", {"action": "set", "foil_quantity": "0"})
    assert counts(alice, "YXJQ-003") == (7, 0)


@pytest.mark.parametrize(
    "data",
    [
        {"action": "dec"},
        {"action": "set", "quantity": "10000"},
        {"action": "set", "quantity": "-1"},
        {"action": "set", "quantity": "abc"},
        {"action": "explode"},
        {"action": "set"},
        {"action": "set", "quantity": "1\x00"},
    ],
)
def test_bad_changes_are_400_with_a_message_and_change_nothing(alice_client: Client, alice, data: dict) -> None:
    own(alice, YXJQ_004=0)
    for htmx in (False, True):
        extra = {"HTTP_HX_REQUEST": "true"} if htmx else {}
        response = alice_client.post("/collection/cards/YXJQ-004/", data, **extra)
        assert response.status_code == 400
        assert 'class="error' in response.content.decode()
    assert counts(alice, "YXJQ-004") == (0, 0)


def test_more_than_9999_is_refused_with_a_clear_message(alice_client: Client, alice) -> None:
    own(alice, YXJQ_003=9999)
    response = alice_client.post("/collection/cards/YXJQ-003/", {"action": "inc"})
    assert response.status_code == 400 and "9,999" in response.content.decode()
    assert counts(alice, "YXJQ-003") == (9999, 0)


def test_changes_need_login_post_and_csrf(client: Client, alice) -> None:
    assert client.post("/collection/cards/YXJQ-003/", {"action": "inc"}).status_code == 302  # to log in
    strict = Client(enforce_csrf_checks=True)
    strict.force_login(alice)
    assert strict.post("/collection/cards/YXJQ-003/", {"action": "inc"}).status_code == 403
    assert strict.get("/collection/cards/YXJQ-003/").status_code == 405
    assert counts(alice, "YXJQ-003") == (0, 0)


def test_unknown_card_is_404(alice_client: Client) -> None:
    assert alice_client.post("/collection/cards/NOPE-1/", {"action": "inc"}).status_code == 404


def test_card_list_and_card_page_show_my_counts(alice_client: Client, alice, client: Client) -> None:
    own(alice, YXJQ_003=(3, 1))
    html = alice_client.get("/cards/?q=新兵").content.decode()
    assert 'data-owned="3"' in html and 'data-foil="1"' in html
    assert 'data-owned="3"' in alice_client.get("/cards/YXJQ-003/").content.decode()
    assert "data-owned" not in client.get("/cards/?q=新兵").content.decode()  # anonymous: no counters


def test_card_list_with_counts_costs_the_same_queries_at_any_size(alice_client: Client, alice) -> None:
    own(alice, YXJQ_003=3, YXJQ_004=1, WJ_001=1)
    found = []
    for url in ("/cards/?set=YXJQ&kind=tactic", "/cards/"):
        with CaptureQueriesContext(connection) as ctx:
            alice_client.get(url)
        found.append(len(ctx.captured_queries))
    assert found[0] == found[1]


def test_my_collection_page_filters_and_totals(alice_client: Client, alice) -> None:
    own(alice, YXJQ_003=(3, 1), YXJQ_001=2, WJ_001=1, YXJQ_004=0)
    html = alice_client.get("/collection/").content.decode()
    assert "3 different cards" in html or "3 種" in html
    assert "6 copies" in html or "6 張" in html
    assert '<span class="code">YXJQ-004</span>' not in html  # 0 copies: not owned
    tactics = alice_client.get("/collection/?kind=tactic").content.decode()
    assert '<span class="code">YXJQ-001</span>' in tactics and '<span class="code">YXJQ-003</span>' not in tactics
    assert alice_client.get("/collection/?kind=bogus").status_code == 400


# --- API ---------------------------------------------------------------------------------------


def api(client: Client, method: str, url: str, payload: object | None = None):
    body = json.dumps(payload) if payload is not None else None
    return getattr(client, method)(url, body, content_type="application/json") if body else getattr(client, method)(url)


def test_api_anonymous_gets_401(client: Client) -> None:
    for method, url in (
        ("get", "/api/collection/"),
        ("get", "/api/collection/stats/"),
        ("get", "/api/collection/YXJQ-003/"),
    ):
        assert api(client, method, url).status_code == 401
    assert api(client, "patch", "/api/collection/YXJQ-003/", {"add": 1}).status_code == 401


def test_api_read_and_write(alice_client: Client, alice) -> None:
    assert api(alice_client, "get", "/api/collection/YXJQ-003/").json() == {
        "card": "YXJQ-003",
        "name": "新兵",
        "set": "YXJQ",
        "quantity": 0,
        "foil_quantity": 0,
    }
    assert (
        api(alice_client, "put", "/api/collection/YXJQ-003/", {"quantity": 4, "foil_quantity": 1}).json()["quantity"]
        == 4
    )
    assert api(alice_client, "patch", "/api/collection/yxjq3/", {"add": -2, "add_foil": 2}).json()["foil_quantity"] == 3
    assert counts(alice, "YXJQ-003") == (2, 3)
    listing = api(alice_client, "get", "/api/collection/").json()
    assert [(e["card"], e["quantity"]) for e in listing["results"]] == [("YXJQ-003", 2)]
    assert api(alice_client, "get", "/api/collection/?kind=general").json()["count"] == 0


@pytest.mark.parametrize(
    "payload",
    [
        {"add": -1},
        {"quantity": 10000},
        {"quantity": -1},
        {"add": 1, "quantity": 2},
        {},
        {"quantity": "many"},
        {"add": 10**20},
        {"quantity": None},
    ],
)
def test_api_bad_writes_are_400_and_change_nothing(alice_client: Client, alice, payload: dict) -> None:
    response = (
        api(alice_client, "patch", "/api/collection/YXJQ-003/", payload)
        if payload
        else alice_client.patch("/api/collection/YXJQ-003/", "{}", content_type="application/json")
    )
    assert response.status_code == 400
    assert counts(alice, "YXJQ-003") == (0, 0)


def test_api_unknown_card_is_404(alice_client: Client) -> None:
    assert api(alice_client, "patch", "/api/collection/NOPE/", {"add": 1}).status_code == 404


def test_api_stats(alice_client: Client, alice) -> None:
    own(alice, YXJQ_003=3, YXJQ_004=1, WJ_001=1)
    stats = {s["set"]: s for s in api(alice_client, "get", "/api/collection/stats/").json()}
    assert stats["YXJQ"]["overall"] == {"total": 27, "owned": 3, "playsets": 2}
    assert stats["LSHJ"]["overall"]["owned"] == 0


# --- completion, missing, trade ------------------------------------------------------------------


def test_completion_on_a_known_small_collection(alice) -> None:
    # 新兵 3 (a playset), 羽林內醫 2 + 1 foil (a playset: foils count), 要塞守軍 1 (owned, no playset),
    # 劉備 1 (a general: 1 is a playset), 戰影 (silver) 3.
    own(alice, YXJQ_003=3, YXJQ_004=(2, 1), YXJQ_005=1, WJ_001=1, YXJQ_016=3)
    result = {c.set.code: c for c in completion(alice)}["YXJQ"]
    assert (result.overall.total, result.overall.owned, result.overall.playsets) == (27, 5, 4)
    bronze, silver = result.by_tier["bronze"], result.by_tier["silver"]
    assert (bronze.owned, bronze.playsets) == (3, 2)
    assert (silver.owned, silver.playsets) == (2, 2)  # 劉備 and 戰影 are silver
    assert result.overall.owned_percent == 19


def test_completion_page_draws_bars(alice_client: Client, alice) -> None:
    own(alice, YXJQ_003=3)
    html = alice_client.get("/collection/completion/").content.decode()
    assert 'class="bar"' in html and "1 / 27" in html and "/collection/missing/YXJQ/" in html


def test_missing_view_lists_what_a_playset_lacks(alice_client: Client, alice) -> None:
    own(alice, YXJQ_003=3, YXJQ_004=1)
    html = alice_client.get("/collection/missing/yxjq/").content.decode()
    assert "YXJQ-003" not in html.split("<tbody>")[1]  # complete
    assert '<td class="num">1</td><td class="num missing">2</td>' in html  # 羽林內醫: 1 owned, 2 missing
    assert alice_client.get("/collection/missing/NOPE/").status_code == 404


def test_trade_list_and_wishlist(alice_client: Client, alice) -> None:
    own(alice, YXJQ_003=(4, 1), WJ_001=2, YXJQ_004=3)
    alice_client.post("/collection/wanted/LSHJ-008/", {"wanted": "2"})
    html = alice_client.get("/collection/trade/").content.decode()
    spares_part = html.split("<section><h2>")[1]
    assert "YXJQ-003" in spares_part and '<td class="num">2</td>' in spares_part  # 5 - 3
    assert "WJ-001" in spares_part  # 2 - 1
    assert "YXJQ-004" not in spares_part  # exactly a playset
    assert WishlistEntry.objects.get(user=alice, card__code="LSHJ-008").wanted == 2
    alice_client.post("/collection/wanted/LSHJ-008/", {"wanted": "0"})
    assert not WishlistEntry.objects.filter(user=alice).exists()
    assert alice_client.post("/collection/wanted/LSHJ-008/", {"wanted": "-3"}).status_code == 400


def test_the_shared_link_shows_only_trades_and_stops_when_turned_off(
    alice_client: Client, alice, client: Client
) -> None:
    own(alice, YXJQ_003=5, YXJQ_004=1)
    alice_client.post("/collection/wanted/LSHJ-008/", {"wanted": "1"})
    alice_client.post("/accounts/sharing/", {"action": "on"})
    token = alice.share_link.token
    html = client.get(f"/share/{token}/").content.decode()
    assert "YXJQ-003" in html and "LSHJ-008" in html
    assert "YXJQ-004" not in html  # not spare: the rest of the collection stays private
    alice_client.post("/accounts/sharing/", {"action": "off"})
    assert client.get(f"/share/{token}/").status_code == 404
    alice_client.post("/accounts/sharing/", {"action": "new"})
    alice.share_link.refresh_from_db()
    assert client.get(f"/share/{token}/").status_code == 404
    assert client.get(f"/share/{alice.share_link.token}/").status_code == 200
    assert client.get("/share/guess/").status_code == 404


# --- history and undo ---------------------------------------------------------------------------


def test_every_change_is_recorded_and_can_be_undone(alice_client: Client, alice) -> None:
    alice_client.post("/collection/cards/YXJQ-003/", {"action": "set", "quantity": "3"})
    alice_client.post("/collection/cards/YXJQ-003/", {"action": "inc_foil"})
    changes = list(CollectionChange.objects.filter(user=alice))
    assert [(c.quantity_before, c.quantity_after, c.foil_before, c.foil_after) for c in changes] == [
        (3, 3, 0, 1),
        (0, 3, 0, 0),
    ]
    html = alice_client.get("/collection/history/").content.decode()
    assert ("0 → 3" in html and "Undo" in html) or "復原" in html
    first = changes[1]
    assert alice_client.post(f"/collection/history/{first.pk}/undo/", {"confirm": "yes"}).status_code == 302
    assert counts(alice, "YXJQ-003") == (0, 1)  # the later foil stays
    assert (
        alice_client.post(f"/collection/history/{first.pk}/undo/", {"confirm": "yes"}).status_code == 400
    )  # already undone
    assert CollectionChange.objects.filter(user=alice, source="undo").count() == 1


def test_undo_that_would_go_below_zero_is_refused(alice_client: Client, alice) -> None:
    alice_client.post("/collection/cards/YXJQ-003/", {"action": "set", "quantity": "0"})
    own(alice, YXJQ_003=2)
    change = CollectionChange.objects.filter(user=alice).first()
    own(alice, YXJQ_003=0)
    assert alice_client.post(f"/collection/history/{change.pk}/undo/", {"confirm": "yes"}).status_code == 400
    assert counts(alice, "YXJQ-003") == (0, 0)


# --- one user never reaches another's data ----------------------------------------------------


def test_bob_never_sees_or_changes_alices_collection(alice_client: Client, alice, bob_client: Client, bob) -> None:
    own(alice, YXJQ_003=3, WJ_001=(1, 1))
    change = CollectionChange.objects.filter(user=alice).first()
    assert bob_client.post(f"/collection/history/{change.pk}/undo/", {"confirm": "yes"}).status_code == 404
    for url in (
        "/collection/",
        "/collection/history/",
        "/collection/trade/",
        "/collection/export.csv",
        "/api/collection/",
    ):
        pattern = r'[>"\n](YXJQ-003|WJ-001)[<",]'
        assert re.search(pattern, alice_client.get(url).content.decode("utf-8-sig")), url  # alice does see them
        body = bob_client.get(url).content.decode("utf-8-sig")
        # a code as data (a cell, a JSON string, a CSV field), not in the search box's example text
        assert not re.search(pattern, body), url
    assert bob_client.get("/api/collection/YXJQ-003/").json()["quantity"] == 0
    assert bob_client.get("/api/collection/stats/").json()[0]["overall"]["owned"] == 0
    assert counts(alice, "YXJQ-003") == (3, 0)


def test_cards_exist_for_counting() -> None:
    assert Card.objects.filter(code__in=["YXJQ-003", "WJ-001", "LSHJ-008"]).count() == 3


def test_my_collection_is_one_compact_row_a_card_with_labelled_steppers(alice_client: Client, alice) -> None:
    own(alice, YXJQ_003=(2, 1), YXJQ_001=1)
    html = alice_client.get("/collection/").content.decode()
    rows = html.split('<ul class="own-rows">', 1)[1].split("</ul>", 1)[0]
    assert rows.count("<li ") == 2 and "<table" not in rows
    # Each row: name, code, then − count + for copies and for foils, each group labelled.
    row = rows.split('<li id="card-', 2)[1]
    assert row.count('class="stepper') == 2 and row.count('class="count-label"') == 2
    assert row.index('value="dec"') < row.index('data-owned="') < row.index('value="inc"')
    assert row.index('value="dec_foil"') < row.index('data-foil="') < row.index('value="inc_foil"')
    # A live update answers the same row's counter.
    answer = alice_client.post("/collection/cards/YXJQ-003/", {"action": "inc", "compact": "1"}, HTTP_HX_REQUEST="true")
    assert 'data-owned="3"' in answer.content.decode() and answer.content.decode().count('class="stepper') == 2


def test_the_card_list_can_set_counts_in_place(alice_client: Client, alice) -> None:
    html = alice_client.get("/cards/?q=新兵").content.decode()
    assert 'name="quantity"' in html and 'value="set"' in html
    response = alice_client.post(
        "/collection/cards/YXJQ-003/", {"action": "set", "quantity": "5", "compact": "1"}, HTTP_HX_REQUEST="true"
    )
    assert 'data-owned="5"' in response.content.decode() and 'class="counter compact"' in response.content.decode()
    assert counts(alice, "YXJQ-003") == (5, 0)


def test_an_empty_collection_says_where_to_start_in_one_sentence(alice_client: Client) -> None:
    # One message with its links inside, so that each language orders it as it should.
    english = alice_client.get("/collection/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert 'add cards with + in the <a href="/cards/">catalogue</a>, or <a href="/collection/import/">import' in english
    chinese = alice_client.get("/collection/", HTTP_ACCEPT_LANGUAGE="zh-Hant").content.decode()
    assert (
        '還沒有卡牌：可在<a href="/cards/">卡牌目錄</a>按 + 加入，或<a href="/collection/import/">匯入 CSV 檔</a>。'
        in chinese
    )
