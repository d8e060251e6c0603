"""The site in Traditional Chinese (default), Simplified Chinese and English."""

from __future__ import annotations

import pytest
from django.test import Client

from tests.support.deck_helpers import make_deck
from tests.support.decklists import ILLEGAL

pytestmark = pytest.mark.django_db

MAIN_PAGES = ["/", "/cards/", "/cards/WJ-001/", "/sets/YXJQ/", "/check/", "/cards/syntax/", "/accounts/login/"]


def in_language(language: str) -> Client:
    client = Client()
    response = client.post("/i18n/setlang/", {"language": language, "next": "/"})
    assert response.status_code == 302
    return client


def test_traditional_is_the_default(client: Client) -> None:
    html = client.get("/cards/WJ-001/").content.decode()
    assert 'lang="zh-hant"' in html
    assert "檢查牌庫" in html and "劉備" in html and "步兵" in html and "技能" in html


def test_simplified_converts_the_interface_and_the_card_data(alice) -> None:
    client = in_language("zh-hans")
    html = client.get("/cards/WJ-001/").content.decode()
    assert 'lang="zh-hans"' in html
    assert "检查牌库" in html and "刘备" in html and "贤德" in html and "劉備" not in html.split("<main")[1]
    tactics = client.get("/cards/?kind=tactic&set=YXJQ").content.decode()
    assert "锦囊" in tactics and "南蛮入侵" in tactics
    verdict = client.post("/check/", {"list": ILLEGAL, "format": "standard"}).content.decode()
    assert "牌库只有" in verdict and "不合法" in verdict


def test_english_keeps_chinese_card_names_with_pinyin() -> None:
    client = in_language("en")
    html = client.get("/cards/WJ-001/").content.decode()
    assert 'lang="en"' in html
    assert "Check a deck" in html and "劉備" in html and "Liu Bei" in html and "Infantry" in html
    listing = client.get("/cards/?q=liubei").content.decode()
    assert "劉備" in listing and "Liu Bei" in listing
    verdict = client.post("/check/", {"list": ILLEGAL, "format": "standard"}).content.decode()
    assert "Not legal" in verdict and "The deck has 8 cards" in verdict


@pytest.mark.parametrize("language", ["zh-hant", "zh-hans", "en"])
@pytest.mark.parametrize("path", MAIN_PAGES)
def test_every_main_page_in_every_language(language: str, path: str) -> None:
    client = in_language(language)
    response = client.get(path)
    assert response.status_code == 200
    assert f'lang="{language}"' in response.content.decode()


def test_the_choice_is_remembered_across_requests() -> None:
    client = in_language("zh-hans")
    for path in MAIN_PAGES:
        assert 'lang="zh-hans"' in client.get(path).content.decode()


def test_the_browser_language_is_honoured_until_a_choice_is_made(client: Client) -> None:
    assert 'lang="en"' in client.get("/", HTTP_ACCEPT_LANGUAGE="en-GB,en;q=0.8").content.decode()
    assert 'lang="zh-hans"' in client.get("/", HTTP_ACCEPT_LANGUAGE="zh-CN").content.decode()


@pytest.mark.parametrize(
    ("language", "words"), [("zh-hant", "不是有效的"), ("zh-hans", "不是有效的"), ("en", "is not a class")]
)
def test_messages_are_translated_too(language: str, words: str) -> None:
    client = in_language(language)
    assert words in client.get("/api/cards/", {"q": "class:dragon"}).json()["q"][0]


def test_forms_are_translated(alice) -> None:
    client = in_language("zh-hant")
    client.force_login(alice)
    html = client.get("/collection/import/").content.decode()
    assert "CSV 檔案" in html and "加到我現有的數量" in html
    simplified = in_language("zh-hans")
    simplified.force_login(alice)
    assert "加到我现有的数量" in simplified.get("/collection/import/").content.decode()


def test_english_shows_pinyin_beside_card_names_everywhere(alice) -> None:
    from tests.support.deck_helpers import make_deck

    client = in_language("en")
    client.force_login(alice)
    deck = make_deck(alice)
    for path in (f"/decks/{deck.pk}/", "/sets/YXJQ/", f"/decks/{deck.pk}/sheet/"):
        html = client.get(path).content.decode()
        assert '<span lang="zh-Hant">新兵</span> <small class="pinyin">Xin Bing</small>' in html, path
    checked = client.post("/check/", {"list": "3 新兵", "format": "standard"}).content.decode()
    assert '<span lang="zh-Hant">新兵</span> <small class="pinyin">Xin Bing</small>' in checked
    chinese = in_language("zh-hant")
    assert 'class="pinyin">Xin Bing' not in chinese.get("/sets/YXJQ/").content.decode()


