"""An event's public page as a link preview: what a chat app shows of a shared event."""

from __future__ import annotations

import html
import re
from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone

from events.models import Event

pytestmark = pytest.mark.django_db


def _meta(page: str, prop: str) -> str:
    found = re.search(rf'<meta (?:property|name)="{re.escape(prop)}" content="([^"]*)">', page)
    assert found, prop
    return html.unescape(found.group(1))


def test_an_events_public_page_previews_with_its_name_and_format(alice) -> None:
    event = Event.objects.create(organiser=alice, name="台北冬季賽", deadline=timezone.now() + timedelta(days=2))
    page = Client().get(f"/t/{event.public_token}/").content.decode()
    assert _meta(page, "og:title") == "台北冬季賽"
    assert event.format_label in _meta(page, "og:description")


def test_an_events_public_page_previews_with_a_picture_whose_qr_opens_it(alice) -> None:
    from io import BytesIO

    from PIL import Image

    from tests.support.image_helpers import qr_texts
    from tests.support.pages import paired_round

    event = Event.objects.create(organiser=alice, name="台北冬季賽", deadline=timezone.now() + timedelta(days=2))
    paired_round(event)
    page = Client().get(f"/t/{event.public_token}/").content.decode()
    assert _meta(page, "twitter:card") == "summary_large_image"
    address = _meta(page, "og:image").removeprefix("http://testserver")
    answer = Client().get(address)
    assert answer.status_code == 200 and answer["Content-Type"] == "image/png"
    picture = Image.open(BytesIO(answer.content))
    assert picture.size == (1200, 630)
    assert qr_texts(picture) == [f"http://testserver/t/{event.public_token}/"]
    assert Client().get("/t/not-a-token/image.png").status_code == 404
