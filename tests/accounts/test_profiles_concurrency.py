"""Follows and reports that two taps can send at once, sent at once: real threads, real
transactions, on SQLite here and PostgreSQL in CI."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

from moderation.models import Report
from people.models import Follow
from tests.conftest import logged_in
from tests.support.concurrency import at_once
from tests.support.deck_helpers import make_deck

pytestmark = pytest.mark.django_db(transaction=True)


def test_four_taps_on_follow_make_one_follow(racer) -> None:
    fan = get_user_model().objects.create_user("fan", password="x-very-long-password-1")
    client = logged_in(fan)
    assert at_once(*[lambda: client.post(f"/u/{racer.username}/follow/").status_code] * 4) == [302] * 4
    assert Follow.objects.filter(follower=fan, followed=racer).count() == 1


def test_four_taps_on_report_make_one_report(racer) -> None:
    from decks import comments

    reader = get_user_model().objects.create_user("reader", password="x-very-long-password-1")
    deck = make_deck(racer, name="公開", public=True)
    said = comments.write(deck, racer, "我的牌")
    client = logged_in(reader)
    answers = at_once(*[lambda: client.post(f"/api/comments/{said.pk}/report/", {}).status_code] * 4)
    assert answers == [200] * 4 and Report.objects.filter(item=said.pk).count() == 1
