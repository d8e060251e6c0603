"""Comments through the API (#51), and who may do what to a comment, page and API alike: a
visitor, the comment's author, another reader, the deck's owner, staff and a banned user."""

from __future__ import annotations

import json
from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.utils import timezone

from decks.models import Deck, DeckComment
from moderation import rules
from moderation.models import Report
from tests.conftest import PASSWORD, logged_in
from tests.support.deck_helpers import make_deck

pytestmark = pytest.mark.django_db


def _json(client: Client, method: str, url: str, data: object = None):
    body = json.dumps(data) if data is not None else ""
    return getattr(client, method)(url, body, content_type="application/json")


def test_the_api_writes_lists_edits_reports_hides_and_deletes(alice, bob, charlie) -> None:
    deck = make_deck(alice, name="蜀漢步兵", public=True)
    reader, owner = logged_in(bob), logged_in(alice)
    made = _json(reader, "post", f"/api/decks/{deck.pk}/comments/", {"body": "好 [[新兵]]"})
    assert made.status_code == 201, made.content
    comment = made.json()
    assert comment["author"] == "bob" and "/cards/YXJQ-003/" in comment["html"] and comment["replies"] == []
    reply = _json(owner, "post", f"/api/decks/{deck.pk}/comments/", {"body": "謝謝", "parent": comment["id"]}).json()
    listed = Client().get(f"/api/decks/{deck.pk}/comments/").json()
    assert listed["count"] == 2 and [c["id"] for c in listed["results"]] == [comment["id"]]
    assert [r["id"] for r in listed["results"][0]["replies"]] == [reply["id"]]
    assert Client().get(f"/api/decks/{deck.pk}/").json()["comments"] == 2
    edited = _json(reader, "patch", f"/api/comments/{comment['id']}/", {"body": "改過"})
    assert edited.status_code == 200 and edited.json()["body"] == "改過" and edited.json()["edited"]
    assert _json(reader, "post", f"/api/comments/{reply['id']}/report/", {"reason": "?"}).json() == {"reported": True}
    assert _json(owner, "post", f"/api/comments/{comment['id']}/hide/").json() == {"hidden": True}
    assert Client().get(f"/api/decks/{deck.pk}/comments/").json()["count"] == 1
    assert _json(owner, "delete", f"/api/comments/{comment['id']}/hide/").json() == {"hidden": False}
    assert _json(reader, "delete", f"/api/comments/{comment['id']}/").status_code == 204
    after = Client().get(f"/api/decks/{deck.pk}/comments/").json()["results"][0]
    assert after["state"] == "deleted" and after["body"] == "" and after["author"] is None
    assert after["replies"][0]["body"] == "謝謝"


def test_the_api_refuses_bad_input_with_4xx(alice, bob) -> None:
    deck = make_deck(alice, name="蜀漢步兵", public=True)
    reader = logged_in(bob)
    url = f"/api/decks/{deck.pk}/comments/"
    for bad in (
        {},
        {"body": 3},
        {"body": ""},
        {"body": "x" * 5001},
        {"body": "x", "parent": "1"},
        {"body": "x", "parent": 10**30},
    ):
        assert _json(reader, "post", url, bad).status_code == 400, bad
    assert _json(reader, "post", url, {"body": "x", "parent": 999999}).status_code == 400  # no such comment
    for page in ("0", "x", "٣", "9" * 20):
        assert Client().get(f"{url}?page={page}").status_code in (400, 404)
    assert Client().get(f"{url}?page=2").status_code == 404
    private = make_deck(alice, name="秘密", public=False)
    assert _json(reader, "post", f"/api/decks/{private.pk}/comments/", {"body": "x"}).status_code == 404
    assert Client().get(f"/api/decks/{private.pk}/comments/").status_code == 404
    assert DeckComment.objects.count() == 0


