"""Faults across every page found by trying the site as a new player would; each test fails without its fix."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.test import Client

from decks.models import Deck
from tests.support.deck_helpers import make_deck
from tests.support.readers import reader

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("english")]


def test_permanent_actions_ask_first_and_change_nothing_until_confirmed(alice_client: Client, alice) -> None:
    from datetime import timedelta

    from django.utils import timezone

    from collection.models import CollectionChange, CollectionEntry
    from events.models import Event, Submission
    from tests.support.collection_helpers import own

    own(alice, YXJQ_003=2)
    change = CollectionChange.objects.get(user=alice)
    deck = make_deck(alice)
    event = Event.objects.create(organiser=alice, name="台北站", deadline=timezone.now() + timedelta(days=1))
    submission = Submission.objects.create(event=event, player_name="阿明", text="3 YXJQ-003")
    for url in (
        f"/collection/history/{change.pk}/undo/",
        f"/decks/{deck.pk}/delete/",
        f"/decks/{deck.pk}/history/1/restore/",
        f"/events/{event.pk}/lock/",
        f"/events/{event.pk}/submissions/{submission.pk}/remove/",
        f"/events/{event.pk}/delete/",
    ):
        page = alice_client.post(url)
        html = page.content.decode()
        assert page.status_code == 200 and 'name="confirm" value="yes"' in html and f'action="{url}"' in html, url
    assert CollectionEntry.objects.get(user=alice).quantity == 2 and not CollectionChange.objects.get().undone
    assert Deck.objects.filter(pk=deck.pk).exists()
    event.refresh_from_db()
    assert not event.locked and Submission.objects.filter(pk=submission.pk).exists()


def test_the_first_link_of_every_page_skips_to_its_content(client) -> None:
    import re

    for url in ("/", "/cards/", "/decks/", "/check/"):
        html = client.get(url).content.decode()
        body = html[html.index("<body") :]
        first = re.search(r"<a [^>]*>", body)
        assert first is not None and 'href="#main"' in first.group(0), url
        assert '<main id="main"' in html


def test_template_comments_never_reach_the_page() -> None:
    # Django's {# … #} ends on its own line: one spread over two lines is printed as text.
    templates = Path(__file__).resolve().parents[2] / "templates"
    broken = [
        f"{path.relative_to(templates)}:{n}"
        for path in templates.rglob("*.*")
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if line.count("{#") > line.count("#}")
    ]
    assert broken == []


def test_the_brand_follows_the_pages_script_in_the_header_and_the_footer() -> None:
    simplified = reader("zh-hans").get("/cards/").content.decode()
    header = simplified[simplified.index('class="brand"') : simplified.index("</a>", simplified.index('class="brand"'))]
    assert "纵横牌匣" in header and "縱橫牌匣" not in simplified
    traditional = reader("zh-hant").get("/cards/").content.decode()
    assert "縱橫牌匣" in traditional and "纵横牌匣" not in traditional
    english = reader("en").get("/cards/").content.decode()
    assert '<span lang="zh-Hant">縱橫牌匣</span>' in english
