"""The deck API: build a legal deck, read, change, delete; visibility; legality, missing, export."""

from __future__ import annotations

import json

import pytest
from django.test import Client

from decks.models import Deck
from decks.services import snapshot_of
from tests.support.collection_helpers import own
from tests.support.deck_helpers import LEGAL_MAIN, make_deck
from tests.support.decklists import LEGAL_40

pytestmark = pytest.mark.django_db


def send(client: Client, method: str, url: str, payload: object):
    return getattr(client, method)(url, json.dumps(payload), content_type="application/json")


def test_build_a_legal_deck_through_the_api(alice_client: Client, alice) -> None:
    cards = [{"card": code, "count": n} for code, n in LEGAL_MAIN.items()]
    response = send(alice_client, "post", "/api/decks/", {"name": "API 牌庫", "general": "liubei", "cards": cards})
    assert response.status_code == 201, response.json()
    data = response.json()
    assert data["legal"] is True and data["main_deck_count"] == 40 and data["general"] == "WJ-001"
    assert set(data) >= {
        "id",
        "name",
        "format",
        "general",
        "cards",
        "reinforcements",
        "description",
        "visibility",
        "public",
        "created",
        "updated",
        "deck_code",
    }
    deck = Deck.objects.get(pk=data["id"])
    assert deck.owner == alice and snapshot_of(deck).main == LEGAL_MAIN
    assert alice_client.get(f"/api/decks/{deck.pk}/legality/").json()["legal"] is True


def test_post_accepts_a_list_or_a_deck_code_and_card_aliases(alice_client: Client) -> None:
    by_list = send(alice_client, "post", "/api/decks/", {"name": "由牌表", "list": LEGAL_40}).json()
    assert by_list["legal"] is True
    by_code = send(alice_client, "post", "/api/decks/", {"name": "由代碼", "deck_code": by_list["deck_code"]}).json()
    assert by_code["cards"] == by_list["cards"] and by_code["deck_code"] == by_list["deck_code"]
    aliased = send(alice_client, "post", "/api/decks/", {"name": "別名", "cards": [{"card": "wd1", "count": 2}]}).json()
    assert aliased["cards"] == [{"card": "五道·001", "count": 2}] and aliased["legal"] is False


@pytest.mark.parametrize(
    "payload",
    [
        {},
        {"name": "x", "cards": [{"card": "NOPE", "count": 1}]},
        {"name": "x", "cards": [{"card": "YXJQ-003", "count": 0}]},
        {"name": "x", "cards": [{"card": "YXJQ-003", "count": 1000}]},
        {"name": "x", "general": "GHOST"},
        {"name": "x", "list": "3 不存在"},
        {"name": "x", "deck_code": "!!!"},
        {"name": "x", "list": "3 新兵", "cards": []},
        {"name": 5},
        {"name": "x", "format": "vintage"},
        {"name": "x\x00"},
    ],
)
def test_bad_input_is_400_and_creates_nothing(alice_client: Client, alice, payload: dict) -> None:
    response = send(alice_client, "post", "/api/decks/", payload)
    assert response.status_code == 400, response.json()
    assert not Deck.objects.filter(owner=alice).exists()


def test_put_patch_delete_are_for_the_owner_only(alice_client: Client, alice, bob_client: Client) -> None:
    deck = make_deck(alice, public=True)
    patched = send(alice_client, "patch", f"/api/decks/{deck.pk}/", {"name": "改名", "visibility": "private"}).json()
    assert (
        patched["name"] == "改名"
        and patched["public"] is False
        and patched["visibility"] == "private"
        and len(patched["cards"]) == len(LEGAL_MAIN)
    )
    replaced = send(
        alice_client, "put", f"/api/decks/{deck.pk}/", {"name": "重來", "cards": [{"card": "YXJQ-003", "count": 3}]}
    ).json()
    assert replaced["cards"] == [{"card": "YXJQ-003", "count": 3}] and replaced["general"] is None
    assert send(bob_client, "patch", f"/api/decks/{deck.pk}/", {"name": "bob"}).status_code == 404  # private now
    deck.public = True
    deck.save()
    assert send(bob_client, "patch", f"/api/decks/{deck.pk}/", {"name": "bob"}).status_code == 403
    assert bob_client.delete(f"/api/decks/{deck.pk}/").status_code == 403
    assert send(Client(), "patch", f"/api/decks/{deck.pk}/", {"name": "anon"}).status_code == 401
    assert alice_client.delete(f"/api/decks/{deck.pk}/").status_code == 204
    assert not Deck.objects.filter(pk=deck.pk).exists()


def test_visibility_in_the_api(alice, bob_client: Client) -> None:
    private = make_deck(alice, name="私人")
    public = make_deck(alice, name="公開", public=True)
    anonymous = Client()
    assert anonymous.get(f"/api/decks/{private.pk}/").status_code == 404
    assert anonymous.get(f"/api/decks/{public.pk}/").status_code == 200
    assert [d["name"] for d in anonymous.get("/api/decks/").json()["results"]] == ["公開"]
    assert bob_client.get("/api/decks/").json()["results"] == []  # bob's own decks: none
    assert [d["name"] for d in bob_client.get("/api/decks/?public=1").json()["results"]] == ["公開"]
    assert send(anonymous, "post", "/api/decks/", {"name": "x"}).status_code == 401


def test_missing_and_export(alice_client: Client, alice) -> None:
    deck = make_deck(alice, main={"YXJQ-003": 3})
    own(alice, YXJQ_003=1)
    assert alice_client.get(f"/api/decks/{deck.pk}/missing/").json()["missing"][0]["missing"] == 2
    assert Client().get(f"/api/decks/{deck.pk}/missing/").status_code == 401
    exported = alice_client.get(f"/api/decks/{deck.pk}/export/").json()
    assert "3 新兵 (YXJQ-003)" in exported["text"] and exported["deck_code"]


def test_the_public_deck_list_pages_by_keyset(client, alice) -> None:
    from tests.support.deck_helpers import make_deck

    for i in range(7):
        make_deck(alice, name=f"公開{i}", public=True)
    first = client.get("/api/decks/?public=1&page_size=3").json()
    assert "count" not in first and len(first["results"]) == 3 and "cursor=" in first["next"]
    second = client.get(first["next"].replace("http://testserver", "")).json()
    third = client.get(second["next"].replace("http://testserver", "")).json()
    names = [d["name"] for page in (first, second, third) for d in page["results"]]
    assert sorted(names) == sorted(f"公開{i}" for i in range(7)) and third["next"] is None
    assert first["results"][0]["cards"]  # each deck with its entries
    bad = client.get("/api/decks/?public=1&cursor=bz1hYmM")  # "o=abc": not a position
    assert bad.status_code == 400 and "cursor" in bad.json()


def test_the_public_deck_page_stops_at_a_bounded_page_number(client) -> None:
    from django.utils import translation

    with translation.override("en"):
        response = client.get("/decks/?page=51", HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 200 and 'class="error-box"' in response.content.decode()
