"""Search the way players type, and the query language: through the real API and page."""

from __future__ import annotations

import pytest
from django.test import Client

from catalog.query import QueryError, parse

# Messages are read in English here; tests/site_wide/test_i18n.py covers the other languages.
pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("english")]


def found(client: Client, q: str) -> list[str]:
    response = client.get("/api/cards/", {"q": q, "page_size": 500})
    assert response.status_code == 200, (q, response.json())
    return [c["code"] for c in response.json()["results"]]


# --- matching -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("q", "code"),
    [
        ("劉備", "WJ-001"),
        ("刘备", "WJ-001"),  # Traditional and Simplified
        ("校場監軍", "YXJQ-009"),
        ("校场监军", "YXJQ-009"),
        ("liubei", "WJ-001"),
        ("liu bei", "WJ-001"),
        ("liú bèi", "WJ-001"),
        ("Liu Bei", "WJ-001"),  # full pinyin
        ("lb", "WJ-001"),  # initials
        ("liub", "WJ-001"),  # prefix
        ("changgong", "LSHJ-016"),
        ("zhanggong", "LSHJ-016"),  # 長弓戍卒: every reading of 長
        ("jiaochang", "YXJQ-009"),
        ("xiaochang", "YXJQ-009"),  # 校場監軍: every reading of 校
        ("YXJQ-003", "YXJQ-003"),
        ("yxjq3", "YXJQ-003"),
        ("yxjq003", "YXJQ-003"),  # codes
        ("wd1", "五道·001"),
        ("WD-001", "五道·001"),
        ("五道·001", "五道·001"),
    ],
)
def test_each_way_of_typing_finds_the_card_first(client: Client, q: str, code: str) -> None:
    assert found(client, q)[0] == code


def test_skills_text_matches_in_either_script(client: Client) -> None:
    assert "WJ-007" in found(client, "國色") and "WJ-007" in found(client, "国色")


def test_ranking_exact_name_then_prefix_then_pinyin_then_text(client: Client) -> None:
    # 新兵: exact name 新兵 (YXJQ-003) first; names that merely contain it after; text last
    results = found(client, "新兵")
    assert results[0] == "YXJQ-003"
    results = found(client, "步兵")
    assert results[0] == "YXJQ-006"  # 步兵十夫長: a name that starts with 步兵
    assert results.index("YXJQ-006") < results.index("WJ-001")  # 劉備: 步兵 only in the skills text
    results = found(client, "gong")
    assert results[0].startswith("YXJQ-01")  # 弓箭軍需官 / 弓兵指揮官: names that start with gong


# --- keywords and operators ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("q", "count"),
    [
        ("set:yxjq", 27),
        ("s:LSHJ", 34),
        ("系列:詭謀官渡", 40),
        ("set:五道", 112),
        ("kind:tactic", 36),
        ("k:錦囊", 36),
        ("种类:锦囊", 36),
        ("class:cavalry set:yxjq", 5),
        ("c:騎兵 s:yxjq", 5),
        ("类型:骑兵 s:yxjq", 5),
        ("class:Cavalry s:yxjq", 5),
        ("faction:wei", 7),
        ("f:魏", 7),
        ("陣營:yuan", 5),
        ("affiliation:羽林", 3),
        ("a:羽林", 3),
        ("所属:黄巾军", 5),
        ("tier:gold", 1),
        ("r:金", 1),
        ("等级:铜", 34),
        ("stars:5", 4),
        ("stars=5", 4),
        ("stars>=4", 17),
        ("stars>4", 4),
        ("stars<2", 13),
        ("stars<=1", 13),
        ("stars!=1", 47),
        ("cost:9", 1),
        ("cost<=1", 3),
        ("費用>=6", 3),
        ("power>3", 6),
        ("health>=5", 6),
        ("life>=36", 2),
        ("speed:fast", 13),
        ("speed:快速", 13),
        ("element:fire", 3),
        ("e:火", 3),
        ('text:"造成2點傷害"', 4),
        ('t:"造成2点伤害"', 4),
    ],
)
def test_every_keyword(client: Client, q: str, count: int) -> None:
    assert len(found(client, q)) == count


def test_unknown_numbers_never_match_a_comparison(client: Client) -> None:
    results = found(client, "cost!=3")
    assert "GMGD-001" not in results  # cost unknown
    assert "YXJQ-002" in results and "YXJQ-001" not in results


def test_negation_or_and_grouping(client: Client) -> None:
    assert set(found(client, "faction:wei or faction:wu")) == set(found(client, "f:wei")) | set(found(client, "f:wu"))
    no_generals = found(client, "set:yxjq -kind:general")
    assert len(no_generals) == 18 and "WJ-001" not in no_generals
    grouped = found(client, "(s:yxjq or s:lshj) c:騎兵 -kind:general")
    assert set(grouped) == {"YXJQ-007", "YXJQ-018", "LSHJ-003", "LSHJ-008", "LSHJ-021", "LSHJ-022", "LSHJ-023"}
    assert found(client, "-(kind:troop or kind:tactic) set:lshj") == found(client, "set:lshj -kind:troop -kind:tactic")
    assert found(client, "class:cavalry 或 class:archer set:yxjq") != []


def test_free_words_and_keywords_together(client: Client) -> None:
    assert found(client, "lb kind:general") == ["WJ-001", "WJ-008"]
    assert found(client, "lb faction:shu") == ["WJ-001"]


