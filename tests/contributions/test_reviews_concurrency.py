"""Reviews written and marked helpful at once: real threads, real transactions, on SQLite here
and PostgreSQL in CI. Each count holds every mark once, and one author keeps one review."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone

from contributions.models import Helpful, Review
from tests.conftest import logged_in
from tests.support.concurrency import at_once

pytestmark = pytest.mark.django_db(transaction=True)


def test_helpful_marks_at_once_count_each_reader_once(racer) -> None:
    people = get_user_model().objects
    readers = [people.create_user(f"fan{i}", password="fan-password-long-1") for i in range(4)]
    people.update(date_joined=timezone.now() - timedelta(days=3))
    assert logged_in(racer).post("/cards/YXJQ-003/reviews/mine/", {"body": "好牌"}).status_code == 302
    review = Review.objects.get()

    def mark(reader) -> int:
        return logged_in(reader).post(f"/api/reviews/{review.pk}/helpful/").status_code

    # Four readers at once, then one of them four times more at once: still four marks.
    assert at_once(*[lambda r=r: mark(r) for r in readers]) == [200] * 4
    assert at_once(*[lambda: mark(readers[0])] * 4) == [200] * 4
    assert Review.objects.get(pk=review.pk).helpful_count == 4 == Helpful.objects.count()


def test_one_author_sending_twice_at_once_keeps_one_review(racer) -> None:
    get_user_model().objects.update(date_joined=timezone.now() - timedelta(days=3))

    def send(text: str):
        return lambda: logged_in(racer).post("/cards/YXJQ-003/reviews/mine/", {"body": text}).status_code

    assert at_once(send("第一"), send("第二"), send("第三")) == [302] * 3
    assert Review.objects.count() == 1 and Review.objects.get().body in ("第一", "第二", "第三")
