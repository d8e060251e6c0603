"""Hostile input gets a clear 4xx, never a 500: NUL anywhere, JSON nested deep, bodies larger than
a page accepts, broken zip archives, more files than Django's default allows."""

from __future__ import annotations

import io
import json
import struct
import zipfile
from urllib.parse import urlencode

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client

from tests.support.decklists import LEGAL_40

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("english")]

NUL_ADDRESSES = [
    "/api/sets/%00/",
    "/sets/%00/",
    "/share/%00/",
    "/e/%00/",
    "/collection/missing/%00/",
    "/cards/%00/",
    "/api/cards/%00/",
    "/cards/%00/face.svg",
]
NUL_QUERIES = [
    "/decks/?general=%00",
    "/decks/?faction=%00",
    "/decks/?format=%00",
    "/decks/?sort=%00",
    "/cards/?affiliation=%00",
    "/api/cards/?q=a%00b",
    "/api/decks/?public=%00",
    "/collection/?q=%00",
    "/check/?list=%00",
    "/rules/?q=%00",
]


@pytest.mark.parametrize("address", NUL_ADDRESSES)
def test_nul_in_a_path_is_not_found(alice_client: Client, address: str) -> None:
    assert alice_client.get(address).status_code == 404


@pytest.mark.parametrize("address", NUL_QUERIES)
def test_nul_in_a_query_is_a_400_with_a_message(alice_client: Client, address: str) -> None:
    response = alice_client.get(address)
    assert response.status_code == 400
    assert "NUL" in response.content.decode()


def test_nul_in_a_form_body_is_refused(alice_client: Client) -> None:
    fields = {"text": "武將: 劉備\x00", "name": "x", "format": "standard"}
    encoded = urlencode(fields)
    response = alice_client.post("/decks/import/", encoded, content_type="application/x-www-form-urlencoded")
    assert response.status_code == 400 and "NUL" in response.content.decode()
    # multipart is read by the form, whose fields refuse NUL too
    response = alice_client.post("/decks/import/", fields)
    assert response.status_code == 400 and "Null characters are not allowed" in response.content.decode()
    assert not alice_client.get("/decks/mine/").context["decks"]


def test_nul_in_an_api_query_names_the_field(client: Client) -> None:
    response = client.get("/api/cards/?q=a%00b")
    assert response.status_code == 400 and "q" in response.json()


def nested(depth: int) -> str:
    return "[" * depth + "]" * depth


@pytest.mark.parametrize(
    ("address", "body"),
    [
        ("/api/legality/", '{"format": "standard", "cards": ' + nested(1000) + "}"),
        ("/api/decks/", '{"name": "x", "cards": ' + nested(1000) + "}"),
        ("/api/collection/YXJQ-001/", '{"quantity": ' + nested(1000) + "}"),
        ("/api/legality/", '{"a": ' + '{"b": ' * 5000 + "1" + "}" * 5001),
    ],
)
def test_deeply_nested_json_is_a_400(alice_client: Client, address: str, body: str) -> None:
    method = alice_client.put if "collection" in address else alice_client.post
    response = method(address, body, content_type="application/json")
    assert response.status_code == 400
    assert "nested" in response.json()["detail"]


def test_brackets_inside_strings_do_not_count_as_nesting(client: Client) -> None:
    body = json.dumps({"format": "standard", "list": "[" * 1000 + "\n武將: 劉備"})
    response = client.post("/api/legality/", body, content_type="application/json")
    assert response.status_code == 200


def test_nan_is_not_json(client: Client) -> None:
    response = client.post("/api/legality/", '{"format": NaN}', content_type="application/json")
    assert response.status_code == 400


def test_a_body_over_the_page_limit_is_413_and_says_the_limit(alice_client: Client) -> None:
    response = alice_client.post("/groups/", {"name": "a" * 600_000})  # a route that takes no files
    assert response.status_code == 413
    assert "512.0" in response.content.decode() and "KB" in response.content.decode()


def test_an_api_body_over_the_limit_is_413_json(client: Client) -> None:
    body = json.dumps({"format": "standard", "list": "a" * 600_000})
    response = client.post("/api/legality/", body, content_type="application/json")
    assert response.status_code == 413 and "at most" in response.json()["detail"]


def test_an_upload_over_the_limit_is_refused_before_it_reaches_disk(alice_client: Client, tmp_path, settings) -> None:
    settings.FILE_UPLOAD_TEMP_DIR = str(tmp_path)
    big = SimpleUploadedFile("c.csv", b"code,quantity\n" + b"YXJQ-001,1\n" * 700_000)
    response = alice_client.post("/collection/import/", {"file": big, "mode": "add"})
    assert response.status_code == 413
    assert list(tmp_path.iterdir()) == []  # nothing was written


