"""A card page's link preview: what a chat app shows of a shared card."""

from __future__ import annotations

import html
import re

import pytest
from django.test import Client

pytestmark = pytest.mark.django_db


def _meta(page: str, prop: str) -> str:
    found = re.search(rf'<meta (?:property|name)="{re.escape(prop)}" content="([^"]*)">', page)
    assert found, prop
    return html.unescape(found.group(1))


def test_a_card_page_previews_with_its_name_in_the_readers_script_and_its_text() -> None:
    traditional = Client().get("/cards/WJ-001/").content.decode()
    assert _meta(traditional, "og:title") == "劉備 WJ-001"
    assert _meta(traditional, "og:url") == "http://testserver/cards/WJ-001/"
    assert _meta(traditional, "twitter:card") == "summary_large_image"
    simplified = Client(headers={"accept-language": "zh-hans"}).get("/cards/WJ-001/").content.decode()
    assert _meta(simplified, "og:title") == "刘备 WJ-001"
    troop = Client().get("/cards/YXJQ-003/").content.decode()
    assert _meta(troop, "og:title").startswith("新兵")


def test_a_card_pages_preview_image_is_a_png_in_the_readers_script() -> None:
    from io import BytesIO

    from PIL import Image

    pictures = {}
    for language in ("zh-hant", "zh-hans", "en"):
        page = Client(headers={"accept-language": language}).get("/cards/WJ-001/").content.decode()
        address = _meta(page, "og:image")
        assert address.startswith("http://testserver/cards/WJ-001/image.png?lang=")
        answer = Client().get(address.removeprefix("http://testserver"))
        assert answer.status_code == 200 and answer["Content-Type"] == "image/png"
        picture = Image.open(BytesIO(answer.content))
        assert picture.size == (1200, 630) and picture.format == "PNG"
        pictures[language] = answer.content
    assert len(set(pictures.values())) == 3  # 劉備, 刘备, and English labels: three pictures
    # A card the tables give only a name and class: drawn, its unknown facts said to be unknown.
    assert Client().get("/cards/五道·001/image.png").status_code == 200
    assert Client().get("/cards/NOPE-001/image.png").status_code == 404
