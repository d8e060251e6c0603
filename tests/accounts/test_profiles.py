"""Profiles, follows and notifications (#51): /u/<username>/ with the public decks, likes
received and events played; a hidden profile; following a builder; the bell's notifications
(a comment, a reply, likes gathered, a new public deck of someone followed), each kind turned
off or e-mailed; the Atom feed; the profile's name and bio as writing for others."""

from __future__ import annotations

import json
from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.core import mail
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from people.models import Notification, Profile
from tests.conftest import logged_in
from tests.support.deck_helpers import make_deck

pytestmark = pytest.mark.django_db


def _old(*users) -> None:
    get_user_model().objects.filter(pk__in=[u.pk for u in users]).update(date_joined=timezone.now() - timedelta(days=3))


def test_a_profile_shows_public_decks_likes_and_followers(alice, bob, charlie, english) -> None:
    shown = make_deck(alice, name="蜀漢步兵", public=True)
    make_deck(alice, name="秘密", public=False)
    logged_in(bob).post(f"/api/decks/{shown.pk}/like/")
    logged_in(charlie).post("/u/alice/follow/")
    page = Client().get("/u/alice/").content.decode()
    assert "蜀漢步兵" in page and "秘密" not in page
    assert "1 public deck" in page and "1 like received" in page and "1 follower" in page
    assert Client().get("/u/nobody/").status_code == 404


def test_a_hidden_profile_is_its_owners_alone(alice, bob, english) -> None:
    logged_in(alice).post("/accounts/profile/", {"display_name": "艾莉絲", "bio": "蜀漢玩家", "hidden": "on"})
    assert Client().get("/u/alice/").status_code == 404 and logged_in(bob).get("/u/alice/").status_code == 404
    mine = logged_in(alice).get("/u/alice/").content.decode()
    assert "艾莉絲" in mine and "only you see this page" in mine
    assert logged_in(bob).get("/api/users/alice/").status_code == 404


def test_the_bio_is_escaped_and_bounded(alice, english) -> None:
    _old(alice)
    logged_in(alice).post("/accounts/profile/", {"display_name": "<b>A</b>", "bio": "<script>alert(1)</script>"})
    page = Client().get("/u/alice/").content.decode()
    assert "<script>alert" not in page and "&lt;script&gt;" in page and "<b>A</b>" not in page
    refused = logged_in(alice).post("/accounts/profile/", {"display_name": "x" * 41, "bio": ""})
    assert refused.status_code == 400 and Profile.objects.get(user=alice).display_name == "<b>A</b>"


def test_comments_replies_and_likes_reach_the_bell(alice, bob, charlie, english) -> None:
    _old(alice, bob, charlie)
    deck = make_deck(alice, name="新兵流", public=True)
    logged_in(bob).post(f"/decks/{deck.pk}/comments/", {"body": "好牌"})
    first = deck.comments.get()
    logged_in(charlie).post(f"/decks/{deck.pk}/comments/", {"body": "同意", "parent": str(first.pk)})
    for fan in (bob, charlie):
        logged_in(fan).post(f"/api/decks/{deck.pk}/like/")
    page = logged_in(alice).get("/notifications/").content.decode()
    assert "bob commented on" in page and "charlie commented on" in page
    assert "got 2 likes" in page  # gathered in one
    # the bell's count, in the wide header and the phone's menu alike, read once
    with CaptureQueriesContext(connection) as queries:
        listed = logged_in(alice).get("/decks/").content.decode()
    assert listed.count("3 new") == 2
    assert sum("people_notification" in q["sql"] for q in queries.captured_queries) == 1
    told_bob = logged_in(bob).get("/notifications/").content.decode()
    assert "charlie replied to you" in told_bob
    logged_in(alice).post("/notifications/read/")
    assert not Notification.objects.filter(recipient=alice, read=False).exists()
    logged_in(bob).post(f"/api/decks/{deck.pk}/like/", HTTP_X=1)  # liked already: nothing new
    assert Notification.objects.filter(recipient=alice, read=False).count() == 0


