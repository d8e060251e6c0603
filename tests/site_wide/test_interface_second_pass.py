"""The interface's second pass, page by page: what a reader of each language sees (the brand,
row errors, plurals, labels read aloud, the set filter), the filter count that stays in view, and
a card's face drawn whole as a file of its own."""

from __future__ import annotations

import re

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client

from tests.support.catalogue import CARD_COUNT
from tests.support.collection_helpers import own

pytestmark = pytest.mark.django_db


def reader(language: str, user=None) -> Client:
    client = Client()
    client.post("/i18n/setlang/", {"language": language, "next": "/"})
    if user is not None:
        client.force_login(user)
    return client


def test_the_brand_follows_the_pages_script_in_the_header_and_the_footer() -> None:
    simplified = reader("zh-hans").get("/cards/").content.decode()
    header = simplified[simplified.index('class="brand"') : simplified.index("</a>", simplified.index('class="brand"'))]
    assert "纵横牌匣" in header and "縱橫牌匣" not in simplified
    traditional = reader("zh-hant").get("/cards/").content.decode()
    assert "縱橫牌匣" in traditional and "纵横牌匣" not in traditional
    english = reader("en").get("/cards/").content.decode()
    assert '<span lang="zh-Hant">縱橫牌匣</span>' in english


@pytest.mark.parametrize(
    ("language", "line", "heading"),
    [
        ("zh-hant", "第 3 行：", "有 1 行有誤"),
        ("zh-hans", "第 3 行：", "有 1 行有误"),
        ("en", "Line 3: ", "1 row is not right"),
    ],
)
def test_import_row_errors_read_as_people_write(alice, language: str, line: str, heading: str) -> None:
    client = reader(language, alice)
    bad = b"quantity,code\n1,YXJQ-003\n2,NOPE-999\n"
    html = client.post(
        "/collection/import/", {"file": SimpleUploadedFile("c.csv", bad, "text/csv"), "mode": "add"}
    ).content.decode()
    assert line in html and heading in html
    assert "第幾行" not in html and "第几行" not in html


def test_the_import_preview_says_what_its_mode_does_in_words(alice) -> None:
    good = b"quantity,code\n2,YXJQ-003\n"
    for language, mode, words in (
        ("en", "add", "the file's copies are added to yours"),
        ("en", "replace", "its counts become the file's"),
        ("zh-hant", "add", "加到你現有的張數上"),
        ("zh-hans", "replace", "张数改为文件中的数字"),
    ):
        html = (
            reader(language, alice)
            .post("/collection/import/", {"file": SimpleUploadedFile("c.csv", good, "text/csv"), "mode": mode})
            .content.decode()
        )
        assert words in html, (language, mode)
        assert f"({mode})" not in html


def test_english_counts_meet_their_nouns_in_the_right_number(alice) -> None:
    own(alice, YXJQ_003=(1, 1))
    html = reader("en", alice).get("/collection/").content.decode()
    assert "1 different card · 1 copy · 1 foil" in re.sub(r"\s+", " ", html)


def test_the_set_filter_shows_the_chinese_name_marked_and_its_pinyin_on_english_pages() -> None:
    html = reader("en").get("/cards/").content.decode()
    chip = re.search(r'value="YXJQ"[^>]*>\s*(.*?)</label>', html, re.S)
    assert chip is not None
    assert '<span lang="zh-Hant">英雄崛起</span>' in chip.group(1) and 'class="pinyin"' in chip.group(1)


def test_health_and_life_have_two_names_and_the_bar_counts_what_is_known() -> None:
    html = reader("zh-hant").get("/cards/incomplete/").content.decode()
    headings = re.findall(r'<th scope="col">([^<]+)</th>', html)
    assert "生命" in headings and "血量" in headings
    assert len(headings) == len(set(headings))
    cell = re.search(r'width="(\d+)" height="10"/></svg><span class="num">(\d+)/(\d+)</span>', html)
    assert cell is not None
    percent, known, applies = (int(g) for g in cell.groups())
    assert percent == round(100 * known / applies)


def test_the_completion_bars_are_read_aloud_in_the_pages_language(alice) -> None:
    own(alice, YXJQ_003=1)
    html = reader("zh-hant", alice).get("/collection/completion/").content.decode()
    labels = re.findall(r'aria-label="([^"]+)"', html)
    bars = [label for label in labels if "/" in label]
    assert bars and all(not re.search(r"[A-Za-z]", label) for label in bars), bars
    assert "稀有度未知：" in html or "銅：" in html


def test_copying_a_list_and_saving_a_deck_as_mine_are_two_verbs(alice, bob) -> None:
    from tests.support.deck_helpers import make_deck

    deck = make_deck(alice, public=True)
    for language, copy, clone in (("zh-hant", "複製牌表", "存成我的牌庫"), ("zh-hans", "复制牌表", "存为我的牌库")):
        html = reader(language, bob).get(f"/decks/{deck.pk}/").content.decode()
        assert copy in html and clone in html


def test_the_filter_count_follows_each_tick_out_of_the_panel() -> None:
    client = reader("en")
    page = client.get("/cards/").content.decode()
    assert 'id="filter-count"' in page and f"{CARD_COUNT} cards found" in page and 'href="#results"' in page
    live = client.get("/cards/?faction=wei", HTTP_HX_REQUEST="true", HTTP_HX_TARGET="results").content.decode()
    count = re.search(r'<span id="filter-count"[^>]*hx-swap-oob="innerHTML"[^>]*>\s*(\d+) cards found', live)
    assert count is not None and 0 < int(count.group(1)) < CARD_COUNT


def test_a_cards_face_as_a_file_carries_its_own_text_style_and_shrinks_long_text(client: Client) -> None:
    response = client.get("/cards/YCWJ-003/face.svg")
    svg = response.content.decode()
    assert response.status_code == 200 and "<style>" in svg and "face-text longer" in svg
    assert "style-src 'unsafe-inline'" in response["Content-Security-Policy"]
    assert "script-src" not in response["Content-Security-Policy"]
    inlined = client.get("/cards/YCWJ-003/").content.decode()
    assert "<style>" not in inlined  # on a page, site.css styles the face
