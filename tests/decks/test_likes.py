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
    Deck.objects.filter(pk=deck.pk).update(public=False)
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
    rows = re.findall(r'<td class="num">(\d+)</td>\s*</tr>', page)
    assert rows[:2] == ["2", "1"]  # each row says its likes
    api = Client().get("/api/decks/?public=1&sort=-likes").json()["results"]
    assert [(d["name"], d["likes"]) for d in api] == [("熱門", 2), ("冷門", 1)]
