"""Deck writes that two tabs can make at once, made at once: real threads, real transactions, on
SQLite here and PostgreSQL in CI. Each fails without its row lock."""

from __future__ import annotations

import json

import pytest

from decks.models import Deck
from decks.services import snapshot_of
from tests.conftest import logged_in
from tests.support.concurrency import at_once
from tests.support.deck_helpers import make_deck

pytestmark = pytest.mark.django_db(transaction=True)


def test_ten_plus_ones_on_one_builder_line_all_land(racer) -> None:
    deck = make_deck(racer, main={"YXJQ-003": 1})

    def plus_one() -> int:
        response = logged_in(racer).post(f"/decks/{deck.pk}/change/", {"action": "inc", "card": "YXJQ-003"})
        return response.status_code

    assert at_once(*[plus_one] * 10) == [302] * 10
    assert snapshot_of(Deck.objects.get(pk=deck.pk)).main["YXJQ-003"] == 11


def test_a_name_patch_racing_a_cards_patch_keeps_both(racer) -> None:
    deck = make_deck(racer, main={"YXJQ-003": 1})
    url = f"/api/decks/{deck.pk}/"

    def rename() -> int:
        return logged_in(racer).patch(url, json.dumps({"name": "新名"}), content_type="application/json").status_code

    def recard() -> int:
        body = json.dumps({"cards": [{"card": "YXJQ-003", "count": 3}]})
        return logged_in(racer).patch(url, body, content_type="application/json").status_code

    for _ in range(3):
        assert at_once(rename, recard) == [200, 200]
        saved = snapshot_of(Deck.objects.get(pk=deck.pk))
        assert saved.name == "新名" and saved.main == {"YXJQ-003": 3}
        Deck.objects.filter(pk=deck.pk).update(name="舊名")


def test_two_tabs_building_a_deck_while_its_cards_change_set_aside_one_true_allocation(racer) -> None:
    from collection.models import AllocatedCard, Allocation

    deck = make_deck(racer, main={"YXJQ-003": 1}, general=None)
    url = f"/api/decks/{deck.pk}/"

    def build() -> int:
        return logged_in(racer).patch(url, json.dumps({"built": True}), content_type="application/json").status_code

    def plus_one() -> int:
        return logged_in(racer).post(f"/decks/{deck.pk}/change/", {"action": "inc", "card": "YXJQ-003"}).status_code

    assert sorted(at_once(build, build, plus_one, plus_one)) == [200, 200, 302, 302]
    assert Allocation.objects.filter(user=racer).count() == 1
    held = AllocatedCard.objects.get(allocation__user=racer)
    assert held.copies == snapshot_of(Deck.objects.get(pk=deck.pk)).main["YXJQ-003"] == 3


def test_likes_at_once_count_each_reader_once(racer) -> None:
    from django.contrib.auth import get_user_model

    deck = make_deck(racer, name="人氣牌庫", public=True)
    readers = [get_user_model().objects.create_user(f"fan{i}", password="x-very-long-password-1") for i in range(4)]

    def like(reader) -> int:
        return logged_in(reader).post(f"/api/decks/{deck.pk}/like/").status_code

    # Four readers at once, then one of them four times more at once: still four likes.
    assert at_once(*[lambda r=r: like(r) for r in readers]) == [200] * 4
    assert at_once(*[lambda: like(readers[0])] * 4) == [200] * 4
    assert Deck.objects.get(pk=deck.pk).like_count == 4 == deck.likes.count()


def test_comments_written_and_hidden_at_once_keep_the_count(racer) -> None:
    from django.contrib.auth import get_user_model

    from decks.models import DeckComment

    deck = make_deck(racer, name="熱烈討論", public=True)
    readers = [get_user_model().objects.create_user(f"talker{i}", password="x-very-long-password-1") for i in range(4)]

    def say(reader) -> int:
        answer = logged_in(reader).post(
            f"/api/decks/{deck.pk}/comments/", json.dumps({"body": "我也覺得"}), content_type="application/json"
        )
        return answer.status_code

    # Four readers at once: each comment counted (the deck's row lock orders the recounts).
    assert at_once(*[lambda r=r: say(r) for r in readers]) == [201] * 4
    assert Deck.objects.get(pk=deck.pk).comment_count == 4
    first, second = DeckComment.objects.order_by("pk")[:2]

    def hide(comment) -> int:
        return logged_in(racer).post(f"/api/comments/{comment.pk}/hide/").status_code

    # The owner hides one while its author deletes another, and a fifth reader writes.
    fifth = get_user_model().objects.create_user("talker5", password="x-very-long-password-1")
    delete = lambda: logged_in(second.author).delete(f"/api/comments/{second.pk}/").status_code  # noqa: E731
    assert sorted(at_once(lambda: hide(first), delete, lambda: say(fifth))) == [200, 201, 204]
    assert Deck.objects.get(pk=deck.pk).comment_count == 3
