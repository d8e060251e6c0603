"""Reviews of cards (#52): one per card and author, Markdown with card links, edited by writing
again, marked helpful by others (the most helpful first), reported, hidden by staff, stopped by a
ban and the hourly limit, gone with the author's account; page and API alike."""

from __future__ import annotations

import json
from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from contributions.models import Review
from moderation import rules
from moderation.models import Report
from tests.conftest import PASSWORD, logged_in

pytestmark = pytest.mark.django_db

CARD = "YXJQ-003"  # 新兵
PAGE = f"/cards/{CARD}/"


def _old(*users) -> None:
    """Accounts older than a day: the usual limits, no approval of links."""
    ids = [u.pk for u in users]
    get_user_model().objects.filter(pk__in=ids).update(date_joined=timezone.now() - timedelta(days=3))


def _json(client: Client, method: str, url: str, data: object = None):
    body = json.dumps(data) if data is not None else ""
    return getattr(client, method)(url, body, content_type="application/json")


def _write(client: Client, body: str):
    return client.post(f"/cards/{CARD}/reviews/mine/", {"body": body})


def test_a_review_is_written_read_changed_and_deleted(alice, bob, english) -> None:
    _old(alice)
    author = logged_in(alice)
    sent = _write(author, "前期很強，配 [[劉備]] 用。")
    review = Review.objects.get()
    assert sent.status_code == 302 and sent["Location"] == f"{PAGE}#review-{review.pk}"
    page = Client().get(PAGE).content.decode()
    assert f'id="review-{review.pk}"' in page and "前期很強" in page and 'href="/cards/WJ-001/"' in page
    assert "Log in to write a review." in page
    # one review a card: writing again changes it
    _write(author, "改了：中期也行")
    review.refresh_from_db()
    assert Review.objects.count() == 1 and review.body == "改了：中期也行" and review.edited is not None
    assert "Change my review" in author.get(PAGE).content.decode()
    author.post(f"/reviews/{review.pk}/delete/")
    assert not Review.objects.exists()
    # another's review is not theirs to delete
    _write(logged_in(bob), "我的")
    assert logged_in(alice).post(f"/reviews/{Review.objects.get().pk}/delete/").status_code == 404
    assert Review.objects.count() == 1


def test_the_most_helpful_first_and_marks_counted_once(alice, bob, charlie, english) -> None:
    _old(alice, bob, charlie)
    _write(logged_in(alice), "甲的評價")
    _write(logged_in(bob), "乙的評價")
    first, second = Review.objects.order_by("pk")
    reader = logged_in(charlie)
    for _ in range(2):  # pressed twice: counted once
        reader.post(f"/reviews/{second.pk}/helpful/", {"helpful": "1"})
    logged_in(alice).post(f"/reviews/{second.pk}/helpful/", {"helpful": "1"})
    second.refresh_from_db()
    assert second.helpful_count == 2
    page = reader.get(PAGE).content.decode()
    assert page.index("乙的評價") < page.index("甲的評價")  # the most helpful first
    assert 'aria-pressed="true"' in page
    reader.post(f"/reviews/{second.pk}/helpful/", {"helpful": "0"})
    second.refresh_from_db()
    assert second.helpful_count == 1
    # one's own review is not one's to mark
    logged_in(bob).post(f"/reviews/{second.pk}/helpful/", {"helpful": "1"})
    second.refresh_from_db()
    assert second.helpful_count == 1 and first.helpful_count == 0


def test_written_text_is_escaped(alice) -> None:
    _old(alice)
    _write(logged_in(alice), "<script>alert(1)</script><img src=x onerror=alert(2)>\n\n[[新兵]] **粗**")
    page = Client().get(PAGE).content.decode()
    assert "<script>alert(1)" not in page and "onerror" not in page and "<strong>粗</strong>" in page


def test_reports_hiding_bans_and_the_hourly_limit(alice, bob, charlie, english) -> None:
    _old(alice, bob)
    _write(logged_in(alice), "可能有問題的評價")
    review = Review.objects.get()
    logged_in(bob).post(f"/reviews/{review.pk}/report/", {"reason": "廣告"})
    assert Report.objects.get().kind == "card-review"
    queue = logged_in(charlie).get("/moderation/").content.decode()
    assert "可能有問題的評價" in queue
    logged_in(charlie).post(f"/moderation/card-review/{review.pk}/", {"action": "hide"})
    assert "可能有問題的評價" not in Client().get(PAGE).content.decode()
    assert _write(logged_in(alice), "再改").status_code == 403  # hidden by staff: no longer changed
    rules.ban(bob.pk, charlie)
    refused = _write(logged_in(bob), "被封之後")
    assert refused.status_code == 403 and "被封之後" in refused.content.decode()  # what was typed comes back
    assert not Review.objects.filter(author=bob).exists()


def test_a_new_accounts_links_wait_and_the_limit_counts_reviews(alice, bob, charlie) -> None:
    newcomer = logged_in(bob)  # an account of today
    _write(newcomer, "買卡 https://a.example http://b.example www.c.example")
    waiting = Review.objects.get()
    assert waiting.state == "pending" and "a.example" not in Client().get(PAGE).content.decode()
    assert "a.example" in newcomer.get(PAGE).content.decode()  # its author sees it
    logged_in(charlie).post(f"/moderation/card-review/{waiting.pk}/", {"action": "restore"})
    assert "a.example" in Client().get(PAGE).content.decode()
    # a new account writes at most 3 pieces an hour, reviews and comments together
    from tests.support.deck_helpers import make_deck

    deck = make_deck(alice, public=True)
    for text in ("一", "二"):
        newcomer.post(f"/decks/{deck.pk}/comments/", {"body": text})
    assert logged_in(bob).post("/cards/WJ-001/reviews/mine/", {"body": "第四篇"}).status_code == 429


