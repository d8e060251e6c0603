"""Decks: the builder (page, htmx, no JS), the verdict from rules_check, versions and diffs,
clone, import with bad lines, deck codes, missing cards, visibility, the registration sheet."""

from __future__ import annotations

import dataclasses
import re

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from collection.models import WishlistEntry
from decks import deckcode
from decks.api.checker import VerdictOutputSerializer
from decks.legality import check_list
from decks.models import Deck, VerdictState
from decks.services import snapshot_of
from tests.support.collection_helpers import own
from tests.support.deck_helpers import LEGAL_MAIN, make_deck

pytestmark = pytest.mark.django_db


def change(client: Client, deck: Deck, htmx: bool = True, **data: str):
    extra = {"HTTP_HX_REQUEST": "true"} if htmx else {}
    return client.post(f"/decks/{deck.pk}/change/", data, **extra)


# --- building ---------------------------------------------------------------------------------


def test_build_a_legal_deck_through_the_page(alice_client: Client, alice) -> None:
    response = alice_client.post("/decks/new/")
    deck = Deck.objects.get(owner=alice)
    assert response["Location"] == f"/decks/{deck.pk}/build/"
    html = alice_client.get(f"/decks/{deck.pk}/build/").content.decode()
    assert 'data-legal="false"' in html and 'id="builder-search"' in html and 'name="troop_class"' in html
    change(alice_client, deck, action="general", card="liubei")
    for code, count in LEGAL_MAIN.items():
        for _ in range(count):
            response = change(alice_client, deck, action="inc", card=code)
    html = response.content.decode()
    assert response.status_code == 200 and "<html" not in html  # the panel only, for htmx
    assert 'data-legal="true"' in html and "40" in html
    deck.refresh_from_db()
    assert deck.is_legal and deck.main_count == 40 and deck.general.code == "WJ-001"


def test_the_builder_works_without_javascript(alice_client: Client, alice) -> None:
    deck = make_deck(alice, main={"YXJQ-003": 2})
    response = change(alice_client, deck, htmx=False, action="inc", card="新兵")
    assert response.status_code == 302 and response["Location"] == f"/decks/{deck.pk}/build/"
    change(alice_client, deck, htmx=False, action="set", card="YXJQ-004", count="3")
    change(alice_client, deck, htmx=False, action="dec", card="YXJQ-004")
    assert snapshot_of(deck).main == {"YXJQ-003": 3, "YXJQ-004": 2}
    change(alice_client, deck, htmx=False, action="remove", card="YXJQ-003")
    assert snapshot_of(deck).main == {"YXJQ-004": 2}


def test_a_full_playset_in_one_tap_and_a_count_typed_in(alice_client: Client, alice) -> None:
    deck = make_deck(alice, main={"YXJQ-003": 1}, general=None)
    html = alice_client.get(f"/decks/{deck.pk}/build/?q=新兵").content.decode()
    assert 'name="action" value="playset"' in html and ">×3</button>" in html
    panel = change(alice_client, deck, action="playset", card="YXJQ-003")
    change(alice_client, deck, action="playset", card="羽林內醫")
    assert snapshot_of(deck).main == {"YXJQ-003": 3, "YXJQ-004": 3}
    # Each line's count is a field of its own form (Enter or leaving it sends action=set).
    line = re.search(r'<li class="[^"]*" data-code="YXJQ-003">.*?</li>', panel.content.decode(), re.S)
    assert line is not None
    count_form = re.search(r'<form[^>]*hx-trigger="change, submit"[^>]*>(.*?)</form>', line.group(0), re.S)
    assert count_form is not None
    assert 'name="action" value="set"' in count_form.group(1) and 'name="count" value="3"' in count_form.group(1)
    assert 'form="step-main-' in line.group(0)  # − and + belong to the other form
    change(alice_client, deck, action="set", card="YXJQ-003", count="2")
    assert snapshot_of(deck).main == {"YXJQ-003": 2, "YXJQ-004": 3}


