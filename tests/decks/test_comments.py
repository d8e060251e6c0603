"""Comments on public decks (#51): write, reply one level deep, card links, edit within the
window, delete, the owner's hiding, reports; the rules of writing for others (rate limits,
approval of a new account's links, bans) and what an account's deletion leaves."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.utils import timezone

from decks.models import Deck, DeckComment
from moderation.models import Report
from tests.conftest import logged_in
from tests.support.deck_helpers import make_deck

pytestmark = pytest.mark.django_db


@pytest.fixture
def deck(alice):
    return make_deck(alice, name="蜀漢步兵", public=True)


def _old(user) -> None:
    """An account older than a day: the usual limits, no approval of links."""
    get_user_model().objects.filter(pk=user.pk).update(date_joined=timezone.now() - timedelta(days=3))


def _count(deck: Deck) -> int:
    return Deck.objects.get(pk=deck.pk).comment_count


def _say(client: Client, deck: Deck, body: str, **more):
    return client.post(f"/decks/{deck.pk}/comments/", {"body": body, **more})


def test_a_reader_comments_with_a_card_link_and_everyone_reads_it(deck, bob, english) -> None:
    answer = _say(logged_in(bob), deck, "試試 [[新兵]] 和 [[xinbing]]，還有 [[沒有這張]]。")
    comment = DeckComment.objects.get()
    assert answer.status_code == 302 and answer["Location"] == f"/decks/{deck.pk}/#comment-{comment.pk}"
    page = Client().get(f"/decks/{deck.pk}/").content.decode()
    assert f'id="comment-{comment.pk}"' in page and "1 comment" in page and _count(deck) == 1
    # a card with one printing links its page, its face shown on hover; an unknown name stays text
    assert page.count('href="/cards/YXJQ-003/"') >= 2 and "/cards/YXJQ-003/face.svg" in page
    assert "[[沒有這張]]" in page
    assert "Log in to comment." in page  # a visitor reads, and is asked to log in to write


def test_a_name_several_cards_bear_links_to_the_card_list_of_it() -> None:
    from catalog.cardlinks import render_with_card_links
    from catalog.lookup import catalog_index

    shared = next(key for key, n in catalog_index().printings.items() if n > 1)
    facts = next(f for f in catalog_index().by_code.values() if f.same_name_key == shared)
    html = render_with_card_links(f"[[{facts.name}]]")
    assert 'href="/cards/?q=' in html and facts.name in html


def test_htmx_gets_the_comments_back_in_place(deck, bob) -> None:
    answer = logged_in(bob).post(f"/decks/{deck.pk}/comments/", {"body": "好牌"}, HTTP_HX_REQUEST="true")
    fragment = answer.content.decode()
    assert answer.status_code == 200 and 'id="comments"' in fragment and "<html" not in fragment and "好牌" in fragment


def test_replies_are_one_level_deep(deck, alice, bob) -> None:
    _say(logged_in(bob), deck, "第一則")
    first = DeckComment.objects.get()
    _say(logged_in(alice), deck, "回覆", parent=str(first.pk))
    reply = DeckComment.objects.get(body="回覆")
    _say(logged_in(bob), deck, "回覆的回覆", parent=str(reply.pk))
    assert DeckComment.objects.get(body="回覆的回覆").parent_id == first.pk  # joins the thread
    other = make_deck(alice, name="別的", public=True)
    refused = _say(logged_in(bob), other, "錯的串", parent=str(first.pk))
    assert refused.status_code == 400 and "錯的串" in refused.content.decode()  # kept, in place
    for bad in ("x", "-1", "١", "9" * 40, "\x00"):
        assert _say(logged_in(bob), deck, "亂", parent=bad).status_code == 400
    assert _count(deck) == 3


def test_only_public_decks_take_comments_and_writing_needs_a_login(alice, bob) -> None:
    private = make_deck(alice, name="秘密", public=False)
    assert _say(logged_in(bob), private, "看不到").status_code == 404
    public = make_deck(alice, name="公開", public=True)
    answer = _say(Client(), public, "匿名")
    assert answer.status_code == 302 and answer["Location"].startswith("/accounts/login/")
    assert not DeckComment.objects.exists()


def test_bad_bodies_are_refused_and_the_text_kept(deck, bob, english) -> None:
    for body in ("", "   ", "\x00"):
        assert _say(logged_in(bob), deck, body).status_code == 400
    long = "長" * 5001
    refused = _say(logged_in(bob), deck, long)
    assert refused.status_code == 400 and "at most 5000 characters" in refused.content.decode()
    assert long in refused.content.decode()  # the page again, the comment as typed in its box
    assert not DeckComment.objects.exists()


def test_writing_is_escaped(deck, bob) -> None:
    _say(
        logged_in(bob), deck, "<script>alert(1)</script> [a](javascript:alert(1)) <img src=x onerror=alert(1)> [[<b>]]"
    )
    html = Client().get(f"/decks/{deck.pk}/").content.decode()
    assert "<script>alert" not in html and "javascript:alert" not in html and "onerror=" not in html
    assert "<b>]]" not in html


def test_the_author_edits_within_the_window_then_not(deck, bob, charlie, english) -> None:
    _say(logged_in(bob), deck, "初稿")
    comment = DeckComment.objects.get()
    assert logged_in(bob).post(f"/comments/{comment.pk}/edit/", {"body": "改稿 [[新兵]]"}).status_code == 302
    comment.refresh_from_db()
    assert comment.body == "改稿 [[新兵]]" and "/cards/YXJQ-003/" in comment.body_html and comment.edited
    assert logged_in(charlie).post(f"/comments/{comment.pk}/edit/", {"body": "他人改"}).status_code == 404
    DeckComment.objects.filter(pk=comment.pk).update(created=timezone.now() - timedelta(minutes=16))
    late = logged_in(bob).post(f"/comments/{comment.pk}/edit/", {"body": "太晚"})
    assert late.status_code == 403 and "15 minutes" in late.content.decode()
    assert DeckComment.objects.get().body == "改稿 [[新兵]]"


def test_a_deleted_comment_keeps_its_replies_readable(deck, alice, bob, english) -> None:
    _say(logged_in(bob), deck, "會刪掉的")
    first = DeckComment.objects.get()
    _say(logged_in(alice), deck, "留下的回覆", parent=str(first.pk))
    assert logged_in(alice).post(f"/comments/{first.pk}/delete/").status_code == 404  # not hers
    assert logged_in(bob).post(f"/comments/{first.pk}/delete/").status_code == 302
    page = Client().get(f"/decks/{deck.pk}/").content.decode()
    assert "會刪掉的" not in page and "This comment was deleted." in page and "留下的回覆" in page
    assert _count(deck) == 1


def test_the_owner_hides_a_comment_from_readers(deck, alice, bob, charlie, english) -> None:
    _say(logged_in(bob), deck, "廣告")
    comment = DeckComment.objects.get()
    assert logged_in(charlie).post(f"/comments/{comment.pk}/hide/").status_code == 403
    assert logged_in(alice).post(f"/comments/{comment.pk}/hide/").status_code == 302
    assert "廣告" not in Client().get(f"/decks/{deck.pk}/").content.decode() and _count(deck) == 0
    assert "Hidden by the deck's owner." in logged_in(bob).get(f"/decks/{deck.pk}/").content.decode()
    logged_in(alice).post(f"/comments/{comment.pk}/hide/", {"action": "show"})
    assert "廣告" in Client().get(f"/decks/{deck.pk}/").content.decode() and _count(deck) == 1


def test_a_report_reaches_staff_who_hide_restore_or_ban(deck, alice, bob, charlie, english) -> None:
    _old(bob)
    _say(logged_in(bob), deck, "不好的話")
    comment = DeckComment.objects.get()
    for reporter in (alice, charlie):
        assert logged_in(reporter).post(f"/comments/{comment.pk}/report/", {"reason": "人身攻擊"}).status_code == 302
    logged_in(alice).post(f"/comments/{comment.pk}/report/", {"reason": "again"})  # once per reader
    assert Report.objects.count() == 2
    assert logged_in(alice).get("/moderation/").status_code == 404  # not staff
    queue = logged_in(charlie).get("/moderation/").content.decode()
    assert "不好的話" in queue and "2 reports" in queue and "人身攻擊" in queue
    staff = logged_in(charlie)
    assert staff.post(f"/moderation/deck-comment/{comment.pk}/", {"action": "hide"}).status_code == 302
    assert "不好的話" not in Client().get(f"/decks/{deck.pk}/").content.decode() and _count(deck) == 0
    assert set(Report.objects.values_list("outcome", flat=True)) == {"hidden"}
    staff.post(f"/moderation/deck-comment/{comment.pk}/", {"action": "restore"})
    assert "不好的話" in Client().get(f"/decks/{deck.pk}/").content.decode() and _count(deck) == 1
    assert staff.post(f"/moderation/deck-comment/{comment.pk}/", {"action": "bad"}).status_code == 400
    assert staff.post("/moderation/deck-comment/999999/", {"action": "hide"}).status_code == 404
    assert staff.post("/moderation/no-such-kind/1/", {"action": "hide"}).status_code == 404
    staff.post(f"/moderation/deck-comment/{comment.pk}/", {"action": "ban"})
    assert "不好的話" not in Client().get(f"/decks/{deck.pk}/").content.decode() and _count(deck) == 0
    banned = _say(logged_in(bob), deck, "我又來了")
    assert banned.status_code == 403 and "no longer write" in banned.content.decode()
    assert logged_in(bob).post(f"/decks/{deck.pk}/like/").status_code == 400  # nor like
    assert Deck.objects.get(pk=deck.pk).like_count == 0


def test_a_new_account_writes_three_an_hour_an_older_ten(deck, bob, english) -> None:
    reader = logged_in(bob)
    assert [_say(reader, deck, f"第{i}則").status_code for i in range(4)] == [302, 302, 302, 429]
    _old(bob)
    codes = [_say(reader, deck, f"第{i}則").status_code for i in range(4, 12)]
    assert codes == [302] * 7 + [429]
    refused = reader.post(f"/decks/{deck.pk}/comments/", {"body": "第12則"}, HTTP_HX_REQUEST="true")
    assert refused.status_code == 429 and "At most 10 comments an hour" in refused.content.decode()
    assert "第12則" in refused.content.decode()
    assert DeckComment.objects.count() == 10


def test_a_new_accounts_links_wait_for_approval(deck, bob, charlie, english) -> None:
    _say(logged_in(bob), deck, "買卡 https://a.example http://b.example www.c.example")
    waiting = DeckComment.objects.get()
    assert waiting.state == "pending" and _count(deck) == 0
    assert "a.example" not in Client().get(f"/decks/{deck.pk}/").content.decode()
    assert "Waiting for a moderator" in logged_in(bob).get(f"/decks/{deck.pk}/").content.decode()
    queue = logged_in(charlie).get("/moderation/").content.decode()
    assert "a.example" in queue and "Approve" in queue
    owner = logged_in(deck.owner)
    assert "commented on" not in owner.get("/notifications/").content.decode()  # not news while it waits
    logged_in(charlie).post(f"/moderation/deck-comment/{waiting.pk}/", {"action": "restore"})
    assert "a.example" in Client().get(f"/decks/{deck.pk}/").content.decode() and _count(deck) == 1
    # approved, it is news: the owner hears of it once, however often staff press approve
    logged_in(charlie).post(f"/moderation/deck-comment/{waiting.pk}/", {"action": "restore"})
    told = owner.get("/notifications/").content.decode()
    assert told.count("bob commented on") == 1
    _say(logged_in(bob), deck, "兩個連結 https://a.example https://b.example")
    assert DeckComment.objects.get(body__startswith="兩個").state == "shown"


def test_a_deleted_account_leaves_deleted_and_the_replies(deck, alice, bob, english) -> None:
    _say(logged_in(bob), deck, "我的話")
    first = DeckComment.objects.get()
    _say(logged_in(alice), deck, "回覆留著", parent=str(first.pk))
    bob.delete()
    first.refresh_from_db()
    assert first.author_id is None and first.body == "" and first.state == "deleted"
    page = Client().get(f"/decks/{deck.pk}/").content.decode()
    assert "我的話" not in page and "回覆留著" in page and _count(deck) == 1


def test_the_deck_page_costs_the_same_queries_with_many_comments(deck, bob, django_assert_max_num_queries) -> None:
    _old(bob)
    reader = logged_in(bob)
    _say(reader, deck, "一")
    few = _queries(reader, deck)
    top = DeckComment.objects.get()
    DeckComment.objects.bulk_create(
        [DeckComment(deck=deck, author=bob, body=f"{i}", body_html=f"<p>{i}</p>") for i in range(40)]
        + [DeckComment(deck=deck, author=bob, parent=top, body=f"r{i}", body_html=f"<p>r{i}</p>") for i in range(40)]
    )
    assert _queries(reader, deck) == few


def _queries(client: Client, deck: Deck) -> int:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    with CaptureQueriesContext(connection) as captured:
        assert client.get(f"/decks/{deck.pk}/").status_code == 200
    return len(captured)


def test_the_comments_page_through(deck, bob) -> None:
    DeckComment.objects.bulk_create(
        [DeckComment(deck=deck, author=bob, body=f"第{i}則", body_html=f"<p>第{i}則</p>") for i in range(55)]
    )
    first = Client().get(f"/decks/{deck.pk}/").content.decode()
    assert "第49則" in first and "第50則" not in first and "?comments=2" in first
    second = Client().get(f"/decks/{deck.pk}/?comments=2").content.decode()
    assert "第50則" in second and re.search(r"第1則<", second) is None
