"""The rules as a reference (#52): the sections taken from the seeds, the /rules/ page in each
script with its search, the game's terms and where they are marked, and the API's answers."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from django.conf import settings
from django.test import Client

from catalog import rules, terms, textkeys
from catalog.models import Card
from catalog.rules_extract import HEADINGS, RULES_START, extract
from tests.support.deck_helpers import make_deck

pytestmark = pytest.mark.django_db


def _seeds() -> tuple[Path, Path] | None:
    """The seeds, where this checkout's machine keeps them (ZONGHENG_SEEDS, or ../shared/seeds)."""
    folder = Path(os.environ.get("ZONGHENG_SEEDS", Path(settings.BASE_DIR).parent / "shared" / "seeds"))
    traditional, simplified = sorted(folder.glob("000_*.txt")), sorted(folder.glob("001_*.txt"))
    return (traditional[0], simplified[0]) if traditional and simplified else None


def in_language(language: str) -> Client:
    client = Client()
    assert client.post("/i18n/setlang/", {"language": language, "next": "/"}).status_code == 302
    return client


def test_the_committed_rules_are_what_the_seeds_print() -> None:
    seeds = _seeds()
    if seeds is None:
        pytest.skip("the seeds are not on this machine")
    traditional, simplified = seeds
    assert extract(traditional, simplified) == json.loads(rules.DATA_FILE.read_text(encoding="utf-8"))
    # every line of the printed rules is in a section (a picture's caption glued in front aside)
    lines = [line.strip() for line in traditional.read_text(encoding="utf-8").splitlines() if line.strip()]
    printed = lines[lines.index(RULES_START) + 1 :]
    kept = "\n".join("\n".join([s.title["zh_hant"] or "", s.text["zh_hant"] or ""]) for s in rules.book().sections)
    lost = [
        line
        for line in printed
        if line not in kept and line.removeprefix("遊戲流程牌").removeprefix("遊戲區域牌") not in kept
    ]
    assert lost == []


def test_the_sections_in_both_scripts_and_the_older_text_apart() -> None:
    book = rules.book()
    assert [s.anchor for s in book.sections] == [h.anchor for h in HEADINGS]
    setup = book.section("setup")
    assert setup is not None and setup.zh_hans_from == "001"
    assert "調度：將任意數量的手牌置於一旁" in (setup.text["zh_hant"] or "")
    assert "调度：将任意数量的手牌置于一旁" in (setup.text["zh_hans"] or "")
    assert "40 ～ 60張" in (setup.text["zh_hant"] or "") and "40～60张" in (setup.text["zh_hans"] or "")
    concepts = book.section("concepts")
    assert concepts is not None and concepts.zh_hans_from == "000" and "武魂：" in (concepts.text["zh_hans"] or "")
    assert all(s.text["en"] is None for s in book.sections)  # nothing translated is invented
    assert "牌库数量至少30张，至多50张" in book.older.text  # the older deck size, kept apart


def test_the_rules_page_in_each_script(client: Client) -> None:
    page = client.get("/rules/").content.decode()
    assert 'id="setup"' in page and "遊戲目標" in page and "調度：將任意數量的手牌置於一旁" in page
    assert 'href="#turn-main"' in page  # the contents
    assert 'id="older-rules"' in page and "至多50张" in page

    simplified = in_language("zh-hans").get("/rules/").content.decode()
    assert "调度：将任意数量的手牌置于一旁" in simplified and "游戏目标" in simplified
    # the seed's own mainland text where it has one, marked as converted where it has none
    assert "『决定初始玩家』" in simplified
    assert simplified.count('class="hint"') >= 1 and "調度" not in simplified.split('id="older-rules"')[0]

    english = in_language("en").get("/rules/").content.decode()
    assert "not yet translated into English" in english and "Goal of the game" in english
    assert '<div lang="zh-Hant">' in english and "<h2>Goal of the game</h2>" in english


def test_a_search_within_the_rules_in_either_script(client: Client) -> None:
    found = client.get("/rules/", {"q": "调度"}).content.decode()  # typed in Simplified
    listed = found.split('class="rules-found"')[1].split("</section>")[0]
    assert 'href="#setup"' in listed and 'href="#goal"' not in listed  # the one section that holds it
    assert "<mark>調度</mark>" in found
    none = client.get("/rules/", {"q": "不存在的詞"})
    assert none.status_code == 200 and "<mark>" not in none.content.decode()
    for bad in ("x" * (rules.MAX_QUERY + 1), "調\x00度"):
        refused = client.get("/rules/", {"q": bad})
        assert refused.status_code == 400
    # a search never cuts into the escaped text: ">" is printed in the principles
    odd = client.get("/rules/", {"q": "gt"}).content.decode()
    assert "&<mark>" not in odd