def test_a_pasted_list_joins_the_deck_and_one_tap_undoes_it(alice_client: Client, alice, english) -> None:
    deck = make_deck(alice, main={"YXJQ-003": 1}, general=None)
    pasted = alice_client.post(
        f"/decks/{deck.pk}/paste/", {"text": "武將: 劉備\n2 新兵\n3 羽林內醫\n2 不存在的牌\n"}, HTTP_HX_REQUEST="true"
    )
    html = pasted.content.decode()
    assert pasted.status_code == 200 and "<html" not in html
    assert "5 cards of the list were added." in html and "不存在的牌" in html
    deck.refresh_from_db()
    data = snapshot_of(deck)
    assert data.main == {"YXJQ-003": 3, "YXJQ-004": 3} and data.general == "WJ-001"
    undo = re.search(r'action="(/decks/\d+/history/(\d+)/restore/)"', html)
    assert undo is not None
    back = alice_client.post(undo.group(1), {"confirm": "yes", "to": "build"})
    assert back.status_code == 302 and back["Location"] == f"/decks/{deck.pk}/build/"
    deck.refresh_from_db()
    data = snapshot_of(deck)
    assert data.main == {"YXJQ-003": 1} and data.general is None
    # Without JavaScript: the builder shows the same, once.
    plain = alice_client.post(f"/decks/{deck.pk}/paste/", {"text": "1 新兵"})
    assert plain.status_code == 302
    page = alice_client.get(plain["Location"]).content.decode()
    assert "1 card of the list was added." in page and "Undo the paste" in page
    assert "Undo the paste" not in alice_client.get(plain["Location"]).content.decode()
    nothing = alice_client.post(f"/decks/{deck.pk}/paste/", {"text": "2 不存在的牌"}, HTTP_HX_REQUEST="true")
    assert nothing.status_code == 400 and "No card of the list could be read." in nothing.content.decode()
    assert snapshot_of(deck).main == {"YXJQ-003": 2}


def test_the_general_list_shows_the_general_a_search_result_chose(alice_client: Client, alice) -> None:
    deck = make_deck(alice, main={"YXJQ-003": 1}, general=None)
    panel = change(alice_client, deck, action="general", card="WJ-001").content.decode()
    chosen = re.search(r'<option value="([^"]+)" selected>', panel)
    assert chosen is not None and chosen.group(1) == "WJ-001"


def test_illegal_counts_are_stored_as_given_and_the_verdict_says_why(alice_client: Client, alice) -> None:
    deck = make_deck(alice, main=LEGAL_MAIN | {"YXJQ-003": 5, "YJ-001": 1})
    assert snapshot_of(deck).main["YXJQ-003"] == 5
    html = alice_client.get(f"/decks/{deck.pk}/").content.decode()
    assert 'data-code="too_many_copies"' in html and 'data-code="reinforcement_in_deck"' in html
    assert '<li class="bad" data-code="YXJQ-003">' in html  # the cards concerned are highlighted


def test_the_verdict_matches_rules_check_on_the_same_list(alice_client: Client, alice) -> None:
    deck = make_deck(alice, main=LEGAL_MAIN | {"YXJQ-003": 4, "WJ-002": 1})
    text = alice_client.get(f"/decks/{deck.pk}/export.txt").content.decode()
    _parsed, verdict = check_list(text)
    api = alice_client.get(f"/api/decks/{deck.pk}/legality/").json()
    # the same verdict; only the text list has line numbers to give
    assert {k: v for k, v in api.items() if k != "problems"} == {
        k: v for k, v in VerdictOutputSerializer(verdict).data.items() if k != "problems"
    }
    assert [(p["code"], p["cards"], p["message"]) for p in api["problems"]] == [
        (p.code, list(p.cards), re.sub(r"^第 [\d、]+ 行：", "", p.message)) for p in verdict.problems
    ]
    page = alice_client.get(f"/decks/{deck.pk}/").content.decode()
    for problem in verdict.problems:
        assert f'data-code="{problem.code}"' in page


def _bar(html: str) -> str:
    # Whitespace as the browser shows it: one space for any run.
    return " ".join(html.split('<nav class="deck-bar"', 1)[1].split("</nav>", 1)[0].split())


