"""Faults in the account pages found by trying the site as a new player would; each test fails without its fix."""

from __future__ import annotations

import pytest
from django.test import Client

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("english")]


def test_next_survives_login_then_sign_up(client: Client, alice) -> None:
    from datetime import timedelta

    from django.utils import timezone

    from events.models import Event
    from tests.conftest import PASSWORD

    event = Event.objects.create(organiser=alice, name="台北站", deadline=timezone.now() + timedelta(days=1))
    link = f"/e/{event.token}/"
    # A page that needs a log-in sends there with the way back; the login page offers sign-up too.
    to_login = client.get("/collection/?next-probe=1")
    assert to_login.status_code == 302 and to_login["Location"].startswith("/accounts/login/")
    login_page = client.get(f"/accounts/login/?next={link}").content.decode()
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
