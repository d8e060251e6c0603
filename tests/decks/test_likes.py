"""Likes and bookmarks (#51): a like once per reader on another's public deck, its count kept
with the deck; a bookmark keeps any readable deck for later, seen by its keeper alone."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from decks.models import Deck
from tests.conftest import logged_in
from tests.support.deck_helpers import make_deck

pytestmark = pytest.mark.django_db


def _likes(deck: Deck) -> int:
    return Deck.objects.get(pk=deck.pk).like_count


def test_a_reader_likes_a_public_deck_once_and_takes_it_back(alice, bob, english) -> None:
    deck = make_deck(alice, name="蜀漢步兵", public=True)
    reader = logged_in(bob)
    url = f"/decks/{deck.pk}/like/"
    assert reader.post(url).status_code == 302 and _likes(deck) == 1  # without JavaScript: the page again
    answer = reader.post(url, HTTP_HX_REQUEST="true")  # again, by htmx: still one, the fragment back
    fragment = answer.content.decode()
    assert answer.status_code == 200 and _likes(deck) == 1 and 'id="deck-marks"' in fragment
    assert "1 like" in fragment and 'value="unlike"' in fragment and "<html" not in fragment
    assert "1 like" in Client().get(f"/decks/{deck.pk}/").content.decode()  # everyone sees the count
    reader.post(url, {"action": "unlike"})
    assert _likes(deck) == 0


def test_ones_own_deck_and_a_private_one_cannot_be_liked(alice, bob, english) -> None:
    mine = make_deck(alice, name="蜀漢步兵", public=True)
    refused = logged_in(alice).post(f"/decks/{mine.pk}/like/", HTTP_HX_REQUEST="true")
    assert refused.status_code == 400 and "You cannot like your own deck." in refused.content.decode()
    api = logged_in(alice).post(f"/api/decks/{mine.pk}/like/")
    assert api.status_code == 400 and "own deck" in str(api.json())
    private = make_deck(alice, name="秘密", public=False)
    assert logged_in(bob).post(f"/decks/{private.pk}/like/").status_code == 404
    assert logged_in(bob).post(f"/api/decks/{private.pk}/like/").status_code == 404
    assert Client().post(f"/decks/{mine.pk}/like/").status_code == 302  # to log in
    assert Client().post(f"/api/decks/{mine.pk}/like/").status_code == 401
    assert _likes(mine) == 0 and _likes(private) == 0


def test_the_api_likes_and_the_deck_json_says_so(alice, bob) -> None:
    deck = make_deck(alice, name="蜀漢步兵", public=True)
    reader = logged_in(bob)
    assert reader.post(f"/api/decks/{deck.pk}/like/").json() == {"likes": 1, "liked": True}
    assert reader.post(f"/api/decks/{deck.pk}/bookmark/").json() == {"bookmarked": True}
    shown = reader.get(f"/api/decks/{deck.pk}/").json()
    assert (shown["likes"], shown["liked"], shown["bookmarked"]) == (1, True, True)
    listed = reader.get("/api/decks/?public=1").json()["results"][0]
    assert (listed["likes"], listed["liked"], listed["bookmarked"]) == (1, True, True)
    anonymous = Client().get(f"/api/decks/{deck.pk}/").json()
    assert anonymous["likes"] == 1 and "liked" not in anonymous and "bookmarked" not in anonymous
    assert reader.delete(f"/api/decks/{deck.pk}/like/").json() == {"likes": 0, "liked": False}
    assert reader.delete(f"/api/decks/{deck.pk}/like/").json() == {"likes": 0, "liked": False}  # no change


def test_kept_decks_are_their_keepers_alone_and_drop_out_when_made_private(alice, bob, english) -> None:
    deck = make_deck(alice, name="蜀漢步兵", public=True)
    reader = logged_in(bob)
    assert "No saved deck yet" in reader.get("/decks/saved/").content.decode()
    reader.post(f"/decks/{deck.pk}/bookmark/")
    assert "蜀漢步兵" in reader.get("/decks/saved/").content.decode()
    assert [d["name"] for d in reader.get("/api/decks/?saved=1").json()["results"]] == ["蜀漢步兵"]
    assert "蜀漢步兵" not in logged_in(alice).get("/decks/saved/").content.decode()  # bob's list, not hers
    assert Client().get("/api/decks/?saved=1").status_code == 401
    assert Client().get("/decks/saved/").status_code == 302
    Deck.objects.filter(pk=deck.pk).update(visibility="private")
    assert reader.get("/api/decks/?saved=1").json()["results"] == []
    reader.post(f"/decks/{deck.pk}/bookmark/", {"action": "forget"})  # no longer readable: 404, nothing kept
    assert "蜀漢步兵" not in reader.get("/decks/saved/").content.decode()


def test_a_deleted_account_takes_its_likes_away(alice, bob, charlie) -> None:
    deck = make_deck(alice, name="蜀漢步兵", public=True)
    for fan in (bob, charlie):
        logged_in(fan).post(f"/api/decks/{deck.pk}/like/")
    assert _likes(deck) == 2
    bob.delete()
    assert _likes(deck) == 1 == deck.likes.count()


def test_decks_sort_by_most_liked_on_the_page_and_the_api(alice, bob, charlie) -> None:
    quiet = make_deck(alice, name="冷門", public=True)
    loved = make_deck(alice, name="熱門", public=True)
    for fan in (bob, charlie):
        logged_in(fan).post(f"/api/decks/{loved.pk}/like/")
    logged_in(bob).post(f"/api/decks/{quiet.pk}/like/")
    page = Client().get("/decks/?sort=-likes").content.decode()
    assert page.index("熱門") < page.index("冷門")
    rows = re.findall(r'<td class="num">(\d+)</td>\s*<td class="num">\d+</td>\s*</tr>', page)
    assert rows[:2] == ["2", "1"]  # each row says its likes (then its comments)
    api = Client().get("/api/decks/?public=1&sort=-likes").json()["results"]
    assert [(d["name"], d["likes"]) for d in api] == [("熱門", 2), ("冷門", 1)]


def test_the_weeks_score_weighs_each_like_by_its_age(alice, bob, charlie) -> None:
    from datetime import timedelta

    from django.contrib.auth import get_user_model
    from django.utils import timezone

    from decks.likes import recount_week
    from decks.models import DeckLike

    older = make_deck(alice, name="上週熱門", public=True)
    newer = make_deck(alice, name="本週新作", public=True)
    now = timezone.now()
    dora = get_user_model().objects.create_user("dora")
    # older: three likes of 3, 3 and 8 days ago (0.5 + 0.5 + 0); newer: one of today (1).
    for user, days in ((bob, 3), (charlie, 3), (dora, 8)):
        DeckLike.objects.create(deck=older, user=user, at=now - timedelta(days=days))
    DeckLike.objects.create(deck=newer, user=bob, at=now)
    Deck.objects.filter(pk=older.pk).update(likes_week=9)  # a stale score, written over
    assert recount_week(now) == 2
    assert Deck.objects.get(pk=older.pk).likes_week == pytest.approx(1.0)
    assert Deck.objects.get(pk=newer.pk).likes_week == pytest.approx(1.0)
    DeckLike.objects.filter(deck=newer).update(at=now - timedelta(hours=1))
    recount_week(now)  # an hour on, today's like weighs a little less than the two of 3 days
    api = Client().get("/api/decks/?public=1&sort=-likes_week").json()["results"]
    assert [d["name"] for d in api] == ["上週熱門", "本週新作"]
    page = Client().get("/decks/?sort=-likes_week").content.decode()
    assert page.index("上週熱門") < page.index("本週新作")
    recount_week(now + timedelta(days=9))  # a week without likes: every score back to 0
    assert set(Deck.objects.values_list("likes_week", flat=True)) == {0.0}


def test_a_like_counts_this_week_at_once_and_queues_the_hourly_recount(
    alice, bob, charlie, settings, django_capture_on_commit_callbacks
) -> None:
    from django_tasks_db.models import DBTaskResult

    settings.TASKS = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend", "QUEUES": ["default"]}}
    deck = make_deck(alice, name="蜀漢步兵", public=True)
    for fan in (bob, charlie):
        with django_capture_on_commit_callbacks(execute=True):
            logged_in(fan).post(f"/api/decks/{deck.pk}/like/")
    assert Deck.objects.get(pk=deck.pk).likes_week == 2  # each new like weighs 1 at once
    queued = DBTaskResult.objects.filter(task_path="decks.tasks.recount_week_likes", status="READY")
    assert queued.count() == 1  # one recount waiting, however many likes
    assert queued.get().run_after is not None
    logged_in(bob).delete(f"/api/decks/{deck.pk}/like/")
    assert Deck.objects.get(pk=deck.pk).likes_week == pytest.approx(1.0, abs=0.01)  # counted again
