"""The catalogue's web pages through the real stack: filters, sorts, search, pages, errors."""

from __future__ import annotations

import re

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from tests.support.catalogue import CARD_COUNT

pytestmark = pytest.mark.django_db


def result_count(html: str) -> int:
    return int(re.search(r'<p class="result-count">\s*(\d+)', html).group(1))


def codes_on(html: str) -> list[str]:
    return re.findall(r'<td class="code">([^<]+)</td>', html)


def get(client: Client, url: str, status: int = 200) -> str:
    # follow: an address with empty fields or the default sort is first tidied (a 302)
    response = client.get(url, follow=True)
    assert response.status_code == status, (url, response.status_code)
    return response.content.decode()


def test_home_leads_to_the_catalogue(client: Client) -> None:
    html = get(client, "/")
    assert "縱橫牌匣" in html and 'href="/cards/"' in html and str(CARD_COUNT) in html


def test_card_list_pages_through_all_cards(client: Client) -> None:
    seen: list[str] = []
    for page in (1, 2, 3, 4):
        seen += codes_on(get(client, f"/cards/?page={page}"))
    assert len(seen) == len(set(seen)) == CARD_COUNT
    assert seen[0] == "YXJQ-001"


@pytest.mark.parametrize(
    ("query", "expected_count", "must_include"),
    [
        ("set=YXJQ", 27, "WJ-001"),
        ("set=GMGD&kind=vice_general", 7, "FJ-007"),
        ("kind=troop&kind=tactic", 164, "五道·098"),
        ("kind=reinforcement", 3, "YJ-003"),
        ("troop_class=halberdier", 20, "GMGD-002"),
        ("faction=yuan", 5, "WJ-019"),
        ("tier=gold", 1, "WJ-008"),
        ("stars=5", 4, "YXJQ-015"),
        ("cost=9", 1, "LSHJ-019"),
        ("cost_min=5&cost_max=6", 6, "YXJQ-009"),
        ("speed=fast&set=LSHJ", 2, "LSHJ-011"),
        ("element=fire", 3, "LSHJ-013"),
        ("affiliation=羽林", 3, "LSHJ-023"),
    ],
)
def test_each_filter(client: Client, query: str, expected_count: int, must_include: str) -> None:
    html = get(client, f"/cards/?{query}&page_size=500")
    assert result_count(html) == expected_count
    assert must_include in codes_on(html) or must_include in codes_on(get(client, f"/cards/?{query}&page=3"))


@pytest.mark.parametrize(
    ("sort", "first", "last_known"),
    [
        ("code", "YXJQ-001", None),
        ("-code", "YJ-003", None),
        ("cost", "YXJQ-002", None),
        ("-cost", "LSHJ-019", None),
        ("power", "LSHJ-019", None),
        ("-health", "LSHJ-019", None),
        ("-rarity", "WJ-008", None),
    ],
)
def test_each_sort(client: Client, sort: str, first: str, last_known: str | None) -> None:
    codes = codes_on(get(client, f"/cards/?kind=troop&kind=tactic&kind=general&set=YXJQ&set=LSHJ&set=GMGD&sort={sort}"))
    if sort == "-code":
        codes = codes_on(get(client, f"/cards/?sort={sort}"))
    assert codes[0] == first, codes[:5]


def test_sort_by_cost_puts_unknown_costs_last_both_ways(client: Client) -> None:
    for sort in ("cost", "-cost"):
        codes = codes_on(get(client, f"/cards/?set=YXJQ&set=GMGD&kind=troop&sort={sort}"))
        assert codes[-1].startswith("GMGD"), sort
        assert codes[0].startswith("YXJQ"), sort


def test_sort_by_name_follows_pinyin(client: Client) -> None:
    html = get(client, "/cards/?set=YXJQ&kind=tactic&sort=name")
    # guo he chai qiao, huo gong, jiu, nan man ru qin
    assert codes_on(html) == ["YXJQ-011", "YXJQ-010", "YXJQ-002", "YXJQ-001"]


