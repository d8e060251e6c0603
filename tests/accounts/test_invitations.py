"""A link handed to someone not logged in (an event's, a group's invite) says what it leads to and
who sent it, offers sign-up as well as log-in, and both come back to the link."""

from __future__ import annotations

import re
from datetime import timedelta
from html import unescape
from urllib.parse import unquote

import pytest
from django.test import Client
from django.utils import timezone

from events.models import Event
from tests.conftest import PASSWORD
from tests.support.decklists import LEGAL_40
from tests.support.group_helpers import make_group

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("english")]


def _links(page: str) -> dict[str, str]:
    found = re.findall(r'<a class="button[^"]*" href="([^"]+)">([^<]+)</a>', page)
    return {text.strip(): unquote(unescape(href)) for href, text in found}


def test_an_events_link_names_the_event_and_its_organiser_and_offers_both_ways_in(alice) -> None:
    event = Event.objects.create(organiser=alice, name="台北站", deadline=timezone.now() + timedelta(days=2))
    visitor = Client()
    response = visitor.get(f"/e/{event.token}/")
    assert response.status_code == 200
    page = response.content.decode()
    assert "台北站" in page and "An event organised by alice" in page
    links = _links(page)
    assert links == {
        "Sign up": f"/accounts/signup/?next=/e/{event.token}/",
        "Log in": f"/accounts/login/?next=/e/{event.token}/",
    }
    # Signing up from the invitation comes back to the link, which now takes a list.
    signed = visitor.post(
        links["Sign up"],
        {"username": "newcomer", "password1": PASSWORD, "password2": PASSWORD, "next": f"/e/{event.token}/"},
    )
    assert signed.status_code == 302 and signed["Location"] == f"/e/{event.token}/"
    assert 'name="list"' in visitor.get(f"/e/{event.token}/").content.decode()
    sent = visitor.post(f"/e/{event.token}/", {"player_name": "新人", "list": LEGAL_40})
    assert sent.status_code == 302 and event.submissions.get().player_name == "新人"


def test_a_visitor_posting_to_the_link_is_sent_to_log_in_and_nothing_is_stored(alice) -> None:
    event = Event.objects.create(organiser=alice, name="台北站", deadline=timezone.now() + timedelta(days=2))
    response = Client().post(f"/e/{event.token}/", {"player_name": "x", "list": LEGAL_40})
    assert response.status_code == 302 and response["Location"].startswith("/accounts/login/?next=")
    assert not event.submissions.exists()


def test_a_groups_invite_names_the_group_and_its_owner_and_logging_in_returns_to_it(alice, bob) -> None:
    group = make_group(alice, name="週五牌局")
    visitor = Client()
    page = visitor.get(f"/groups/join/{group.invite}/").content.decode()
    assert "週五牌局" in page and "A play group of alice" in page
    links = _links(page)
    assert links["Log in"] == f"/accounts/login/?next=/groups/join/{group.invite}/"
    logged = visitor.post(
        "/accounts/login/", {"username": "bob", "password": PASSWORD, "next": f"/groups/join/{group.invite}/"}
    )
    assert logged.status_code == 302 and logged["Location"] == f"/groups/join/{group.invite}/"
    assert visitor.post(f"/groups/join/{group.invite}/").status_code == 302
    assert group.memberships.filter(user=bob).exists()


def test_a_wrong_invite_is_a_404_to_a_visitor_too() -> None:
    assert Client().get("/groups/join/not-a-link/").status_code == 404