def test_the_check_many_page_still_takes_its_promised_500_files(alice_client: Client) -> None:
    # 500 lists for a signed-in organiser (50 for anyone: decks.batch.ANONYMOUS)
    files = [SimpleUploadedFile(f"{i}.txt", LEGAL_40.encode()) for i in range(500)]
    response = alice_client.post("/check/many/", {"files": files, "format": "standard"})
    assert response.status_code == 200
    assert response.content.decode().count('<tr class="legal">') == 500


def test_501_files_get_a_message_not_a_bare_400(client: Client) -> None:
    files = [SimpleUploadedFile(f"{i}.txt", b"x") for i in range(501)]
    response = client.post("/check/many/", {"files": files, "format": "standard"})
    assert response.status_code == 400
    assert "At most 500 files" in response.content.decode()


# Broken archives, made by patching the headers of a good one.
_LOCAL = b"PK\x03\x04"
_CENTRAL = b"PK\x01\x02"


def _zip(content: bytes = LEGAL_40.encode(), method: int = zipfile.ZIP_DEFLATED) -> bytearray:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", method) as archive:
        archive.writestr("a.txt", content)
    return bytearray(buffer.getvalue())


def _patch(data: bytearray, local_offset: int, central_offset: int, fmt: str, value: int) -> bytes:
    local, central = data.index(_LOCAL), data.index(_CENTRAL)
    struct.pack_into(fmt, data, local + local_offset, value)
    struct.pack_into(fmt, data, central + central_offset, value)
    return bytes(data)


def _bad_crc() -> bytes:
    data = _zip(method=zipfile.ZIP_STORED)
    data[data.index(b"\xe6\xad\xa6")] ^= 0x01  # a byte of 武 in the stored text
    return bytes(data)


def _encrypted() -> bytes:
    data = _zip()
    flags = struct.unpack_from("<H", data, data.index(_LOCAL) + 6)[0]
    return _patch(data, 6, 8, "<H", flags | 0x1)


def _unsupported_method() -> bytes:
    return _patch(_zip(), 8, 10, "<H", 99)


def _lying_size() -> bytes:
    return _patch(_zip(), 22, 24, "<I", 10)  # says 10 bytes; holds far more


def _corrupt_deflate() -> bytes:
    data = _zip(content=LEGAL_40.encode() * 20)
    start = data.index(_LOCAL) + 30 + len("a.txt")
    for i in range(start + 5, start + 25):
        data[i] = 0xFF
    return bytes(data)


@pytest.mark.parametrize("make", [_bad_crc, _encrypted, _unsupported_method, _lying_size, _corrupt_deflate])
def test_broken_zip_entries_are_a_message_not_a_500(client: Client, make) -> None:
    upload = SimpleUploadedFile("lists.zip", make(), "application/zip")
    response = client.post("/check/many/", {"files": [upload], "format": "standard"})
    assert response.status_code == 400
    assert "a.txt" in response.content.decode()


RLO = "\u202e"


def test_bidi_controls_are_stripped_from_form_fields(alice_client: Client, alice) -> None:
    from decks.models import Deck
    from tests.support.deck_helpers import make_deck

    deck = make_deck(alice)
    alice_client.post(
        f"/decks/{deck.pk}/build/", {"name": f"蜀{RLO}漢\u2066", "format": "standard", "description": f"a{RLO}b"}
    )
    deck = Deck.objects.get(pk=deck.pk)
    assert deck.name == "蜀漢" and deck.description == "ab"


def test_bidi_controls_are_stripped_from_api_text(alice_client: Client) -> None:
    response = alice_client.post("/api/decks/", json.dumps({"name": f"gpj.{RLO}exe"}), content_type="application/json")
    assert response.status_code == 201 and response.json()["name"] == "gpj.exe"


def _preview(client: Client, content: bytes) -> str:
    upload = SimpleUploadedFile("c.csv", content, "text/csv")
    response = client.post("/collection/import/", {"file": upload, "mode": "add"})
    assert response.status_code == 200, response.content.decode()[:500]
    return response.content.decode()


@pytest.mark.parametrize(
    ("content", "label"),
    [
        ("name,quantity\n劉備,2\n過河拆橋,1\n".encode("cp950"), "Big5"),
        ("name,quantity\n刘备,2\n过河拆桥,1\n".encode("gbk"), "GB18030"),
        ("name,quantity\n劉備,2\n過河拆橋,1\n".encode("utf-16"), "UTF-16"),
        ("\ufeffname,quantity\n劉備,2\n過河拆橋,1\n".encode(), "UTF-8"),
        ("name,quantity\n劉備,2\n過河拆橋,1\n".encode(), "UTF-8"),
    ],
)
def test_csv_files_saved_by_chinese_excel_are_read_and_the_encoding_said(
    alice_client: Client, content: bytes, label: str
) -> None:
    html = _preview(alice_client, content)
    assert f"The file was read as {label}" in html
    assert "2 cards will change" in html


def test_a_csv_cell_with_a_bidi_control_still_finds_its_card(alice_client: Client) -> None:
    html = _preview(alice_client, f"code,quantity\nYXJQ-{RLO}003,2\n".encode())
    assert "1 card will change" in html