def test_the_builder_bar_keeps_count_and_verdict_in_view_and_follows_every_tap(alice_client: Client, alice) -> None:
    deck = make_deck(alice)  # a legal 40-card deck
    page = alice_client.get(f"/decks/{deck.pk}/build/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    bar = _bar(page)
    assert 'data-count="40"' in bar and "✔ Legal · 40 cards" in bar
    # One tap from the deck to the search, one back.
    assert 'href="#builder-search"' in bar and 'id="builder-search"' in page and 'href="#deck-panel"' in bar
    answer = alice_client.post(
        f"/decks/{deck.pk}/change/",
        {"action": "dec", "card": "YXJQ-001"},
        HTTP_HX_REQUEST="true",
        HTTP_ACCEPT_LANGUAGE="en",
    )
    bar = _bar(answer.content.decode())
    assert 'data-count="39"' in bar and "✘ Not legal · 39 cards" in bar
    chinese = _bar(alice_client.get(f"/decks/{deck.pk}/build/", HTTP_ACCEPT_LANGUAGE="zh-Hant").content.decode())
    assert "✘ 不合法 · 39 張卡牌" in chinese


@pytest.mark.parametrize(
    "data",
    [
        {"action": "inc", "card": "NOPE"},
        {"action": "fly", "card": "YXJQ-003"},
        {"action": "set", "card": "YXJQ-003", "count": "1000"},
        {"action": "inc", "card": "x\x00"},
    ],
)
def test_bad_builder_input_is_400_and_changes_nothing(alice_client: Client, alice, data: dict) -> None:
    deck = make_deck(alice, main={"YXJQ-003": 2})
    before = snapshot_of(deck)
    for htmx in (True, False):
        assert change(alice_client, deck, htmx=htmx, **data).status_code == 400
    assert snapshot_of(deck) == before


def test_the_builder_update_costs_the_same_queries_whatever_the_deck_size(alice_client: Client, alice) -> None:
    small = make_deck(alice, main={"YXJQ-003": 1})
    big = make_deck(alice, main=LEGAL_MAIN | {f"五道·{n:03d}": 2 for n in range(1, 40)})
    counts = []
    change(alice_client, small, action="inc", card="YXJQ-017")  # the generals' cached list drawn once
    for deck in (small, big):
        with CaptureQueriesContext(connection) as ctx:
            assert change(alice_client, deck, action="inc", card="YXJQ-018").status_code == 200
        counts.append(len(ctx.captured_queries))
    assert counts[0] == counts[1], counts


def test_builder_search_uses_the_catalogue_search(alice_client: Client, alice) -> None:
    deck = make_deck(alice, main={})
    response = alice_client.get(
        f"/decks/{deck.pk}/build/",
        {"q": "class:騎兵 set:yxjq"},
        HTTP_HX_REQUEST="true",
        HTTP_HX_TARGET="search-results",
    )
    html = response.content.decode()
    assert "<html" not in html and "YXJQ-007" in html and "YXJQ-003" not in html
    assert 'value="general"' in html  # 曹操 is a cavalry general: offered as the general


def test_stats_and_cost_curve(alice_client: Client, alice) -> None:
    deck = make_deck(alice, main={"YXJQ-003": 3, "YXJQ-009": 2, "YXJQ-002": 1, "GMGD-001": 1})
    html = alice_client.get(f"/decks/{deck.pk}/").content.decode()
    assert '<svg class="curve"' in html and "<title>2: 3</title>" in html and "<title>6: 2</title>" in html
    assert "<title>1: 1</title>" in html
    assert "3.0" in html  # (2·3 + 6·2 + 1) / 6 known-cost cards = 3.17 → shown rounded
    assert "unknown cost" in html or "費用未知" in html
    # A curve is drawn once and remembered, per language: each page has its own words.
    english = alice_client.get(f"/decks/{deck.pk}/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    chinese = alice_client.get(f"/decks/{deck.pk}/", HTTP_ACCEPT_LANGUAGE="zh-Hant").content.decode()
    assert 'aria-label="Cost curve"' in english and 'aria-label="費用曲線"' in chinese


# --- collection --------------------------------------------------------------------------------


def test_owned_needed_and_missing_cards_to_the_wishlist(alice_client: Client, alice) -> None:
    deck = make_deck(alice, main={"YXJQ-003": 3, "YXJQ-004": 2, "YXJQ-005": 1})
    own(alice, YXJQ_003=(1, 1), YXJQ_005=4)  # foils count as owned
    html = alice_client.get(f"/decks/{deck.pk}/").content.decode()
    assert "</span> 2/3<" in html and "</span> 0/2<" in html and "</span> 4/1<" in html
    api = alice_client.get(f"/api/decks/{deck.pk}/missing/").json()
    assert api == {
        "missing": [
            {"card": "YXJQ-003", "name": "新兵", "needed": 3, "owned": 2, "missing": 1},
            {"card": "YXJQ-004", "name": "羽林內醫", "needed": 2, "owned": 0, "missing": 2},
            # The general is a card to own too.
            {"card": "WJ-001", "name": "劉備", "needed": 1, "owned": 0, "missing": 1},
        ]
    }
    alice_client.post(f"/decks/{deck.pk}/want-missing/")
    wanted = {w.card.code: w.wanted for w in WishlistEntry.objects.filter(user=alice).select_related("card")}
    assert wanted == {"YXJQ-003": 1, "YXJQ-004": 2, "WJ-001": 1}


# --- versions, clone -------------------------------------------------------------------------


def test_every_save_keeps_a_version_with_a_diff_and_restore(alice_client: Client, alice) -> None:
    deck = make_deck(alice, main={"YXJQ-003": 3, "YXJQ-004": 2})
    alice_client.post(f"/decks/{deck.pk}/build/", {"name": "第二版", "format": "classic", "description": ""})
    change(alice_client, deck, action="inc", card="YXJQ-005")
    change(alice_client, deck, action="remove", card="YXJQ-004")
    change(alice_client, deck, action="inc", card="YXJQ-003")
    numbers = list(deck.versions.values_list("number", flat=True))
    assert numbers == [3, 2, 1]  # builder clicks share one autosaved version
    html = alice_client.get(f"/decks/{deck.pk}/history/?a=1&b=3").content.decode()
    assert '<li class="added" data-code="YXJQ-005">' in html
    assert '<li class="removed" data-code="YXJQ-004">' in html
    assert '<li class="changed" data-code="YXJQ-003"> 3 → 4' in " ".join(html.split())
    assert "第二版" in html
    alice_client.post(f"/decks/{deck.pk}/history/1/restore/", {"confirm": "yes"})
    assert snapshot_of(deck).main == {"YXJQ-003": 3, "YXJQ-004": 2}
    deck.refresh_from_db()
    assert deck.format == "standard" and deck.versions.count() == 4
    assert alice_client.get(f"/decks/{deck.pk}/history/?a=1&b=99").status_code == 404
    assert alice_client.get(f"/decks/{deck.pk}/history/?a=x&b=1").status_code == 404


def test_clone_mine_and_a_public_deck(alice, bob_client: Client, bob) -> None:
    deck = make_deck(alice, public=True, main={"YXJQ-003": 2})
    response = bob_client.post(f"/decks/{deck.pk}/clone/")
    copy = Deck.objects.get(owner=bob)
    assert response["Location"] == f"/decks/{copy.pk}/build/"
    assert snapshot_of(copy).main == {"YXJQ-003": 2} and copy.public is False
    private = make_deck(alice, main={})
    assert bob_client.post(f"/decks/{private.pk}/clone/").status_code == 404


# --- import, export, deck codes ---------------------------------------------------------------


def test_import_with_bad_lines_keeps_the_rest_in_a_draft(alice_client: Client, alice) -> None:
    text = "武將: 劉備\n3 新兵\n2 不存在的卡\n3\n2 羽林内医\n"
    response = alice_client.post("/decks/import/", {"name": "匯入", "format": "standard", "text": text})
    deck = Deck.objects.get(owner=alice)
    assert response["Location"] == f"/decks/{deck.pk}/build/"
    assert snapshot_of(deck).main == {"YXJQ-003": 3, "YXJQ-004": 2} and deck.public is False
    html = alice_client.get(response["Location"]).content.decode()
    assert "不存在的卡" in html and ">Line</" not in html
    assert "3:" in html and "4:" in html  # the line numbers of the unread lines


def test_import_a_txt_file_and_garbage(alice_client: Client, alice) -> None:
    from django.core.files.uploadedfile import SimpleUploadedFile

    upload = SimpleUploadedFile("d.txt", "3 新兵\n".encode(), "text/plain")
    alice_client.post("/decks/import/", {"name": "檔案", "format": "standard", "file": upload})
    assert snapshot_of(Deck.objects.get(owner=alice)).main == {"YXJQ-003": 3}
    bad = SimpleUploadedFile("d.txt", b"\xff\xfe\x00", "text/plain")
    assert alice_client.post("/decks/import/", {"name": "x", "format": "standard", "file": bad}).status_code == 400
    assert alice_client.post("/decks/import/", {"name": "x", "format": "standard", "text": ""}).status_code == 400
    assert Deck.objects.filter(owner=alice).count() == 1


def test_deck_code_round_trip_and_stability(alice_client: Client, alice) -> None:
    deck = make_deck(alice, reinforcements={"YJ-001": 2})
    data = snapshot_of(deck)
    code = deckcode.encode(data.format, data.general, data.main, data.reinforcements)
    assert code == deckcode.encode(
        data.format, data.general, dict(reversed(list(data.main.items()))), data.reinforcements
    )
    assert len(code) < 80 and code.replace("-", "").replace("_", "").isalnum()
    decoded = deckcode.decode(code)
    assert (decoded.format, decoded.general, decoded.main, decoded.reinforcements) == (
        "standard",
        "WJ-001",
        data.main,
        data.reinforcements,
    )
    assert code in alice_client.get(f"/decks/{deck.pk}/").content.decode()
    alice_client.post("/decks/import/", {"name": "由代碼", "format": "classic", "text": code})
    copy = Deck.objects.get(owner=alice, name="由代碼")
    assert snapshot_of(copy).main == data.main and copy.format == "standard" and copy.general.code == "WJ-001"


@pytest.mark.parametrize("text", ["", "!!!", "AQ", "AgAA", "AQkA", "AQD_AQ", "A" * 3000, "AQD/AA"])
def test_bad_deck_codes_are_refused_with_a_message(text: str) -> None:
    with pytest.raises(deckcode.DeckCodeError):
        deckcode.decode(text)


def test_export_text_lists_the_general_first_and_round_trips(alice_client: Client, alice) -> None:
    deck = make_deck(alice, reinforcements={"YJ-001": 1})
    text = alice_client.get(f"/decks/{deck.pk}/export.txt").content.decode()
    assert text.splitlines()[2] == "武將: 劉備 (WJ-001)"
    parsed, verdict = check_list(text)
    assert verdict.legal and parsed.deck.totals()["main"] == LEGAL_MAIN


# --- visibility ----------------------------------------------------------------------------------


def test_private_decks_are_404_for_others_and_never_listed(alice, bob_client: Client, client: Client) -> None:
    private = make_deck(alice, name="秘密")
    public = make_deck(alice, name="公開", public=True)
    for url in (
        f"/decks/{private.pk}/",
        f"/decks/{private.pk}/history/",
        f"/decks/{private.pk}/export.txt",
        f"/decks/{private.pk}/sheet/",
        f"/api/decks/{private.pk}/",
        f"/api/decks/{private.pk}/legality/",
    ):
        assert bob_client.get(url).status_code == 404, url
        assert client.get(url).status_code in (401, 404), url
    assert bob_client.get(f"/decks/{private.pk}/build/").status_code == 404
    assert bob_client.post(f"/decks/{private.pk}/change/", {"action": "inc", "card": "YXJQ-003"}).status_code == 404
    assert bob_client.post(f"/decks/{public.pk}/change/", {"action": "inc", "card": "YXJQ-003"}).status_code == 404
    for c in (bob_client, client):
        assert c.get(f"/decks/{public.pk}/").status_code == 200
        listing = c.get("/decks/").content.decode()
        assert "公開" in listing and "秘密" not in listing
        api = c.get("/api/decks/").json()
        assert "秘密" not in str(api)
    assert "秘密" not in bob_client.get("/decks/mine/").content.decode()


def test_public_list_filters_and_sorting(alice, bob) -> None:
    make_deck(alice, name="劉備合法", public=True)
    make_deck(bob, name="曹操不合法", public=True, general="WJ-002", main={"YXJQ-003": 1})
    make_deck(bob, name="經典", public=True, general="WJ-003", fmt="classic", main={})
    client = Client()
    assert "劉備合法" in client.get("/decks/?legal=1").content.decode()
    assert "曹操不合法" not in client.get("/decks/?legal=1").content.decode()
    assert "曹操不合法" in client.get("/decks/?faction=wei").content.decode()
    assert "劉備合法" not in client.get("/decks/?faction=wei").content.decode()
    assert "經典" in client.get("/decks/?format=classic").content.decode()
    assert "經典" in client.get("/decks/?general=WJ-003").content.decode()
    newest = client.get("/decks/?sort=newest").content.decode()
    assert newest.index("經典") < newest.index("劉備合法")


def test_the_registration_sheet_holds_every_entry(alice_client: Client, alice) -> None:
    deck = make_deck(alice, reinforcements={"YJ-001": 1})
    html = alice_client.get(f"/decks/{deck.pk}/sheet/").content.decode()
    assert "@page" not in html and "sheet.css" in html
    for code, count in LEGAL_MAIN.items():
        assert f'<td class="num">{count}</td>' in html and f'<td class="code">{code}</td>' in html
    assert "WJ-001" in html and "YJ-001" in html and "40" in html


def test_description_markdown_is_rendered_safely(alice_client: Client, alice) -> None:
    deck = make_deck(alice)
    alice_client.post(
        f"/decks/{deck.pk}/build/",
        {
            "name": "x",
            "format": "standard",
            "description": "**強**\n\n<script>alert(1)</script> [a](javascript:alert(1)) <img src=x onerror=alert(1)>",
        },
    )
    html = alice_client.get(f"/decks/{deck.pk}/").content.decode()
    assert "<strong>強</strong>" in html
    assert "<script>alert" not in html and "javascript:" not in html and "onerror" not in html


def test_builder_search_takes_the_catalogue_filters_too(alice_client: Client, alice) -> None:
    deck = make_deck(alice, main={})
    response = alice_client.get(
        f"/decks/{deck.pk}/build/",
        {"set": "YXJQ", "kind": "tactic", "sort": "-cost"},
        HTTP_HX_REQUEST="true",
        HTTP_HX_TARGET="search-results",
    )
    html = response.content.decode()
    assert html.count('name="card"') == 4 and html.index("YXJQ-001") < html.index("YXJQ-002")  # cost 3 before 1


def test_a_deck_made_public_does_not_show_its_private_past(
    alice_client: Client, alice, bob_client: Client, english
) -> None:
    deck = make_deck(alice, name="秘密初稿")
    alice_client.post(f"/decks/{deck.pk}/build/", {"name": "公開版", "format": "standard", "visibility": "public"})
    html = bob_client.get(f"/decks/{deck.pk}/history/").content.decode()
    assert "公開版" in html and "秘密初稿" not in html
    assert bob_client.get(f"/decks/{deck.pk}/history/?a=1&b=2").status_code == 404  # v1 was private
    own_view = alice_client.get(f"/decks/{deck.pk}/history/").content.decode()
    assert "only you see it" in own_view
    alice_client.post(f"/decks/{deck.pk}/history/publish/")
    assert bob_client.get(f"/decks/{deck.pk}/history/?a=1&b=2").status_code == 200


def test_versions_saved_while_public_are_shown(alice_client: Client, alice, bob_client: Client) -> None:
    deck = make_deck(alice, public=True)
    alice_client.post(f"/decks/{deck.pk}/build/", {"name": "第二版", "format": "standard", "visibility": "public"})
    html = bob_client.get(f"/decks/{deck.pk}/history/").content.decode()
    assert "v1" in html and "v2" in html


def test_a_bad_public_list_filter_is_a_400_with_a_message(client: Client, english) -> None:
    response = client.get("/decks/?faction=atlantis")
    assert response.status_code == 400 and "Some filters are not valid" in response.content.decode()


def test_import_notes_name_each_line_once(alice_client: Client, english) -> None:
    response = alice_client.post(
        "/decks/import/", {"name": "x", "format": "standard", "text": "武將: 劉備\n3 新兵\n2 不存在的牌\n"}, follow=True
    )
    html = response.content.decode()
    assert html.count("Line 3") == 1 and "Line Line" not in html


def test_decks_check_themselves_again_when_the_catalogue_changes(
    client: Client, alice, django_capture_on_commit_callbacks
) -> None:
    from django.core.management import call_command

    from catalog import cache_version
    from catalog.models import Card

    deck = make_deck(alice, name="合法牌庫", public=True)
    assert "合法牌庫" in client.get("/decks/?legal=1").content.decode()
    # a correction in the catalogue: 新兵 turns out to be a general, which no deck may hold
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        Card.objects.filter(code="YXJQ-003").update(kind="general")
        cache_version.bump()
    # Until the change commits, nothing is checked again, and a reader's GET never does it.
    stamp = VerdictState.objects.filter(pk=1).values_list("catalog_version", flat=True).first()
    client.get("/decks/?legal=1")
    client.get("/api/decks/?public=1")
    assert VerdictState.objects.filter(pk=1).values_list("catalog_version", flat=True).first() == stamp
    for callback in callbacks:  # the commit: the refresh runs after the write that changed it
        callback()
    assert "合法牌庫" not in client.get("/decks/?legal=1").content.decode()
    assert not Deck.objects.get(pk=deck.pk).is_legal
    listed = next(d for d in client.get("/api/decks/?public=1").json()["results"] if d["id"] == deck.pk)
    assert listed["legal"] is False
    Card.objects.filter(code="YXJQ-003").update(kind="troop")
    cache_version.bump()
    call_command("refreshverdicts", verbosity=0)
    assert Deck.objects.get(pk=deck.pk).is_legal


def test_stored_verdicts_follow_a_change_of_a_formats_rules(alice, monkeypatch: pytest.MonkeyPatch, tmp_path) -> None:
    """formats.json edited (the standard format now needs 41 cards): the stamp changes, and
    `refreshverdicts` (run by make run and serve-prod) writes every kept verdict again."""
    import json as json_module

    from django.core.management import call_command

    from decks.services import verdict_stamp
    from rules_check import FORMATS
    from rules_check.formats import FORMATS_FILE, load_formats

    deck = make_deck(alice, name="四十張", public=True)
    call_command("refreshverdicts", verbosity=0)
    assert Deck.objects.get(pk=deck.pk).is_legal and deck.main_count == 40
    before = verdict_stamp()
    data = json_module.loads(FORMATS_FILE.read_text(encoding="utf-8"))
    data["standard"]["min_cards"] = 41
    edited = tmp_path / "formats.json"
    edited.write_text(json_module.dumps(data, ensure_ascii=False), encoding="utf-8")
    for name, fmt in load_formats(edited).items():
        monkeypatch.setitem(FORMATS, name, fmt)
    assert verdict_stamp() != before
    call_command("refreshverdicts", verbosity=0)
    assert not Deck.objects.get(pk=deck.pk).is_legal
    assert VerdictState.objects.get(pk=1).catalog_version == verdict_stamp()
    # a label is not a rule: renaming a format leaves the verdicts as they are
    stamp = verdict_stamp()
    monkeypatch.setitem(FORMATS, "standard", dataclasses.replace(FORMATS["standard"], label_en="Standard (2026)"))
    assert verdict_stamp() == stamp