def test_a_deleted_account_takes_its_reviews(alice, bob) -> None:
    _old(alice)
    _write(logged_in(alice), "會消失")
    alice.delete()
    assert not Review.objects.exists() and "會消失" not in Client().get(PAGE).content.decode()


def test_the_api_lists_writes_and_marks(alice, bob) -> None:
    _old(alice, bob)
    made = _json(logged_in(alice), "post", f"/api/cards/{CARD}/reviews/", {"body": "好牌 [[xinbing]]"})
    assert made.status_code == 201, made.content
    review = made.json()
    assert review["author"] == "alice" and review["card"] == CARD and "/cards/YXJQ-003/" in review["html"]
    changed = _json(logged_in(alice), "post", f"/api/cards/{CARD}/reviews/", {"body": "改過"})
    assert changed.status_code == 200 and changed.json()["id"] == review["id"]
    marked = _json(logged_in(bob), "post", f"/api/reviews/{review['id']}/helpful/")
    assert marked.json() == {"helpful": 1, "marked": True}
    listed = _json(logged_in(bob), "get", f"/api/cards/{CARD}/reviews/").json()
    assert [(r["id"], r["helpful"], r["marked"]) for r in listed] == [(review["id"], 1, True)]
    assert Client().get(f"/api/cards/{CARD}/reviews/").json()[0]["marked"] is False
    assert _json(logged_in(bob), "delete", f"/api/reviews/{review['id']}/helpful/").json()["helpful"] == 0
    # bad input of every kind: a 4xx, never a 500
    for body in ({"body": ""}, {"body": 5}, {"body": "x" * 5001}, {"body": "\ud800"}, {}, [1]):
        assert _json(logged_in(bob), "post", f"/api/cards/{CARD}/reviews/", body).status_code == 400
    assert _json(logged_in(bob), "post", "/api/cards/NOPE-1/reviews/", {"body": "x"}).status_code == 404
    assert _json(Client(), "post", f"/api/cards/{CARD}/reviews/", {"body": "x"}).status_code == 401
    assert _json(logged_in(bob), "post", f"/api/reviews/{10**30}/helpful/").status_code == 404
    assert _json(logged_in(alice), "post", f"/api/reviews/{review['id']}/helpful/").status_code == 403


def test_the_card_page_costs_the_same_queries_however_many_reviews(alice, bob) -> None:
    people = get_user_model().objects
    reader = logged_in(bob)

    def count() -> int:
        with CaptureQueriesContext(connection) as queries:
            assert reader.get(PAGE).status_code == 200
        return len(queries)

    Review.objects.create(card_id=_card_pk(), author=alice, body="一", body_html="<p>一</p>")
    few = count()
    for i in range(20):
        writer = people.create_user(f"writer{i}", password=PASSWORD)
        Review.objects.create(card_id=_card_pk(), author=writer, body=f"{i}", body_html=f"<p>{i}</p>")
    assert count() == few


def _card_pk() -> int:
    from catalog.models import Card

    return Card.objects.get(code=CARD).pk


# The author last: their delete would leave the others nothing to try.
ROLES = ("visitor", "reader", "staff", "banned", "author")
# (method, url, expected status per role); {review} is the author's review.
TABLE = [
    ("get", "/cards/{card}/reviews/mine/", (302, 200, 200, 200, 200)),
    ("post", "/reviews/{review}/helpful/", (302, 302, 302, 302, 302)),
    ("post", "/reviews/{review}/report/", (302, 302, 302, 302, 302)),
    ("post", "/reviews/{review}/delete/", (302, 404, 404, 404, 302)),
    ("get", "/api/cards/{card}/reviews/", (200, 200, 200, 200, 200)),
    ("post", "/api/reviews/{review}/helpful/", (401, 200, 200, 403, 403)),
    ("delete", "/api/reviews/{review}/helpful/", (401, 200, 200, 403, 403)),
]


@pytest.mark.parametrize("method,url,expected", TABLE, ids=[f"{m} {u}" for m, u, _e in TABLE])
def test_who_may_do_what_to_a_review(method, url, expected, alice, bob, charlie) -> None:
    people = get_user_model().objects
    eve = people.create_user("eve", "eve@example.org", PASSWORD)
    _old(alice, bob, charlie, eve)
    review = Review.objects.create(card_id=_card_pk(), author=alice, body="我的看法", body_html="<p>我的看法</p>")
    rules.ban(eve.pk, charlie)
    clients = {
        "visitor": Client(),
        "author": logged_in(alice),
        "reader": logged_in(bob),
        "staff": logged_in(charlie),
        "banned": logged_in(eve),
    }
    got = []
    for role in ROLES:
        target = url.format(card=CARD, review=review.pk)
        if target.startswith("/api/"):
            answer = _json(clients[role], method, target)
        else:
            answer = getattr(clients[role], method)(target, {})
        got.append(answer.status_code)
        if answer.status_code == 302 and role == "visitor":
            assert answer["Location"].startswith("/accounts/login/")
        # nothing of another's changes: the author's text stays whatever others do
        assert Review.objects.filter(pk=review.pk).values_list("body", flat=True).first() in ("我的看法", None)
    assert tuple(got) == expected
