"""The catalogue API: fields and slugs as the glossary says, filters, paging, 400 and 404."""

from __future__ import annotations

import gzip
import json
import re

import pytest
from django.core.cache import cache
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from tests.support.catalogue import CARD_COUNT

pytestmark = pytest.mark.django_db

CARD_FIELDS = {
    "code",
    "name",
    "set",
    "kind",
    "cost",
    "cost_text",
    "power",
    "health",
    "life",
    "troop_class",
    "affiliation",
    "faction",
    "speed",
    "element",
    "tier",
    "stars",
    "text",
    "awakening",
}


def test_card_json_has_every_glossary_field_and_labels(client: Client) -> None:
    card = client.get("/api/cards/YXJQ-003/").json()
    assert set(card) >= CARD_FIELDS
    assert card["name"] == "新兵" and card["set"] == "YXJQ" and card["kind"] == "troop"
    assert (card["cost"], card["power"], card["health"], card["life"]) == (2, 1, 3, None)
    assert (card["troop_class"], card["tier"], card["stars"], card["rarity"]) == ("infantry", "bronze", 1, "銅★")
    assert card["labels"]["troop_class"] == {"zh": "步兵", "en": "Infantry"}
    assert card["labels"]["faction"] is None


def test_unknown_facts_are_null(client: Client) -> None:
    card = client.get("/api/cards/GMGD-022/").json()
    assert card["speed"] == "slow"
    assert card["cost"] is None and card["element"] is None and card["tier"] is None and card["rarity"] is None


def test_list_is_paginated_and_holds_all_cards(client: Client) -> None:
    page = client.get("/api/cards/").json()
    assert page["count"] == CARD_COUNT and len(page["results"]) == 50
    everything = client.get("/api/cards/?page_size=500").json()
    assert len(everything["results"]) == CARD_COUNT and everything["next"] is None


@pytest.mark.parametrize("size", ["0", "501", "abc", "-3", "99999999999999999999"])
def test_bad_page_size_is_400(client: Client, size: str) -> None:
    response = client.get(f"/api/cards/?page_size={size}")
    assert response.status_code == 400
    assert "page_size" in response.json()


@pytest.mark.parametrize(
    ("query", "count"),
    [
        ("set=LSHJ", 34),
        ("kind=general&faction=wei", 6),
        ("troop_class=cavalry&set=YXJQ", 5),
        ("tier=silver&stars=2", 8),
        ("cost_max=1", 3),
        ("speed=slow&element=earth", 2),
        ("q=刘备", 1),
        ("q=lb", 2),  # 劉備 liu bei and 呂布 lü bu,
    ],
)
def test_filters_match_the_page(client: Client, query: str, count: int) -> None:
    assert client.get(f"/api/cards/?{query}").json()["count"] == count


@pytest.mark.parametrize("query", ["kind=spell", "stars=0", "cost=x", "sort=bogus", "faction=han", "q=%00"])
def test_bad_filter_values_are_400_naming_the_field(client: Client, query: str) -> None:
    response = client.get(f"/api/cards/?{query}")
    assert response.status_code == 400
    assert query.split("=")[0] in response.json()


@pytest.mark.parametrize("alias", ["WD-001", "wd1", "五道·001", "%E4%BA%94%E9%81%93%C2%B7001", "wd-001"])
def test_card_aliases(client: Client, alias: str) -> None:
    response = client.get(f"/api/cards/{alias}/")
    assert response.status_code == 200
    assert response.json()["code"] == "五道·001"


@pytest.mark.parametrize("code", ["YXJQ-099", "nothing", "%00", "9" * 300])
def test_unknown_codes_are_404_with_a_message(client: Client, code: str) -> None:
    response = client.get(f"/api/cards/{code}/")
    assert response.status_code == 404
    assert "detail" in response.json()


def test_sets(client: Client) -> None:
    sets = client.get("/api/sets/").json()
    assert [(s["code"], s["card_count"]) for s in sets] == [("YXJQ", 27), ("LSHJ", 34), ("GMGD", 40), ("WD", 112)]
    assert client.get("/api/sets/gmgd/").json()["name"] == "詭謀官渡"
    assert client.get("/api/sets/XX/").status_code == 404


def test_api_list_costs_the_same_queries_at_any_page_size(client: Client) -> None:
    counts = []
    for size in (5, 500):
        cache.clear()  # each measured cold: the catalogue's indexes are rebuilt in both
        with CaptureQueriesContext(connection) as ctx:
            assert client.get(f"/api/cards/?page_size={size}").status_code == 200
        counts.append(len(ctx.captured_queries))
    assert counts[0] == counts[1]


def test_schema_and_docs_are_served_without_a_cdn(client: Client) -> None:
    schema = client.get("/api/schema/?format=json").json()
    assert "/api/cards/" in schema["paths"] and "/api/cards/{code}/" in schema["paths"]
    docs = client.get("/api/docs/").content.decode()
    assert "/static/drf_spectacular_sidecar/" in docs
    # Nothing from another origin (a bare "cdn" would also match the page's random CSRF token).
    assert not re.search(r"""(src|href)=["']?(https?:)?//""", docs) and "cdn." not in docs.lower()


def test_writes_are_not_allowed(client: Client) -> None:
    assert client.post("/api/cards/", {}).status_code in (403, 405)


@pytest.mark.parametrize("query", ["cost=", "kind=", "sort=", "stars=&q=x", "set=YXJQ&set="])
def test_a_blank_number_or_choice_is_refused_free_text_is_not(client: Client, query: str) -> None:
    response = client.get(f"/api/cards/?{query}")
    assert response.status_code == 400
    assert set(response.json()) <= {"cost", "kind", "sort", "stars", "set"}
    assert client.get("/api/cards/?q=&affiliation=").status_code == 200


def test_a_stored_answer_is_sent_compressed_once_to_who_accepts_it(client: Client) -> None:
    plain = client.get("/api/cards/", {"page_size": 50})  # answered, and stored with its compressed copy
    assert plain["Content-Type"] == "application/json" and "Content-Encoding" not in plain
    packed = client.get("/api/cards/", {"page_size": 50}, HTTP_ACCEPT_ENCODING="br, gzip")
    assert packed["Content-Encoding"] == "gzip" and "Accept-Encoding" in packed["Vary"]
    assert json.loads(gzip.decompress(packed.content)) == plain.json()
    assert packed["ETag"] == f"W/{plain['ETag']}"
    # The weak tag is the same answer: a client holding it gets a 304.
    assert client.get("/api/cards/", {"page_size": 50}, HTTP_IF_NONE_MATCH=packed["ETag"]).status_code == 304
    again = client.get("/api/cards/", {"page_size": 50})  # who does not accept gzip: as it is
    assert "Content-Encoding" not in again and again.json() == plain.json()