@pytest.mark.parametrize(
    ("address", "traditional", "simplified"),
    [
        ("/accounts/password/reset/", "忘記密碼", "忘记密码"),
        ("/accounts/delete/", "永久刪除我的帳號", "永久删除我的账号"),
        ("/cards/?q=%00", "任何欄位都不接受", "任何字段都不接受"),
    ],
)
def test_the_hardening_pages_speak_both_chinese_scripts(alice, address: str, traditional: str, simplified: str) -> None:
    for language, expected in (("zh-hant", traditional), ("zh-hans", simplified)):
        client = in_language(language)
        client.force_login(alice)
        assert expected in client.get(address).content.decode()


def test_simplified_is_written_as_mainland_readers_write_it() -> None:
    client = in_language("zh-hans")
    login = client.get("/accounts/login/").content.decode()
    assert "登录" in login and "登入" not in login and "账号" in client.get("/accounts/signup/").content.decode()
    check = client.get("/check/").content.decode()
    assert "粘贴" in check and "文件" in check and "貼上" not in check
    cards = client.get("/cards/").content.decode()
    assert "搜索" in cards and "搜尋" not in cards
    assert "劉備、刘备" in cards  # the search hint keeps one example in each script
    assert '<code lang="zh-Hant">武將: 劉備</code>' in check  # Traditional input stays Traditional


def test_card_data_keeps_character_conversion_while_the_interface_converts_phrases() -> None:
    from pathlib import Path

    from catalog.textkeys import to_simplified
    from webutil.mainland import read_overrides, to_mainland

    overrides = read_overrides(Path("locale/zh_Hans/overrides.tsv"))
    assert to_mainland("請選擇檔案後登入", overrides) == "请选择文件后登录"
    assert to_mainland("資料來源；登出", overrides) == "资料来源；退出登录"  # the reviewed overrides
    assert to_simplified("檔案") == "档案"  # a card's words are as printed, character by character


def test_history_notes_and_set_descriptions_follow_the_reader(alice) -> None:
    from collection.services import change_counts
    from decks.models import DeckVersion
    from tests.support.deck_helpers import make_deck

    traditional = in_language("zh-hant")
    traditional.force_login(alice)
    response = traditional.post("/decks/new/")
    assert response.status_code == 302
    deck = alice.decks.get()
    assert DeckVersion.objects.get(deck=deck).note == "created"  # a code, not 建立
    make_deck(alice, name="另一副")
    from catalog.models import Card

    change_counts(alice, Card.objects.get(code="YXJQ-003"), add=1)
    english = in_language("en")
    english.force_login(alice)
    history = english.get(f"/decks/{deck.pk}/history/").content.decode()
    assert "created" in history and "建立" not in history
    assert "建立" in traditional.get(f"/decks/{deck.pk}/history/").content.decode()
    assert "this site" in english.get("/collection/history/").content.decode()
    assert "本站" in traditional.get("/collection/history/").content.decode()
    sets = english.get("/sets/").content.decode()
    assert "Base set" in sets and "基礎版本" not in sets
    assert "基础版本" in in_language("zh-hans").get("/sets/").content.decode()
    syntax = english.get("/cards/syntax/").content.decode()
    assert "full pinyin" in syntax and "全拼" in traditional.get("/cards/syntax/").content.decode()
    assert "不是卡牌編號" not in english.get("/cards/not-a-code!/").content.decode()


@pytest.mark.parametrize(
    ("language", "label"), [("zh-hant", "牌庫代碼："), ("zh-hans", "牌库代码："), ("en", "Deck code: ")]
)
def test_a_label_ends_with_the_colon_its_language_writes(alice, language: str, label: str) -> None:
    """Chinese writes the full-width colon after a label, with no space; English a colon and a space."""
    deck = make_deck(alice, public=True)
    assert label in in_language(language).get(f"/decks/{deck.pk}/").content.decode()


def test_form_labels_end_with_the_full_width_colon_in_both_scripts(alice) -> None:
    """Django's own Simplified catalogue keeps the ASCII colon after a form's label: ours does not."""
    for language, label in (("zh-hant", "使用者名稱："), ("zh-hans", "用户名：")):
        page = in_language(language).get("/accounts/login/").content.decode()
        assert label in page, language