def test_every_term_is_found_in_the_rules_and_defined_by_a_line_of_them() -> None:
    book = rules.book()
    for term in terms.TERMS.values():
        section = book.section(term.anchor)
        assert section is not None, term.slug
        assert term.word in (section.text["zh_hant"] or ""), term.slug
        definition = term.definition("zh_hant")
        if term.defined_by is None:
            assert definition is None
            continue
        assert definition in section.lines("zh_hant"), term.slug
        simplified = term.definition("zh_hans")
        # the Simplified seed's own line where it has one, else the Traditional line converted
        assert simplified in section.lines("zh_hans") or simplified == textkeys.to_simplified(definition), term.slug
    assert {"fast", "slow", "mulligan", "raise", "awaken", "soul", "reinforcement", "troop", "tactic"} <= set(
        terms.TERMS
    )
    assert {"graveyard", "resource", "tapped", "untapped"} <= set(terms.TERMS)


def test_a_term_is_escaped_and_marked_once() -> None:
    html = terms.mark("<b>部隊</b>與部隊\n資源", "zh_hant", "/rules/")
    assert "<b>" not in html and "&lt;b&gt;" in html
    assert html.count('data-term="troop"') == 1 and html.count('data-term="resource"') == 1 and "<br>" in html


def test_terms_are_marked_on_the_card_page_in_the_readers_script(client: Client) -> None:
    general = Card.objects.get(code="WJ-001")
    assert "資源" in general.text and "部隊" in general.text
    page = client.get("/cards/WJ-001/").content.decode()
    text = page.split('class="card-text"')[1].split("</p>")[0]
    assert text.count('data-term="resource"') == 1 and 'href="/rules/#zones"' in text
    assert "放置資源的區域" in text  # the definition, from the rules

    simplified = in_language("zh-hans").get("/cards/WJ-001/").content.decode()
    text = simplified.split('class="card-text"')[1].split("</p>")[0]
    assert ">资源</a>" in text and "放置资源的区域" in text

    fast = Card.objects.filter(speed="fast").first()
    assert fast is not None
    facts = client.get(fast.get_absolute_url()).content.decode()
    assert 'data-term="fast"' in facts and "快速：可在除重置階段外的任意階段使用" in facts
    english = in_language("en").get(fast.get_absolute_url()).content.decode()
    assert "<b>fast</b>" in english and 'What “<span lang="zh-Hant">快速</span>” means' in english


def test_the_deck_page_and_the_builder_mark_the_kinds(alice) -> None:
    deck = make_deck(alice, name="術語", public=True)
    owner = Client()
    owner.force_login(alice)
    for path in (f"/decks/{deck.pk}/", f"/decks/{deck.pk}/build/"):
        page = owner.get(path).content.decode()
        assert 'data-term="troop"' in page and 'href="/rules/#turn-main"' in page, path
    # the builder's search results (rows drawn by Jinja2): each card's kind marked too
    found = owner.get(f"/decks/{deck.pk}/build/", {"q": "南蠻入侵"}).content.decode()
    results = found.split('<ul class="search-results">')[1].split("</ul>")[0]
    assert "南蠻入侵" in results and 'data-term="tactic"' in results


def test_the_rules_and_terms_api(client: Client) -> None:
    data = client.get("/api/rules/").json()
    assert [s["anchor"] for s in data["sections"]] == [h.anchor for h in HEADINGS]
    setup = next(s for s in data["sections"] if s["anchor"] == "setup")
    assert setup["text"]["en"] is None and "調度" in setup["text"]["zh_hant"] and "调度" in setup["text"]["zh_hans"]
    assert setup["title"] == {"zh_hant": "遊戲準備", "zh_hans": "游戏准备", "en": "Setting up"}
    assert data["older"]["superseded"] is True
    listed = {t["slug"]: t for t in client.get("/api/terms/").json()}
    assert listed.keys() == terms.TERMS.keys()
    assert listed["mulligan"]["term"] == {"zh_hant": "調度", "zh_hans": "调度", "en": "mulligan"}
    assert listed["mulligan"]["definition"]["zh_hans"].startswith("调度：")
    assert listed["troop"]["definition"] == {"zh_hant": None, "zh_hans": None, "en": None}
    assert listed["mulligan"]["anchor"] == "setup"
