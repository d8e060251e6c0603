"""Faults in the collection pages found by trying the site as a new player would; each test fails without its fix."""

from __future__ import annotations

import re

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client

from tests.support.collection_helpers import own
from tests.support.readers import reader

pytestmark = pytest.mark.django_db


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


def test_the_completion_bars_are_read_aloud_in_the_pages_language(alice) -> None:
    own(alice, YXJQ_003=1)
    html = reader("zh-hant", alice).get("/collection/completion/").content.decode()
    labels = re.findall(r'aria-label="([^"]+)"', html)
    bars = [label for label in labels if "/" in label]
    assert bars and all(not re.search(r"[A-Za-z]", label) for label in bars), bars
    assert "稀有度未知：" in html or "銅：" in html


@pytest.mark.usefixtures("english")
def test_my_collections_address_is_tidied_too(alice_client: Client) -> None:
    response = alice_client.get("/collection/?q=&kind=general&sort=code")
    assert response.status_code == 302 and response["Location"] == "/collection/?kind=general"


@pytest.mark.usefixtures("english")
def test_a_collection_row_is_one_form_and_a_stepper_ignores_the_typed_counts(alice_client: Client, alice) -> None:
    from collection.models import CollectionEntry

    own(alice, YXJQ_003=1)
    html = alice_client.get("/collection/").content.decode()
    row = html[html.index('id="counter-') :]
    row = row[: row.index("</div>")]
    assert row.count("<form") == 1 and row.count("csrfmiddlewaretoken") == 1
    assert 'name="quantity"' in row and 'value="inc"' in row
    # the stepper posts the typed fields too, half-typed or not: +1 still counts one copy
    sent = {"action": "inc", "quantity": "99999", "foil_quantity": "x", "next": "/collection/"}
    assert alice_client.post("/collection/cards/YXJQ-003/", sent).status_code == 302
    assert CollectionEntry.objects.get(user=alice, card__code="YXJQ-003").quantity == 2
    # Set reads them, and refuses what is out of range
    refused = alice_client.post("/collection/cards/YXJQ-003/", {**sent, "action": "set"})
    assert refused.status_code == 400
    assert CollectionEntry.objects.get(user=alice, card__code="YXJQ-003").quantity == 2


def test_an_empty_collection_says_one_thing_and_keeps_its_live_count(alice_client: Client, english) -> None:
    page = alice_client.get("/collection/").content.decode()
    assert page.count("Nothing yet: add cards") == 1
    assert "No card matches." not in page and "result-count" not in page
    # The count a live filter answer updates (hx-swap-oob) is on the page, so htmx finds it.
    assert 'id="filter-count"' in page
    live = alice_client.get("/collection/?kind=tactic", HTTP_HX_REQUEST="true").content.decode()
    assert 'id="filter-count"' in live and "Nothing yet: add cards" in live