def test_following_a_builder_tells_of_their_new_public_decks_once(
    alice, bob, tasks_run_at_once, django_capture_on_commit_callbacks
) -> None:
    assert logged_in(bob).post("/u/alice/follow/").status_code == 302
    assert logged_in(alice).post("/u/alice/follow/").status_code == 400  # not oneself
    deck = make_deck(alice, name="快攻")
    assert not Notification.objects.filter(recipient=bob).exists()  # private: nothing yet
    form = {"name": "快攻", "format": "standard", "description": "", "tags": ""}
    with django_capture_on_commit_callbacks(execute=True):
        logged_in(alice).post(f"/decks/{deck.pk}/build/", form | {"visibility": "public"})
    assert Notification.objects.filter(recipient=bob, kind="new_deck").count() == 1
    with django_capture_on_commit_callbacks(execute=True):
        logged_in(alice).post(f"/decks/{deck.pk}/build/", form | {"visibility": "private"})
        logged_in(alice).post(f"/decks/{deck.pk}/build/", form | {"visibility": "public"})
    assert Notification.objects.filter(recipient=bob, kind="new_deck").count() == 1  # once
    logged_in(bob).post("/u/alice/follow/", {"action": "unfollow"})
    with django_capture_on_commit_callbacks(execute=True):
        make_deck(alice, name="第二副", public=True)
    assert Notification.objects.filter(recipient=bob, kind="new_deck").count() == 1


def test_a_kind_turned_off_is_not_told_and_one_emailed_is_sent(
    alice, bob, tasks_run_at_once, django_capture_on_commit_callbacks
) -> None:
    _old(alice, bob)
    form = {"display_name": "", "bio": "", "show_events": "on", "in_site": ["reply", "like", "new_deck"]}
    logged_in(alice).post("/accounts/profile/", form | {"emailed": ["like"]})
    deck = make_deck(alice, name="新兵流", public=True)
    logged_in(bob).post(f"/decks/{deck.pk}/comments/", {"body": "好牌"})
    assert not Notification.objects.filter(recipient=alice, kind="comment").exists()
    with django_capture_on_commit_callbacks(execute=True):
        logged_in(bob).post(f"/api/decks/{deck.pk}/like/")
    assert Notification.objects.filter(recipient=alice, kind="like").exists()
    assert len(mail.outbox) == 1 and mail.outbox[0].to == ["alice@example.org"] and "新兵流" in mail.outbox[0].subject


def test_the_feed_lists_public_decks(alice) -> None:
    make_deck(alice, name="蜀漢步兵", public=True)
    make_deck(alice, name="秘密", public=False)
    feed = Client().get("/u/alice/feed/")
    body = feed.content.decode()
    assert feed.status_code == 200 and "application/atom+xml" in feed["Content-Type"]
    assert "蜀漢步兵" in body and "秘密" not in body


def test_a_profile_is_reported_and_hidden_by_staff(alice, bob, charlie, english) -> None:
    _old(alice)
    logged_in(alice).post("/accounts/profile/", {"display_name": "廣告王", "bio": "買卡找我"})
    assert logged_in(bob).post("/u/alice/report/", {"reason": "廣告"}).status_code == 302
    queue = logged_in(charlie).get("/moderation/").content.decode()
    assert "買卡找我" in queue
    profile = Profile.objects.get(user=alice)
    logged_in(charlie).post(f"/moderation/profile/{profile.pk}/", {"action": "hide"})
    page = Client().get("/u/alice/").content.decode()
    assert "買卡找我" not in page and "廣告王" not in page


def test_the_api_shows_a_profile_follows_and_notifications(alice, bob) -> None:
    _old(alice, bob)
    make_deck(alice, name="蜀漢步兵", public=True)
    shown = Client().get("/api/users/alice/").json()
    assert shown["username"] == "alice" and shown["decks"][0]["name"] == "蜀漢步兵" and shown["followers"] == 0
    reader = logged_in(bob)
    assert reader.post("/api/users/alice/follow/").json() == {"following": True}
    assert reader.get("/api/users/alice/").json()["followers"] == 1
    assert reader.delete("/api/users/alice/follow/").json() == {"following": False}
    assert reader.post("/api/users/bob/follow/").status_code == 400
    assert Client().post("/api/users/alice/follow/").status_code == 401
    deck_id = shown["decks"][0]["id"]
    reader.post(f"/api/decks/{deck_id}/comments/", json.dumps({"body": "讚"}), content_type="application/json")
    told = logged_in(alice).get("/api/notifications/").json()
    assert told["unread"] == 1 and told["results"][0]["kind"] == "comment" and "bob" in told["results"][0]["text"]
    assert logged_in(alice).post("/api/notifications/read/").json() == {"unread": 0}
    assert Client().get("/api/notifications/").status_code == 401