@pytest.mark.parametrize(
    ("q", "expected"),
    [("新兵", "YXJQ-003"), ("校场", "YXJQ-009"), ("liubei", "WJ-001"), ("YXJQ-003", "YXJQ-003"), ("wd1", "五道·001")],
)
def test_plain_search_finds_the_card_first(client: Client, q: str, expected: str) -> None:
    assert codes_on(get(client, f"/cards/?q={q}"))[0] == expected


def test_skills_text_is_searched(client: Client) -> None:
    assert "WJ-007" in codes_on(get(client, "/cards/?q=國色"))


def test_filters_live_in_the_url_and_are_shown_back(client: Client) -> None:
    html = get(client, "/cards/?q=新兵&kind=troop&sort=cost")
    assert 'value="新兵"' in html
    assert re.search(r'value="troop"[^>]*checked|checked[^>]*value="troop"', html)


@pytest.mark.parametrize("query", ["kind=spell", "stars=9", "cost=abc", "cost=1.5", "sort=colour", "set=XXXX"])
def test_bad_filter_values_get_400_with_a_message(client: Client, query: str) -> None:
    html = get(client, f"/cards/?{query}", status=400)
    assert "Some filters are not valid" in html or "篩選條件無效" in html


def test_nul_bytes_and_huge_pages_do_not_break_the_list(client: Client) -> None:
    assert "error-box" in get(client, "/cards/?q=%00abc", status=400)
    get(client, "/cards/?page=999999999999999999999")
    get(client, "/cards/?page=-1")


def test_htmx_request_gets_only_the_results(client: Client) -> None:
    response = client.get("/cards/?q=新兵", HTTP_HX_REQUEST="true")
    html = response.content.decode()
    assert "<html" not in html and "YXJQ-003" in html


def test_card_page_shows_every_known_fact_and_rarity_as_printed(client: Client) -> None:
    html = get(client, "/cards/YXJQ-003/")
    for fact in ("新兵", "YXJQ-003", "銅★", "江湖散人", "步兵", "英雄崛起"):
        assert fact in html, fact


def test_card_page_shows_unknown_facts_as_unknown(client: Client) -> None:
    html = get(client, "/cards/GMGD-001/")
    assert html.count('class="unknown"') >= 4  # cost, power, health, rarity, affiliation


def test_general_page_shows_skills_and_life(client: Client) -> None:
    html = get(client, "/cards/WJ-001/")
    assert "【賢德】" in html and "35" in html and "蜀" in html and "銀★★" in html


def test_card_page_links_to_set_class_and_same_name(client: Client) -> None:
    html = get(client, "/cards/WJ-004/")
    assert 'href="/sets/YXJQ/"' in html
    assert "/cards/YCWJ-006/" in html  # the other 貂蟬
    assert "troop_class=mystic" in html


def test_wd_alias_redirects_to_the_printed_code(client: Client) -> None:
    response = client.get("/cards/WD-001/")
    assert response.status_code == 301
    assert response["Location"] == "/cards/%E4%BA%94%E9%81%93%C2%B7001/"
    assert "鄉勇" in get(client, response["Location"])


def test_unknown_and_malformed_codes_are_404(client: Client) -> None:
    get(client, "/cards/YXJQ-099/", status=404)
    get(client, "/cards/nonsense/", status=404)


def test_set_page_is_a_checklist_grouped_by_kind_with_tier_counts(client: Client) -> None:
    html = get(client, "/sets/LSHJ/")
    assert "亂世黃巾" in html and "34" in html
    for heading in ("武將", "覺醒武將", "部隊", "錦囊", "援軍"):
        assert f"<h2>{heading}" in html
    assert 'type="checkbox"' in html
    assert client.get("/sets/lshj/")["Location"] == "/sets/LSHJ/"
    get(client, "/sets/NOPE/", status=404)


def test_list_page_costs_the_same_queries_whatever_it_shows(client: Client) -> None:
    counts = []
    for url in ("/cards/?set=YXJQ&kind=tactic", "/cards/"):
        with CaptureQueriesContext(connection) as ctx:
            get(client, url)
        counts.append(len(ctx.captured_queries))
    assert counts[0] == counts[1]
