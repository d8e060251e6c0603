"""The site in Traditional Chinese (default), Simplified Chinese and English."""

from __future__ import annotations

import pytest
from django.test import Client

from tests.decklists import ILLEGAL

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


def test_simplified_converts_the_interface_and_the_card_data(alice) -> None:  # type: ignore[no-untyped-def]
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
    assert "Check a deck" in html and "劉備" in html and "liu bei" in html and "Infantry" in html
    listing = client.get("/cards/?q=liubei").content.decode()
    assert "劉備" in listing and "liu bei" in listing
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


def test_forms_are_translated(alice) -> None:  # type: ignore[no-untyped-def]
    client = in_language("zh-hant")
    client.force_login(alice)
    html = client.get("/collection/import/").content.decode()
    assert "CSV 檔案" in html and "加到我現有的數量" in html
    simplified = in_language("zh-hans")
    simplified.force_login(alice)
    assert "加到我现有的数量" in simplified.get("/collection/import/").content.decode()


def test_english_shows_pinyin_beside_card_names_everywhere(alice) -> None:  # type: ignore[no-untyped-def]
    from tests.deck_helpers import make_deck

    client = in_language("en")
    client.force_login(alice)
    deck = make_deck(alice)
    for path in (f"/decks/{deck.pk}/", "/sets/YXJQ/", f"/decks/{deck.pk}/sheet/"):
        html = client.get(path).content.decode()
        assert '<span lang="zh-Hant">新兵</span> <small class="pinyin">xin bing</small>' in html, path
    checked = client.post("/check/", {"list": "3 新兵", "format": "standard"}).content.decode()
    assert '<span lang="zh-Hant">新兵</span> <small class="pinyin">xin bing</small>' in checked
    chinese = in_language("zh-hant")
    assert 'class="pinyin">xin bing' not in chinese.get("/sets/YXJQ/").content.decode()


@pytest.mark.parametrize(
    ("address", "traditional", "simplified"),
    [
        ("/accounts/password/reset/", "忘記密碼", "忘记密码"),
        ("/accounts/delete/", "永久刪除我的帳號", "永久删除我的帐号"),
        ("/cards/?q=%00", "任何欄位都不接受", "任何栏位都不接受"),
    ],
)
def test_the_hardening_pages_speak_both_chinese_scripts(alice, address: str, traditional: str, simplified: str) -> None:  # type: ignore[no-untyped-def]
    for language, expected in (("zh-hant", traditional), ("zh-hans", simplified)):
        client = in_language(language)
        client.force_login(alice)
        assert expected in client.get(address).content.decode()