# --- errors -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("q", "position", "words"),
    [
        ("class:dragon", 0, "not a class"),
        ("cost<=abc", 0, "whole number"),
        ("colour:red", 0, "Unknown keyword"),
        ("(kind:troop", 0, "never closed"),
        ("kind:troop)", 10, "Unexpected"),
        ('t:"unclosed', 2, "never closed"),
        ("set:yxjq or", 11, "Expected a search term"),
        ("class<3", 0, "takes : = or !="),
        ("cost:", 5, "needs a value"),
        ("新兵 -", 3, "Nothing after this minus"),
    ],
)
def test_errors_point_at_the_position(q: str, position: int, words: str) -> None:
    with pytest.raises(QueryError) as excinfo:
        parse(q)
    assert excinfo.value.position == position, str(excinfo.value)
    assert words in excinfo.value.message


def test_the_api_answers_a_bad_query_with_400_and_the_position(client: Client) -> None:
    response = client.get("/api/cards/", {"q": "kind:troop)"})
    assert response.status_code == 400
    assert "at character 11" in response.json()["q"][0]


def test_the_page_shows_the_error_not_a_500(client: Client) -> None:
    response = client.get("/cards/", {"q": "class:dragon"})
    assert response.status_code == 400
    assert "dragon" in response.content.decode() and "error-box" in response.content.decode()


def test_the_syntax_help_page_lists_every_keyword_with_examples(client: Client) -> None:
    html = client.get("/cards/syntax/").content.decode()
    for word in (
        "set",
        "kind",
        "class",
        "faction",
        "affiliation",
        "tier",
        "stars",
        "cost",
        "power",
        "health",
        "life",
        "speed",
        "element",
        "text",
        "系列",
        "陣營",
        "cost&lt;=3",
        "or",
        "-kind:general",
    ):
        assert word in html, word
    assert 'href="/cards/?q=class%3A%E9%A8%8E%E5%85%B5"' in html  # examples are links


def test_the_search_index_is_rebuilt_by_loadcatalog_when_missing(
    client: Client, django_capture_on_commit_callbacks
) -> None:
    from django.core.management import call_command

    from catalog.models import SearchKey

    SearchKey.objects.all().delete()
    assert found(client, "liubei") == []
    with django_capture_on_commit_callbacks(execute=True):
        call_command("loadcatalog", verbosity=0)
    assert found(client, "liubei")[0] == "WJ-001"  # and no cached answer from before survives


def test_a_maintainers_correction_in_the_admin_is_searchable_at_once(charlie) -> None:
    from catalog.models import Card

    charlie.is_superuser = True
    charlie.save()
    admin = Client()
    admin.force_login(charlie)
    card = Card.objects.get(code="YXJQ-003")
    data = {
        "code": card.code,
        "name": "新兵甲",
        "set": card.set_id,
        "kind": card.kind,
        "cost": 2,
        "power": 1,
        "health": 3,
        "troop_class": "infantry",
        "affiliation": "江湖散人",
        "tier": "bronze",
        "stars": 1,
        "images-TOTAL_FORMS": "0",
        "images-INITIAL_FORMS": "0",
    }  # the card pictures inline, left alone
    response = admin.post(f"/admin/catalog/card/{card.pk}/change/", data)
    assert response.status_code == 302, response.content.decode()[:2000]
    assert found(admin, "xinbingjia") == ["YXJQ-003"]
    assert found(admin, "兵甲")[0] == "YXJQ-003"


def _codes(q: str) -> set[str]:
    response = Client().get("/api/cards/", {"q": q, "page_size": 200})
    assert response.status_code == 200, response.content
    return {c["code"] for c in response.json()["results"]}


def test_skills_text_is_found_through_the_indexed_grams_in_either_script() -> None:
    from catalog.models import Card, TextGram

    card = Card.objects.get(code="WJ-004")
    grams = set(TextGram.objects.filter(card=card).values_list("gram", flat=True))
    assert {"摸一", "一張", "一张"} <= grams and "摸" not in grams  # pairs, both scripts; 摸 is found as 摸一
    assert "WJ-004" in _codes('t:"摸一張牌"') and "WJ-004" in _codes('t:"摸一张牌"')
    assert "WJ-004" in _codes("t:摸") and "WJ-004" in _codes('"閉月"')
    assert "WJ-004" not in _codes('t:"摸兩張牌"')  # every gram present is not enough: the phrase must be
    assert "WJ-004" not in _codes('t!="摸一張牌"') and "WJ-001" in _codes('t!="摸一張牌"')


def test_the_text_condition_looks_the_grams_up_before_scanning() -> None:
    from catalog.models import Card
    from catalog.search import text_condition

    sql = str(Card.objects.filter(text_condition("造成傷害")).query)
    assert "catalog_textgram" in sql and sql.count("catalog_textgram") >= 2


def test_grams_follow_an_approved_change(alice, charlie) -> None:
    from contributions import services
    from tests.support.contribution_helpers import propose

    proposal = propose(alice, text="登場時，對目標部隊造成三點傷害")
    services.approve(proposal.pk, charlie)
    assert "五道·001" in _codes('t:"三點傷害"') and "五道·001" in _codes('t:"三点伤害"')


def test_query_grams_are_pairs_spread_along_the_phrase() -> None:
    from catalog.textkeys import query_grams, text_grams

    assert query_grams("殺") == ["殺"]
    assert query_grams("造成傷害") == ["造成", "成傷", "傷害"]
    assert query_grams("一二三四五六七") == ["一二", "三四", "四五", "六七"]  # at most four, first and last kept
    assert text_grams("ab c") == {"ab", "b", "c"}  # pairs, and each run's last character
