"""The organisers' "Check many decks" page: several files or a zip; bounded; CSV; nothing stored."""

from __future__ import annotations

import csv
import io
import zipfile

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client

from decks.models import Deck
from tests.support.decklists import ILLEGAL, LEGAL_40

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("english")]


def upload(name: str, content: bytes) -> SimpleUploadedFile:
    return SimpleUploadedFile(name, content, "application/octet-stream")


def make_zip(entries: dict[str, bytes]) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, content in entries.items():
            archive.writestr(name, content)
    return buffer.getvalue()


def test_a_mix_of_legal_illegal_and_garbage_files(client: Client) -> None:
    files = [
        upload("a.txt", ("Player: 阿明\n" + LEGAL_40).encode()),
        upload("b.txt", ILLEGAL.encode()),
        upload("c.txt", b"\xff\xfe\x00garbage"),
    ]
    response = client.post("/check/many/", {"files": files, "format": "standard"})
    html = response.content.decode()
    assert response.status_code == 200
    assert html.count('<tr class="legal">') == 1 and html.count('<tr class="illegal">') == 2
    assert "阿明" in html and "too_many_copies" in html and "not UTF-8" in html
    assert Deck.objects.count() == 0  # nothing stored


def test_the_table_as_csv(client: Client) -> None:
    files = [upload("a.txt", ("Player: 阿明\n" + LEGAL_40).encode()), upload("b.txt", ILLEGAL.encode())]
    response = client.post("/check/many/", {"files": files, "format": "standard", "as_csv": "on"})
    rows = list(csv.reader(io.StringIO(response.content.decode("utf-8-sig"))))
    assert rows[0] == ["file", "player", "general", "count", "legal", "problems"]
    assert rows[1][:5] == ["a.txt", "阿明", "WJ-001", "40", "yes"]
    assert rows[2][4] == "no" and "too_many_copies" in rows[2][5]


def test_a_zip_of_lists(client: Client) -> None:
    data = make_zip({"round1/a.txt": LEGAL_40.encode(), "round1/b.txt": ILLEGAL.encode()})
    html = client.post("/check/many/", {"files": [upload("decks.zip", data)], "format": "classic"}).content.decode()
    assert "round1/a.txt" in html and "round1/b.txt" in html


@pytest.mark.parametrize(
    ("entries", "message", "status", "signed_in"),
    [
        ({"../evil.txt": b"3 x"}, "outside", 400, False),
        ({"/etc/passwd": b"3 x"}, "outside", 400, False),
        ({"big.txt": b"3 " + b"x" * 70_000}, "64 KiB", 413, False),
        ({f"{i}.txt": b"1 YXJQ-003" for i in range(51)}, "more than 50 files", 413, False),
        ({f"{i}.txt": b"1 YXJQ-003" for i in range(501)}, "more than 500 files", 413, True),
        ({"bomb.txt": b"\x00" * 5_000_000}, "64 KiB", 413, False),  # deflates to a few KB, claims 5 MB
    ],
)
def test_zip_limits_and_tricks_are_refused(
    client: Client, alice, entries: dict, message: str, status: int, signed_in: bool
) -> None:
    if signed_in:
        client.force_login(alice)
    response = client.post("/check/many/", {"files": [upload("x.zip", make_zip(entries))], "format": "standard"})
    assert response.status_code == status and message in response.content.decode()


def test_not_a_zip_and_no_files(client: Client) -> None:
    assert (
        client.post("/check/many/", {"files": [upload("x.zip", b"PK not really")], "format": "standard"}).status_code
        == 400
    )
    assert client.post("/check/many/", {"format": "standard"}).status_code == 400
