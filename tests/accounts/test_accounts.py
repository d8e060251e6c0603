"""Accounts: sign up, log in and out, change the password, make and revoke an API token."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from rest_framework.authtoken.models import Token

from tests.conftest import PASSWORD

pytestmark = pytest.mark.django_db


def test_sign_up_logs_the_new_user_in(client: Client) -> None:
    assert 'name="username"' in client.get("/accounts/signup/").content.decode()
    response = client.post("/accounts/signup/", {"username": "dora", "password1": PASSWORD, "password2": PASSWORD})
    assert response.status_code == 302 and response["Location"] == "/collection/"
    assert get_user_model().objects.filter(username="dora").exists()
    assert "dora" in client.get("/collection/").content.decode()


@pytest.mark.parametrize(
    "data",
    [
        {"username": "dora", "password1": PASSWORD, "password2": "other"},
        {"username": "dora", "password1": "123", "password2": "123"},
        {"username": "alice", "password1": PASSWORD, "password2": PASSWORD},
        {"username": "x\x00", "password1": PASSWORD, "password2": PASSWORD},
    ],
)
def test_bad_sign_ups_are_400_with_a_message(client: Client, alice, data: dict) -> None:
    response = client.post("/accounts/signup/", data)
    assert response.status_code == 400
    assert 'class="errorlist' in response.content.decode()
    assert get_user_model().objects.count() == 1


def test_log_in_and_out(client: Client, alice) -> None:
    assert client.get("/collection/").status_code == 302
    response = client.post("/accounts/login/", {"username": "alice", "password": PASSWORD, "next": "/collection/"})
    assert response.status_code == 302 and response["Location"] == "/collection/"
    assert client.get("/collection/").status_code == 200
    assert client.post("/accounts/logout/").status_code in (200, 302)
    assert client.get("/collection/").status_code == 302


def test_wrong_password_is_refused(client: Client, alice) -> None:
    response = client.post("/accounts/login/", {"username": "alice", "password": "wrong"})
    assert response.status_code == 400 and "error-box" in response.content.decode()
    assert "_auth_user_id" not in client.session


def test_change_password(alice_client: Client, alice) -> None:
    new = PASSWORD + "-2"
    response = alice_client.post(
        "/accounts/password/", {"old_password": PASSWORD, "new_password1": new, "new_password2": new}
    )
    assert response.status_code == 302
    alice.refresh_from_db()
    assert alice.check_password(new)


def test_make_use_and_revoke_an_api_token(alice_client: Client, alice) -> None:
    assert alice_client.post("/accounts/token/").status_code == 302
    key = Token.objects.get(user=alice).key
    assert key in alice_client.get("/accounts/").content.decode()
    api = Client()
    assert api.get("/api/collection/", HTTP_AUTHORIZATION=f"Token {key}").status_code == 200
    alice_client.post("/accounts/token/")  # a new token replaces the old
    assert api.get("/api/collection/", HTTP_AUTHORIZATION=f"Token {key}").status_code == 401
    alice_client.post("/accounts/token/revoke/")
    assert not Token.objects.filter(user=alice).exists()


def test_account_writes_need_post_and_csrf(alice) -> None:
    client = Client(enforce_csrf_checks=True)
    client.force_login(alice)
    assert client.get("/accounts/token/").status_code == 405
    assert client.post("/accounts/token/").status_code == 403
    assert not Token.objects.filter(user=alice).exists()
