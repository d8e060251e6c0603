"""The deck list API takes the page's filters (decks.filters.DeckFilter, one FilterSet for both):
general, faction, tag and legal, on everyone's public decks, mine and a group's."""

from __future__ import annotations

import pytest
from django.test import Client

from catalog.models import Card
from decks import services
from tests.support.deck_helpers import make_deck

pytestmark = pytest.mark.django_db


def _names(client: Client, query: str) -> list[str]:
    answer = client.get(f"/api/decks/?{query}")
    assert answer.status_code == 200, answer.content
    return sorted(deck["name"] for deck in answer.json()["results"])


@pytest.fixture
def decks(alice):
    wei = Card.objects.filter(code__startswith="WJ-", faction="wei").order_by("code").first()
    assert wei is not None
    shu = make_deck(alice, name="蜀漢速攻", public=True)  # 劉備, legal
    services.set_flags(shu, {"tags": ["aggro"]})
    make_deck(alice, name="魏武精兵", public=True, general=wei.code)
    make_deck(alice, name="未完成", public=True, main={"YXJQ-003": 3})  # too few cards
    return wei


def test_the_page_s_filters_narrow_the_api_list_as_they_narrow_the_page(decks, alice_client: Client) -> None:
    anonymous = Client()
    assert _names(anonymous, "public=1") == ["未完成", "蜀漢速攻", "魏武精兵"]
    assert _names(anonymous, "public=1&faction=wei") == ["魏武精兵"]
    assert _names(anonymous, f"public=1&general={decks.code}") == ["魏武精兵"]
    assert _names(anonymous, "public=1&general=WJ-001") == ["未完成", "蜀漢速攻"]
    assert _names(anonymous, "public=1&tag=aggro") == ["蜀漢速攻"]
    assert _names(anonymous, "public=1&legal=1") == ["蜀漢速攻", "魏武精兵"]
    assert _names(anonymous, "public=1&legal=0") == ["未完成", "蜀漢速攻", "魏武精兵"]
    assert _names(alice_client, "faction=shu&legal=1") == ["蜀漢速攻"]  # my own decks, the same filters
    page = anonymous.get("/decks/?faction=wei").content.decode()
    assert "魏武精兵" in page and "蜀漢速攻" not in page  # the page, through the same FilterSet


@pytest.mark.parametrize(
    "query", ["faction=martian", "faction=", "legal=2", "legal=", "general=" + "x" * 61, "tag=" + "x" * 31]
)
def test_a_bad_filter_is_a_400_that_names_it(decks, query: str) -> None:
    answer = Client().get(f"/api/decks/?public=1&{query}")
    assert answer.status_code == 400
    assert query.split("=")[0] in answer.json()


def test_the_schema_documents_the_filters_from_the_filterset() -> None:
    schema = Client().get("/api/schema/?format=json").json()
    for path in ("/api/decks/", "/api/groups/{group_id}/decks/"):
        parameters = {p["name"]: p["schema"] for p in schema["paths"][path]["get"]["parameters"]}
        assert parameters["faction"]["enum"] == ["shu", "wei", "wu", "qun", "yuan"]
        assert parameters["general"]["maxLength"] == 60 and parameters["tag"]["maxLength"] == 30
        assert parameters["legal"]["enum"] == [0, 1]