def test_the_api_says_when_a_user_writes_too_often(alice, bob) -> None:
    deck = make_deck(alice, name="蜀漢步兵", public=True)
    reader = logged_in(bob)
    codes = [_json(reader, "post", f"/api/decks/{deck.pk}/comments/", {"body": f"{i}"}).status_code for i in range(4)]
    assert codes == [201, 201, 201, 429]


# Who may do what to bob's comment on alice's public deck. Columns: a visitor, bob (the author),
# dora (another reader), alice (the deck's owner), charlie (staff), eve (banned).
ROLES = ("visitor", "author", "reader", "owner", "staff", "banned")
TABLE = [
    ("get", "/decks/{deck}/", None, (200, 200, 200, 200, 200, 200)),
    ("post", "/decks/{deck}/comments/", {"body": "再說一句"}, (302, 302, 302, 302, 302, 403)),
    ("post", "/comments/{comment}/edit/", {"body": "改"}, (302, 302, 404, 404, 404, 404)),
    ("post", "/comments/{comment}/hide/", None, (302, 403, 403, 302, 403, 403)),
    ("post", "/comments/{comment}/report/", None, (302, 302, 302, 302, 302, 302)),
    ("post", "/comments/{comment}/delete/", None, (302, 302, 404, 404, 404, 404)),
    ("get", "/moderation/", None, (302, 404, 404, 404, 200, 404)),
    ("post", "/moderation/deck-comment/{comment}/", {"action": "restore"}, (302, 404, 404, 404, 302, 404)),
    ("get", "/api/decks/{deck}/comments/", None, (200, 200, 200, 200, 200, 200)),
    ("post", "/api/decks/{deck}/comments/", {"body": "再說"}, (401, 201, 201, 201, 201, 403)),
    ("patch", "/api/comments/{comment}/", {"body": "改"}, (401, 200, 404, 404, 404, 404)),
    ("post", "/api/comments/{comment}/hide/", None, (401, 403, 403, 200, 403, 403)),
    ("delete", "/api/comments/{comment}/hide/", None, (401, 403, 403, 200, 403, 403)),
    ("post", "/api/comments/{comment}/report/", {}, (401, 200, 200, 200, 200, 200)),
    ("delete", "/api/comments/{comment}/", None, (401, 204, 404, 404, 404, 404)),
]


@pytest.mark.parametrize("method,url,data,expected", TABLE, ids=[f"{m} {u}" for m, u, _d, _e in TABLE])
def test_who_may_do_what_to_a_comment(method, url, data, expected, alice, bob, charlie) -> None:
    people = get_user_model().objects
    dora = people.create_user("dora", "dora@example.org", PASSWORD)
    eve = people.create_user("eve", "eve@example.org", PASSWORD)
    people.filter(pk__in=[alice.pk, bob.pk, charlie.pk, dora.pk, eve.pk]).update(
        date_joined=timezone.now() - timedelta(days=5)
    )
    deck = make_deck(alice, name="蜀漢步兵", public=True)
    comment = DeckComment.objects.create(deck=deck, author=bob, body="我的看法", body_html="<p>我的看法</p>")
    Deck.objects.filter(pk=deck.pk).update(comment_count=1)
    rules.ban(eve.pk, charlie)
    clients = {
        "visitor": Client(),
        "author": logged_in(bob),
        "reader": logged_in(dora),
        "owner": logged_in(alice),
        "staff": logged_in(charlie),
        "banned": logged_in(eve),
    }
    got = []
    for role in ROLES:
        target = url.format(deck=deck.pk, comment=comment.pk)
        client = clients[role]
        if target.startswith("/api/"):
            answer = _json(client, method, target, data)
        else:
            answer = getattr(client, method)(target, data or {})
        got.append(answer.status_code)
        if answer.status_code == 302 and role == "visitor":
            assert answer["Location"].startswith("/accounts/login/")
    assert tuple(got) == expected
    if "report" in url:
        assert Report.objects.filter(item=comment.pk).count() == 5  # once each, the visitor aside
