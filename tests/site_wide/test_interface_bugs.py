"""Interface faults found by trying the site as a new player would; each test fails without its fix."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client

from decks.models import Deck
from tests.support.deck_helpers import LEGAL_MAIN, make_deck
from tests.support.decklists import ILLEGAL

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("english")]


def test_the_builder_shows_no_general_chosen_when_there_is_none(alice_client: Client, alice) -> None:
    deck = make_deck(alice, general=None)
    html = alice_client.get(f"/decks/{deck.pk}/build/").content.decode()
    select = html[html.index('class="general-select"') :]
    select = select[: select.index("</select>")]
    assert select.count(" selected") == 1 and '<option value="" selected>' in select
    # choosing the placeholder keeps the deck without a general instead of failing
    assert alice_client.post(f"/decks/{deck.pk}/change/", {"action": "general", "card": ""}).status_code == 302
    assert Deck.objects.get(pk=deck.pk).general is None


def test_the_history_counts_cards_not_distinct_cards(alice_client: Client, alice) -> None:
    deck = make_deck(alice, main={"YXJQ-003": 3, "YXJQ-004": 2})
    html = alice_client.get(f"/decks/{deck.pk}/history/").content.decode()
    assert '<td class="num">5</td>' in html


def test_the_sheet_title_is_said_once_in_chinese(alice_client: Client, alice, settings) -> None:
    from django.utils import translation

    deck = make_deck(alice)
    with translation.override("zh-hant"):
        alice_client.post("/i18n/setlang/", {"language": "zh-hant", "next": "/"})
        html = alice_client.get(f"/decks/{deck.pk}/sheet/").content.decode()
    assert html.count("牌庫登記表") == 1


def test_checking_an_empty_list_asks_for_one(client: Client) -> None:
    response = client.post("/check/", {"list": "   \n", "format": "standard"})
    html = response.content.decode()
    assert response.status_code == 400 and "Paste a deck list" in html and "0 cards" not in html


def test_the_check_many_table_shows_names_and_messages_not_codes(client: Client) -> None:
    files = [
        SimpleUploadedFile("b.txt", ILLEGAL.encode()),
        SimpleUploadedFile("c.txt", "武將: 劉備\n3 不存在\n".encode()),
    ]
    html = client.post("/check/many/", {"files": files, "format": "standard"}).content.decode()
    table = html[html.index("<table") :]
    assert "unknown_card:" not in table and "too_many_copies:" not in table
    general_cell = table[table.index("c.txt") :].split("</td>")[2]
    assert "劉備" in general_cell and "WJ-001" in general_cell


def test_a_deck_code_used_as_a_general_choice_is_refused_cleanly(alice_client: Client, alice) -> None:
    deck = make_deck(alice, main=LEGAL_MAIN)
    response = alice_client.post(f"/decks/{deck.pk}/change/", {"action": "general", "card": "nope"})
    assert response.status_code == 400


def test_next_survives_login_then_sign_up(client: Client, alice) -> None:
    from datetime import timedelta

    from django.utils import timezone

    from events.models import Event
    from tests.conftest import PASSWORD

    event = Event.objects.create(organiser=alice, name="台北站", deadline=timezone.now() + timedelta(days=1))
    link = f"/e/{event.token}/"
    to_login = client.get(link)
    assert to_login.status_code == 302 and to_login["Location"].startswith("/accounts/login/")
    login_page = client.get(to_login["Location"]).content.decode()
    signup_href = f'href="/accounts/signup/?next={link}"'
    assert signup_href in login_page
    signup_page = client.get(f"/accounts/signup/?next={link}").content.decode()
    assert f'name="next" value="{link}"' in signup_page
    done = client.post(
        "/accounts/signup/", {"username": "newbie", "password1": PASSWORD, "password2": PASSWORD, "next": link}
    )
    assert done.status_code == 302 and done["Location"] == link
    assert client.get(link).status_code == 200
    # somewhere else is never a destination
    other = Client().post(
        "/accounts/signup/",
        {"username": "newbie2", "password1": PASSWORD, "password2": PASSWORD, "next": "https://evil.example/"},
    )
    assert other["Location"] == "/collection/"


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


def test_set_the_counts_is_not_a_card_set_in_chinese(alice_client) -> None:
    # One English word, two meanings: the counter's button (設定) and the card set (系列).
    alice_client.post("/i18n/setlang/", {"language": "zh-hant", "next": "/"})
    html = alice_client.get("/cards/YXJQ-003/").content.decode()
    assert '<button name="action" value="set">設定</button>' in html
    assert "系列" in alice_client.get("/cards/").content.decode()


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
