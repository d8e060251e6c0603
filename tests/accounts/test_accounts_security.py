"""Accounts as a careful user expects them: log-in, sign-up and resets throttled with a message
that says when to try again; resets by e-mail with expiring signed links; deleting an account
takes everything of its owner with it; the token page is never cached."""

from __future__ import annotations

import re
import subprocess
import sys
from datetime import timedelta
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.core import mail
from django.test import Client
from django.utils import timezone
from rest_framework.authtoken.models import Token

from collection.models import CollectionEntry
from decks.models import Deck
from events.models import Event, Submission
from tests.conftest import PASSWORD
from tests.support.collection_helpers import own
from tests.support.deck_helpers import make_deck

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("english")]
ROOT = Path(__file__).resolve().parents[2]


def login(client: Client, password: str, username: str = "alice", **extra: str):
    return client.post("/accounts/login/", {"username": username, "password": password}, **extra)


def test_failed_log_ins_are_throttled_per_account_even_for_the_right_password(client: Client, alice) -> None:
    statuses = [login(client, "wrong").status_code for _ in range(10)]
    assert statuses == [400] * 10
    refused = login(client, PASSWORD)
    assert refused.status_code == 429
    assert re.search(r"Try again in (\d+) minutes", refused.content.decode())  # when the window ends
    assert "_auth_user_id" not in client.session
    # another address is stopped too: the count is the account's
    assert login(Client(REMOTE_ADDR="10.9.9.9"), PASSWORD).status_code == 429


def test_failed_log_ins_are_throttled_per_address_across_accounts(client: Client, alice, bob) -> None:
    for i in range(30):
        login(client, "wrong", username=f"nobody{i}")
    assert login(client, PASSWORD, username="bob").status_code == 429
    assert login(Client(REMOTE_ADDR="10.1.1.1"), PASSWORD, username="bob").status_code == 302


def test_a_spoofed_forwarded_for_header_gives_no_fresh_budget(client: Client, alice) -> None:
    for i in range(30):
        login(client, "wrong", username=f"nobody{i}", HTTP_X_FORWARDED_FOR=f"203.0.113.{i}")
    assert login(client, PASSWORD, HTTP_X_FORWARDED_FOR="203.0.113.250").status_code == 429


def test_the_admin_log_in_is_throttled_too(client: Client, charlie) -> None:
    for _ in range(10):
        client.post("/admin/login/", {"username": "charlie", "password": "wrong"})
    response = client.post("/admin/login/", {"username": "charlie", "password": PASSWORD})
    assert "Try again in" in response.content.decode() and "_auth_user_id" not in client.session


def test_sign_up_is_throttled_per_address(client: Client) -> None:
    for i in range(10):
        client.post("/accounts/signup/", {"username": f"u{i}", "password1": "x", "password2": "y"})
    response = client.post("/accounts/signup/", {"username": "late", "password1": PASSWORD, "password2": PASSWORD})
    assert response.status_code == 429 and "Try again in" in response.content.decode()
    assert not get_user_model().objects.filter(username="late").exists()


def test_a_forgotten_password_is_reset_through_an_emailed_link(client: Client, alice) -> None:
    response = client.post("/accounts/password/reset/", {"email": "alice@example.org"})
    assert response.status_code == 302 and len(mail.outbox) == 1
    link = re.search(r"https?://[^/]+(/accounts/password/reset/[^\s]+/)", mail.outbox[0].body).group(1)
    form = client.get(link, follow=True)
    assert form.status_code == 200 and "new_password1" in form.content.decode()
    done = client.post(
        form.redirect_chain[-1][0], {"new_password1": "a-new-Pass-1234", "new_password2": "a-new-Pass-1234"}
    )
    assert done.status_code == 302
    alice.refresh_from_db()
    assert alice.check_password("a-new-Pass-1234")
    # the link works once
    assert "expired" in client.get(link, follow=True).content.decode()


def test_a_reset_for_an_unknown_address_looks_the_same(client: Client) -> None:
    response = client.post("/accounts/password/reset/", {"email": "nobody@example.org"})
    assert response.status_code == 302 and mail.outbox == []


def test_resets_are_throttled_per_email_address(client: Client, alice) -> None:
    for i in range(3):
        Client(REMOTE_ADDR=f"10.0.0.{i}").post("/accounts/password/reset/", {"email": "alice@example.org"})
    response = client.post("/accounts/password/reset/", {"email": "alice@example.org"})
    assert response.status_code == 429 and "Try again in" in response.content.decode()
    assert len(mail.outbox) == 3


def test_deleting_my_account_takes_everything_of_mine(alice_client: Client, alice, bob) -> None:
    own(alice, YXJQ_003=5)
    make_deck(alice, public=True)
    Token.objects.create(user=alice)
    mine = Event.objects.create(organiser=alice, name="我的賽", deadline=timezone.now() + timedelta(days=1))
    theirs = Event.objects.create(organiser=bob, name="他的賽", deadline=timezone.now() + timedelta(days=1))
    Submission.objects.create(event=theirs, player=alice, player_name="Alice", text="3 YXJQ-003")
    Submission.objects.create(event=mine, player=bob, player_name="Bob", text="3 YXJQ-003")

    wrong = alice_client.post("/accounts/delete/", {"password": "nope", "events": "delete"})
    assert wrong.status_code == 400 and get_user_model().objects.filter(username="alice").exists()

    response = alice_client.post("/accounts/delete/", {"password": PASSWORD, "events": "delete"})
    assert response.status_code == 302
    assert not get_user_model().objects.filter(username="alice").exists()
    assert not CollectionEntry.objects.exists() and not Deck.objects.exists() and not Token.objects.exists()
    assert list(Event.objects.values_list("name", flat=True)) == ["他的賽"]
    assert not Submission.objects.exists()  # my list at bob's event, and the lists of my own event
    assert "_auth_user_id" not in alice_client.session


def test_events_can_be_handed_over_when_deleting(alice_client: Client, alice, bob) -> None:
    Event.objects.create(organiser=alice, name="我的賽", deadline=timezone.now() + timedelta(days=1))
    unknown = alice_client.post(
        "/accounts/delete/", {"password": PASSWORD, "events": "hand_over", "new_organiser": "zed"}
    )
    assert unknown.status_code == 400 and "zed" in unknown.content.decode()
    alice_client.post("/accounts/delete/", {"password": PASSWORD, "events": "hand_over", "new_organiser": "bob"})
    assert Event.objects.get(name="我的賽").organiser == bob


def test_the_token_page_is_never_cached(alice_client: Client) -> None:
    response = alice_client.get("/accounts/")
    assert "no-store" in response["Cache-Control"] and "private" in response["Cache-Control"]


def test_production_refuses_a_short_secret_key() -> None:
    env = {
        "PATH": "/usr/bin:/bin",
        "DEBUG": "0",
        "SECRET_KEY": "short-key",
        "DJANGO_SETTINGS_MODULE": "zongheng.settings",
    }
    result = subprocess.run(
        [sys.executable, "-c", "import django; django.setup()"], cwd=ROOT, env=env, capture_output=True, text=True
    )
    assert result.returncode != 0 and "at least 50 characters" in result.stderr
