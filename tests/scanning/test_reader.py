"""The real recogniser on drawn photos of catalogue cards: the models are inside the installed
packages and nothing is fetched (the network is cut during a reading); single cards turned,
blurred and compressed, and a spread of several, are found as the right catalogue cards."""

from __future__ import annotations

import socket
import sys
from pathlib import Path

import pytest

from catalog.models import Card
from scanning import CardRef, find_cards, reader
from scanning.reader import model_files, read_bytes
from tests.support.card_photos import as_photo, card_face, spread
from webutil.glyphs import FONT

pytestmark = pytest.mark.django_db

SAMPLE = ["YXJQ-002", "YXJQ-004", "WJ-001", "LSHJ-001", "GMGD-012", "五道·001", "YCWJ-003"]


def _catalogue() -> list[CardRef]:
    return [CardRef(c, n, s or "") for c, n, s in Card.objects.values_list("code", "name", "name_simplified")]


def _face(code: str):
    card = Card.objects.get(code=code)
    return card_face(card.code, card.name, card.text or "", card.cost)


def test_the_models_are_inside_the_installed_packages_and_the_font_ships() -> None:
    files = model_files()
    assert files and all(Path(f).stat().st_size > 100_000 for f in files)
    assert all(Path(f).is_relative_to(Path(sys.prefix)) for f in files)
    assert FONT.exists() and (FONT.parent / "LICENSE-OFL.txt").exists()


def test_a_photo_is_read_with_the_network_cut(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(*args: object, **kwargs: object) -> None:
        raise OSError("no network in this test")

    photo = as_photo(_face("YXJQ-004"), seed=1)
    monkeypatch.setattr(reader, "_engines", {})  # the recogniser made anew, its models loaded here
    monkeypatch.setattr(socket.socket, "connect", refuse)
    monkeypatch.setattr(socket, "create_connection", refuse)
    found = find_cards(read_bytes(photo), _catalogue()).cards
    assert [f.card for f in found] == ["YXJQ-004"]


@pytest.mark.parametrize("code", SAMPLE)
def test_a_single_card_photo_finds_the_card(code: str) -> None:
    found = find_cards(read_bytes(as_photo(_face(code), seed=len(code))), _catalogue()).cards
    assert found and found[0].card == code, [(f.card, f.text) for f in found]
    assert found[0].confidence >= 0.8


def test_a_spread_finds_every_card_and_where_it_lies() -> None:
    codes = ["YXJQ-003", "WJ-001", "五道·001", "LSHJ-001"]
    photo = spread([_face(code) for code in codes], columns=2, seed=3)
    found = find_cards(read_bytes(photo), _catalogue()).cards
    assert sorted(f.card for f in found) == sorted(codes)
    boxes = {f.card: f.box for f in found}
    assert boxes["YXJQ-003"][0] < boxes["WJ-001"][0] and boxes["YXJQ-003"][1] < boxes["五道·001"][1]


def test_a_web_worker_never_loads_the_recogniser() -> None:
    """gunicorn loads the application and every view at start: none of it imports the
    recogniser or ONNX Runtime, which only a task's first photo loads."""
    import subprocess

    code = (
        "import sys, django, os; os.environ.setdefault('DJANGO_SETTINGS_MODULE', 'zongheng.settings'); django.setup();"
        "from zongheng.wsgi import application; from django.urls import get_resolver;"
        "get_resolver().url_patterns; import collection.scan_views, collection.api, catalog.tasks;"
        "print(sorted(m for m in sys.modules if m.split('.')[0] in ('rapidocr', 'onnxruntime', 'cv2')))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=120)
    assert out.stdout.strip() == "[]", out.stdout


def test_a_photographed_sheets_qr_code_gives_the_deck_back_exactly(alice, client) -> None:
    """The registration sheet prints its deck code as a QR code: a photo of the printed sheet
    (turned a little, compressed) reads back the very deck."""
    import io

    import segno
    from PIL import Image

    from decks import deckcode, intake
    from decks.services import snapshot_of
    from scanning.reader import read_codes
    from tests.support.deck_helpers import make_deck

    deck = make_deck(alice, public=True)
    data = snapshot_of(deck)
    code = deckcode.encode(data.format, data.general, data.main, data.reinforcements)
    sheet = client.get(f"/decks/{deck.pk}/sheet/").content.decode()
    assert code in sheet and 'class="qr"' in sheet  # the code, printed and as a QR code
    printed = io.BytesIO()
    segno.make(code, error="m").save(printed, kind="png", scale=6, border=4)
    page = Image.new("RGB", (900, 1200), "white")
    page.paste(Image.open(io.BytesIO(printed.getvalue())), (560, 900))
    photo = io.BytesIO()
    page.rotate(4, expand=True, fillcolor="#8a7560").save(photo, "JPEG", quality=55)
    (read,) = read_codes(Image.open(io.BytesIO(photo.getvalue())))
    assert read == code
    back, notes = intake.read_code(read)
    assert notes == [] and back.main == data.main and back.general == data.general
