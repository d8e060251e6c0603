"""POST /api/legality/ and the "Check a deck" page: one verdict everywhere, 400 for malformed."""

from __future__ import annotations

import io
import json

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import call_command
from django.test import Client

from decks.legality import check_list
from tests.support.decklists import ILLEGAL, LEGAL_40

pytestmark = pytest.mark.django_db


def post_api(client: Client, payload: object) -> tuple[int, dict]:
    response = client.post("/api/legality/", json.dumps(payload), content_type="application/json")
    return response.status_code, response.json()


def test_api_legal_list(client: Client) -> None:
    status, data = post_api(client, {"format": "standard", "list": LEGAL_40})
    assert status == 200
    assert data == {
        "legal": True,
        "format": "standard",
        "main_deck_count": 40,
        "general": "WJ-001",
        "problems": [],
        "problems_omitted": 0,
    }


def test_api_illegal_list_is_still_200_and_matches_the_command(client: Client, tmp_path) -> None:
    status, data = post_api(client, {"list": ILLEGAL})
    assert status == 200 and data["legal"] is False
    listed = tmp_path / "illegal.txt"
    listed.write_text(ILLEGAL, encoding="utf-8")
    out = io.StringIO()
    with pytest.raises(SystemExit):  # an illegal deck: the command's exit status says so
        call_command("checkdeck", str(listed), "--json", stdout=out)
    assert data == json.loads(out.getvalue())


def test_api_structured_deck_accepts_aliases_and_names(client: Client) -> None:
    cards = [{"card": f"YXJQ-{n:03d}", "count": 3} for n in (3, 4, 5, 6, 7, 8, 9, 12, 13, 14, 15, 16)]
    cards += [{"card": "wd1", "count": 3}, {"card": "南蛮入侵", "count": 1}]
    status, data = post_api(client, {"format": "standard", "general": "liubei", "cards": cards, "reinforcements": []})
    assert status == 200
    assert data["legal"] is True and data["general"] == "WJ-001" and data["main_deck_count"] == 40


def test_api_structured_problems(client: Client) -> None:
    status, data = post_api(
        client,
        {
            "format": "classic",
            "general": None,
            "cards": [{"card": "YJ-001", "count": 1}, {"card": "nothing", "count": 2}, {"card": "新兵", "count": 100}],
            "reinforcements": [{"card": "新兵", "count": 1}],
        },
    )
    assert status == 200
    assert [p["code"] for p in data["problems"]] == [
        "unknown_card",
        "invalid_count",
        "no_general",
        "reinforcement_in_deck",
        "not_a_reinforcement",
        "too_few_cards",
    ]


@pytest.mark.parametrize(
    ("payload", "field"),
    [
        ({}, "list"),
        ({"format": "vintage", "list": "3 新兵"}, "format"),
        ({"list": 12}, "list"),
        ({"list": "3 新兵\x00"}, "list"),
        ({"list": "x" * 70000}, "list"),
        ({"list": "3 新兵", "cards": []}, "list"),
        ({"cards": [{"card": "新兵"}]}, "cards"),
        ({"cards": [{"card": "新兵", "count": "many"}]}, "cards"),
        ({"cards": [{"card": "新兵", "count": 10**30}]}, "cards"),
        ({"cards": "3 新兵"}, "cards"),
        ({"cards": [{"card": "新兵", "count": 1}] * 501}, "cards"),
        ({"general": ["WJ-001"], "cards": []}, "general"),
    ],
)
def test_api_malformed_requests_are_400_naming_the_field(client: Client, payload: dict, field: str) -> None:
    status, data = post_api(client, payload)
    assert status == 400
    assert field in data


def test_api_refuses_non_json_garbage(client: Client) -> None:
    response = client.post("/api/legality/", b"\xff\xfe{{{", content_type="application/json")
    assert response.status_code == 400


def test_api_needs_no_login_and_no_csrf(client: Client) -> None:
    enforcing = Client(enforce_csrf_checks=True)
    response = enforcing.post("/api/legality/", json.dumps({"list": "3 新兵"}), content_type="application/json")
    assert response.status_code == 200


def test_api_is_in_the_schema(client: Client) -> None:
    schema = client.get("/api/schema/?format=json").json()
    operation = schema["paths"]["/api/legality/"]["post"]
    assert "200" in operation["responses"] and "400" in operation["responses"]


def test_page_shows_a_form(client: Client) -> None:
    html = client.get("/check/").content.decode()
    assert "<textarea" in html and 'name="format"' in html and 'hx-post="/check/"' in html


def test_page_without_javascript_shows_the_verdict_lines_and_groups(client: Client) -> None:
    response = client.post("/check/", {"list": ILLEGAL, "format": "standard"})
    assert response.status_code == 200
    html = response.content.decode()
    assert 'data-legal="false"' in html
    assert 'data-code="too_many_copies"' in html and 'data-code="unknown_card"' in html
    assert '<li class="bad" id="line-7">' in html  # the unknown card's line is highlighted
    assert '<li id="line-9">' in html  # a good line is not
    assert "<h3>部隊 <small>(4)</small></h3>" in html


def test_page_legal_deck(client: Client) -> None:
    html = client.post("/check/", {"list": LEGAL_40, "format": "standard"}).content.decode()
    assert 'data-legal="true"' in html and "劉備" in html


def test_page_htmx_gets_only_the_result(client: Client) -> None:
    response = client.post("/check/", {"list": LEGAL_40, "format": "classic"}, HTTP_HX_REQUEST="true")
    html = response.content.decode()
    assert "<html" not in html and 'data-legal="true"' in html


def test_page_accepts_a_txt_file(client: Client) -> None:
    upload = SimpleUploadedFile("deck.txt", LEGAL_40.encode("utf-8"), content_type="text/plain")
    html = client.post("/check/", {"file": upload, "list": "", "format": "standard"}).content.decode()
    assert 'data-legal="true"' in html


@pytest.mark.parametrize("content", [b"\xff\xfe\xfa\xfb", b"\x00\x00", b"3 x\n" * 20000])
def test_page_refuses_garbage_files_with_a_message(client: Client, content: bytes) -> None:
    upload = SimpleUploadedFile("deck.txt", content, content_type="text/plain")
    response = client.post("/check/", {"file": upload, "format": "standard"})
    assert response.status_code == 400
    assert "error-box" in response.content.decode()


def test_page_bad_format_is_400(client: Client) -> None:
    assert client.post("/check/", {"list": "3 新兵", "format": "vintage"}).status_code == 400


def test_adapter_resolves_what_players_type() -> None:
    text = "主將: liubei\n3 校场监军\n3 xinbing\n2 wd-1\n1 jiaochangjianjun"
    parsed, verdict = check_list(text)
    assert parsed.problems == []
    assert verdict.general == "WJ-001"
    assert [(e.card.code, e.count) for e in parsed.deck.main] == [
        ("YXJQ-009", 3),
        ("YXJQ-003", 3),
        ("五道·001", 2),
        ("YXJQ-009", 1),
    ]
    assert "too_many_copies" in [p.code for p in verdict.problems]  # 3 + 1 校場監軍, by name


def test_every_problem_names_its_lines(client: Client, english) -> None:
    text = "武將: 劉備\n2 新兵\n2 新兵\n1 黃巾義軍\n"
    html = client.post("/check/", {"list": text, "format": "standard"}).content.decode()
    assert "Lines 2, 3:" in html  # four 新兵 over two lines
    assert "Line 4:" in html  # a reinforcement in the deck
