"""The journeys of the walk that found #49's faults, in Chromium at a 360 px phone and a 1280 px
desktop: a collector, a deck builder, an organiser running a 16-player event with a top cut, a
player on the event's link, a play group; and #51's reader, who finds decks by their cards,
likes one, comments and hears of the reply. Each step asserts the state the action
left (and that a refused one kept what was typed); after each, the page is checked as the
layout harness checks every page (tests/support/journey.py): no sideways scroll, no wrapped
short name, every target big enough to tap, no axe violation, no console error.

Each journey runs in one language in CI, rotating (tests/support/journey.py `walks`);
`make test-browser-all` runs each in all three.
"""

from __future__ import annotations

import os
import re
import shutil
from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone
from playwright.sync_api import expect

from tests.support.browser_fixtures import CHROMIUM
from tests.support.decklists import LEGAL_40
from tests.support.journey import Walk, walks

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not shutil.which(CHROMIUM), reason=f"browser tests skipped: no chromium at {CHROMIUM}"),
]

PASSWORD = "a-long-journey-password-7"
# The cavalry class as the search hint writes it to each reader.
CAVALRY = {"zh-hant": "class:騎兵", "zh-hans": "class:骑兵", "en": "class:cavalry"}


# A list as it arrives pasted from a chat app: counts written three ways, a full-width space.
def _chatty(line: str, i: int) -> str:
    count, _space, card = line.partition(" ")
    if not count.isdigit():
        return line  # the general's line as it is
    return (f"{count}x {card}", f"{card}\u3000×{count}", line)[i % 3]


CHAT_LIST = "\n".join(_chatty(line, i) for i, line in enumerate(LEGAL_40.strip().splitlines()))


def _user(username: str):
    return get_user_model().objects.create_user(username, password=PASSWORD)


def collector(walk: Walk) -> None:
    """Sign up, find cards by pinyin, count copies and foils live, see the collection and why
    there is nothing to buy yet."""
    walk.go("/accounts/signup/")
    walk.sign_up(f"collector-{walk.width}", PASSWORD)
    walk.go("/collection/")
    # A new collection says one thing (one message, no "0 cards" beside it, no console error).
    expect(walk.page.locator(".empty-state")).to_have_count(1)
    expect(walk.page.locator(".result-count")).to_have_count(0)
    walk.go("/decks/shopping/")
    expect(walk.page.locator("#nothing-to-buy")).to_be_visible()  # why, and what to do
    walk.go("/cards/")
    assert CAVALRY[walk.language] in walk.page.locator("main").inner_text()  # the hint in my words
    walk.go("/cards/?q=xinbing")
    rows = walk.page.locator("table.cards tbody tr")
    expect(rows).to_have_count(1)
    walk.marker()
    rows.first.locator("button[value=inc]").click()
    walk.page.wait_for_selector('table.cards tbody tr:first-child [data-owned="1"]')
    walk.page.locator("table.cards tbody tr").first.locator("button[value=inc]").click()
    walk.page.wait_for_selector('table.cards tbody tr:first-child [data-owned="2"]')
    walk.page.locator("table.cards tbody tr").first.locator("button[value=inc_foil]").click()
    walk.page.wait_for_selector('table.cards tbody tr:first-child [data-foil="1"]')
    assert walk.same_page()  # counted in place
    walk.step("counted")
    walk.go("/cards/?q=lv+bu")  # 呂布, typed as phones type ü
    expect(walk.page.locator("table.cards tbody tr")).to_have_count(1)
    assert "WJ-008" in walk.page.locator("table.cards tbody").inner_text()  # 呂布 / 吕布 / Lü Bu
    walk.go("/collection/")
    row = walk.page.locator(".own-rows > li").first
    walk.marker()
    row.locator("button[value=inc]").click()
    walk.page.wait_for_selector('.own-rows > li:first-child [data-owned="3"]')
    assert walk.same_page()
    walk.step("collection")
    walk.go("/collection/completion/")
    walk.shoot("completion")


def builder(walk: Walk) -> None:
    """Paste a list from a chat app into a new deck, see it legal, open its picture and export,
    check the exported list, compare it with another deck, find it among my decks."""
    from tests.support.deck_helpers import make_deck

    owner = _user(f"builder-{walk.width}")
    other = make_deck(owner, name="魏國騎兵", general="WJ-002")
    walk.log_in(owner.username, PASSWORD)
    walk.go("/decks/mine/")
    with walk.page.expect_navigation():
        walk.page.click('form[action="/decks/new/"] button')
    assert walk.page.url.endswith("/build/")
    walk.step("new deck")
    walk.page.locator("details.paste-list summary").click()
    walk.page.fill("#id_paste", CHAT_LIST)
    walk.page.locator('form[action$="/paste/"] button').first.click()
    walk.page.wait_for_selector('#verdict[data-legal="true"]')
    walk.step("pasted")
    deck_url = walk.page.url.split("build/", 1)[0]
    walk.go(deck_url.replace(walk.site, ""))
    image = walk.page.request.get(deck_url + "image.png")
    assert image.status == 200 and image.headers["content-type"] == "image/png"
    text = walk.page.request.get(deck_url + "export.txt").text()
    walk.go("/check/")
    walk.page.fill("#id_list", text)
    walk.page.wait_for_selector(".verdict.legal")
    # One line a line: the echo of a 15-line list is not a page of blank space.
    heights = walk.page.eval_on_selector_all(".listing li", "els => els.map(e => e.getBoundingClientRect().height)")
    assert heights and max(heights) < 40, heights
    walk.step("checked")
    walk.go(f"/decks/compare/?a={deck_url.rstrip('/').rsplit('/', 1)[1]}")
    choice = walk.page.locator('select[name="b"]')
    expect(choice.locator(f'option[value="{other.pk}"]')).to_have_count(1)  # my other deck, to pick
    choice.select_option(str(other.pk))
    with walk.page.expect_navigation():
        walk.page.locator("form.compare-choice button").click()
    assert f"b={other.pk}" in walk.page.url
    walk.step("compared")
    walk.go("/decks/mine/")
    edits = walk.page.locator("td.end a.action")
    expect(edits).to_have_count(2)
    for box in [edits.nth(i).bounding_box() for i in range(2)]:
        assert box is not None and box["height"] < 60  # "Edit" on one line, not a letter a line


def organiser(walk: Walk) -> None:
    """Sixteen players, nobody checked in yet: check them in, pair round 1, a refused result
    kept in place, the clock on the projector, Swiss rounds, a drop asked twice, the top cut."""
    from events import day
    from events.models import Event, Match, Player

    owner = _user(f"organiser-{walk.width}")
    event = Event.objects.create(
        organiser=owner, name="台北冬季賽", deadline=timezone.now() + timedelta(days=1), top_cut=8
    )
    for n in range(16):
        day.add_player(event, f"選手{n:02d}", LEGAL_40)
    event.players.update(checked_in=False)  # their lists are in; nobody has come to the desk yet
    walk.log_in(owner.username, PASSWORD)
    day_page = f"/events/{event.pk}/day/"
    walk.go(day_page)
    # Before round 1: who is not checked in and what to do; no "pair" button that would fail,
    # and no standings ranking players who have not played.
    expect(walk.page.locator("#readiness")).to_be_visible()
    expect(walk.page.locator('form[action$="/day/pair/"] button:not([name])')).to_have_count(0)
    expect(walk.page.locator("table.standings")).to_have_count(0)
    with walk.page.expect_navigation():
        walk.page.click('form[action$="/day/check-in/"] button')
    assert Player.objects.filter(event=event, checked_in=True).count() == 16
    pair = walk.page.locator('form[action$="/day/pair/"] button:not([name])')
    expect(pair).to_contain_text("16")  # the button says what it will do
    walk.step("checked in")
    with walk.page.expect_navigation():
        pair.click()
    walk.page.wait_for_selector("table.pairings")
    assert walk.in_view("#round")  # the page opens at the new pairings, not at its top
    assert Match.objects.filter(round__event=event).count() == 8
    walk.step("paired")
    # A refused result answers in place, beside its form, with the score as typed.
    match = Match.objects.filter(round__event=event).order_by("table").first()
    form = walk.page.locator(f'form[action$="/results/{match.pk}/"]')
    form.locator('input[name="wins"]').fill("2")
    form.locator('input[name="losses"]').fill("2")
    walk.marker()
    walk.refused_next()
    form.locator("button").click()
    expect(form.locator(".refusal .error")).to_be_visible()
    assert walk.same_page()
    assert (form.locator('input[name="wins"]').input_value(), form.locator('input[name="losses"]').input_value()) == (
        "2",
        "2",
    )
    walk.step("refused")
    form.locator('input[name="losses"]').fill("1")
    with walk.page.expect_navigation():
        form.locator("button").click()
    assert f"match-{match.pk}" in walk.page.url and walk.in_view(f"#match-{match.pk}")  # the changed table
    walk.step("result")
    # The clock for a projector: the round and the time, full screen, the screen kept awake.
    walk.page.add_init_script(
        "window.__asked = []; Object.defineProperty(navigator, 'wakeLock', {value: {request: (kind) =>"
        " { window.__asked.push('wake:' + kind); return Promise.resolve({}); }}});"
        " Element.prototype.requestFullscreen = function () { window.__asked.push('full'); return Promise.resolve(); };"
    )
    walk.go(f"/t/{event.public_token}/clock/")
    assert walk.page.locator("header, nav, footer").count() == 0
    expect(walk.page.locator(".projector-time")).to_be_visible()
    walk.page.wait_for_function("window.__asked.includes('wake:screen')")
    walk.page.click("button[data-fullscreen]")
    walk.page.wait_for_function("window.__asked.includes('full')")
    # The rest of round 1 and rounds 2-4 as the results come in.
    for number in range(1, 5):
        if number > 1:
            day.pair_next_round(event)
        for m in Match.objects.filter(round__event=event, round__number=number, a_wins__isnull=True):
            if m.player_b_id:
                day.enter_result(m, 2, 0, 0)
        if number == 2:
            # A drop is asked twice: one tap where "check in" was must not end someone's day.
            walk.go(day_page)
            leaving = Player.objects.get(event=event, name="選手15")
            with walk.page.expect_navigation():
                walk.page.click(f'#player-{leaving.pk} button[value="drop"]')
            assert not Player.objects.get(pk=leaving.pk).dropped
            walk.step("drop asked")
            with walk.page.expect_navigation():
                walk.page.click("form.stack-form button.danger")
            assert Player.objects.get(pk=leaving.pk).dropped
    walk.go(day_page)
    leaving = Player.objects.get(event=event, name="選手15")
    expect(walk.page.locator(f"#player-{leaving.pk}.illegal small")).to_have_count(1)  # marked dropped
    with walk.page.expect_navigation():
        walk.page.click('form[action$="/day/pair/"] button[name="top_cut"]')
    # The top cut: its tab is named, and every player carries a seed, 1 to 8.
    expect(walk.page.locator(".round-nav strong[aria-current]")).not_to_have_text(re.compile(r"^\s*5\s*$"))
    seeds = sorted(int(t) for t in walk.page.locator(".bracket .seed").all_inner_texts())
    assert seeds == list(range(1, 9))
    walk.step("top cut")
    walk.go(f"/t/{event.public_token}/")
    expect(walk.page.locator(".bracket .seed")).to_have_count(8)


def player(walk: Walk) -> None:
    """The event's link logged out: which event, whose, sign up and come back; a list pasted
    from a chat app; check in; a drop asked first; my own table first; a refused report kept."""
    from events import day
    from events.models import Event, Player, Report

    host = _user(f"host-{walk.width}")
    event = Event.objects.create(organiser=host, name="週末小賽", deadline=timezone.now() + timedelta(days=1))
    for n in range(3):
        day.add_player(event, f"對手{n}", LEGAL_40)
    link = f"/e/{event.token}/"
    walk.go(link)
    main = walk.page.locator("main").inner_text()
    assert "週末小賽" in main and host.username in main  # not a bare login
    with walk.page.expect_navigation():
        walk.page.click('.invitation-actions a[href^="/accounts/signup/"]')
    walk.step("sign up")
    walk.sign_up(f"player-{walk.width}", PASSWORD)
    assert walk.page.url.endswith(link)  # back at the event's link
    walk.step("back at the link")
    walk.page.fill("#id_player_name", "王小明")
    walk.page.fill("#id_list", CHAT_LIST)
    with walk.page.expect_navigation():
        walk.page.click("form.stack-form button[type=submit]")
    walk.page.wait_for_selector('.verdict[data-legal="true"]')
    walk.step("list sent")
    Event.objects.filter(pk=event.pk).update(checkin_open=True)
    walk.go(link)
    with walk.page.expect_navigation():
        walk.page.click(f'form[action$="{link}check-in/"] button')
    me = Player.objects.get(event=event, user__username=f"player-{walk.width}")
    assert me.checked_in
    with walk.page.expect_navigation():
        walk.page.click(f'form[action$="{link}drop/"] button')
    expect(walk.page.locator("form.stack-form button.danger")).to_be_visible()  # asked first
    assert not Player.objects.get(pk=me.pk).dropped
    walk.step("drop asked")
    event.players.update(checked_in=True)
    day.pair_next_round(event)
    walk.go(link)
    # My own table comes first: the match section before the list.
    order = walk.page.eval_on_selector_all("main section, main form", "els => els.map(e => e.className)")
    assert order[0] == "my-match", order
    report = walk.page.locator(f'form[action$="{link}report/"]')
    report.locator('input[name="wins"]').fill("2")
    report.locator('input[name="losses"]').fill("2")
    walk.refused_next()
    with walk.page.expect_navigation():
        report.locator("button").click()
    report = walk.page.locator(f'form[action$="{link}report/"]')
    expect(report.locator("#refused")).to_be_visible()  # the reason in the form, the score kept
    assert report.locator('input[name="wins"]').input_value() == "2"
    walk.step("report refused")
    report.locator('input[name="losses"]').fill("1")
    with walk.page.expect_navigation():
        report.locator("button").click()
    assert Report.objects.filter(player=me).count() == 1


def group(walk: Walk) -> None:
    """A play group: its name once per owner, the invite link logged out, a league game logged
    and confirmed, and the league's tables lined up on the screen."""
    from django.test import Client

    from decks.services import set_groups
    from groups.models import Group
    from tests.support.deck_helpers import make_deck

    owner = _user(f"owner-{walk.width}")
    friend = _user(f"friend-{walk.width}")
    walk.log_in(owner.username, PASSWORD)
    walk.go("/groups/")
    walk.page.fill("#id_name", "週五三國夜")
    with walk.page.expect_navigation():
        walk.page.click("form.stack-form button")
    made = Group.objects.get(owner=owner)
    walk.go("/groups/")
    walk.page.fill("#id_name", "週五三國夜")
    walk.refused_next()
    with walk.page.expect_navigation():
        walk.page.click("form.stack-form button")
    assert Group.objects.filter(owner=owner).count() == 1  # the same name twice is refused
    expect(walk.page.locator(".errorlist")).to_be_visible()
    assert walk.page.input_value("#id_name") == "週五三國夜"  # and kept to change
    walk.step("same name refused")
    # The invite link, opened by someone logged out: which group, whose, and both ways in.
    visitor = Client()
    invitation = visitor.get(f"/groups/join/{made.invite}/").content.decode()
    assert "週五三國夜" in invitation and owner.username in invitation and "/accounts/signup/" in invitation
    visitor.force_login(friend)
    assert visitor.post(f"/groups/join/{made.invite}/").status_code == 302
    deck = make_deck(owner, name="蜀漢步兵速攻流派二零二六冬季版")
    theirs = make_deck(friend, name="魏國騎兵", general="WJ-002")
    set_groups(deck, [made])
    set_groups(theirs, [made])
    walk.go(f"/groups/{made.pk}/")
    form = walk.page.locator(f'form[action="/groups/{made.pk}/games/"]')
    form.locator('select[name="opponent"]').select_option(friend.username)
    form.locator('input[name="result"][value="me"]').check()
    form.locator('select[name="my_deck"]').select_option(str(deck.pk))
    form.locator('select[name="their_deck"]').select_option(str(theirs.pk))
    with walk.page.expect_navigation():
        form.locator("button").click()
    walk.step("game logged")
    from league.models import Game

    game = Game.objects.get()
    friend_client = Client()
    friend_client.force_login(friend)
    assert friend_client.post(f"/groups/{made.pk}/games/{game.pk}/confirm/").status_code == 302
    walk.go(f"/groups/{made.pk}/")
    # The three league tables: the same columns at the same places, inside the screen.
    lefts = walk.page.eval_on_selector_all(
        "table.league",
        "ts => ts.map(t => [...t.querySelectorAll('thead th')].map(th => Math.round(th.getBoundingClientRect().left)))",
    )
    assert len(lefts) == 3 and lefts[0] == lefts[1] == lefts[2], lefts
    rights = walk.page.eval_on_selector_all("table.league", "ts => ts.map(t => t.getBoundingClientRect().right)")
    assert max(rights) <= walk.px


def reader(walk: Walk) -> None:
    """#51's walk: search the public decks that play 新兵 and not 火攻, like one, comment on it,
    and hear of the author's reply in the bell."""
    from django.test import Client

    from decks import comments
    from decks.models import Deck, DeckComment
    from tests.support.deck_helpers import LEGAL_MAIN, make_deck

    author = _user(f"author-{walk.width}")
    reader_user = _user(f"reader-{walk.width}")
    get_user_model().objects.filter(pk__in=[author.pk, reader_user.pk]).update(
        date_joined=timezone.now() - timedelta(days=30)
    )
    plain = make_deck(author, name="蜀漢步兵", public=True)  # 新兵 ×3, no 火攻
    fire = dict(LEGAL_MAIN, **{"YXJQ-010": 3})  # 火攻 ×3 too
    make_deck(author, name="火攻流", public=True, general="WJ-002", main=fire)
    walk.log_in(reader_user.username, PASSWORD)
    walk.go("/decks/")
    walk.page.locator('input[name="card"]').first.fill("新兵")
    walk.page.locator('input[name="without"]').first.fill("火攻")
    with walk.page.expect_navigation():
        walk.page.locator("form.filters button").last.click()
    walk.step("searched by cards")
    rows = walk.page.locator("table.cards tbody tr")
    expect(rows).to_have_count(1)
    expect(rows.first).to_contain_text("蜀漢步兵")
    assert "card=%E6%96%B0%E5%85%B5" in walk.page.url and "without=" in walk.page.url  # a link to share
    with walk.page.expect_navigation():
        rows.first.locator("a").first.click()
    walk.step("the deck")
    # Like it: htmx puts the likes back in place, the page stays.
    walk.marker()
    walk.page.locator('#deck-marks button[name="action"][value="like"]').click()
    expect(walk.page.locator('#deck-marks button[value="unlike"]')).to_be_visible()
    assert walk.same_page() and Deck.objects.get(pk=plain.pk).like_count == 1
    walk.step("liked")
    # Comment, with a card link: the comment comes back in place, linked.
    walk.page.fill("#comment-body", "三張 [[新兵]] 剛好，[[xinbing]] 前期很穩。")
    walk.page.locator("form.comment-form button").click()
    mine = walk.page.locator("article.comment").first
    expect(mine).to_contain_text("剛好")
    expect(mine.locator('a.card-link[href="/cards/YXJQ-003/"]').first).to_be_visible()
    assert walk.same_page()
    walk.step("commented")
    said = DeckComment.objects.get(author=reader_user)
    # The author replies; the reader's bell counts it, and the notification leads back.
    comments.write(Deck.objects.get(pk=plain.pk), author, "謝謝！火攻我試過，太慢。", said.pk)
    walk.go("/decks/")
    expect(walk.page.locator(".bell .badge").first).to_be_attached()
    walk.go("/notifications/")
    told = walk.page.locator("ol.notifications li.unread a").first
    expect(told).to_contain_text(author.username)
    with walk.page.expect_navigation():
        told.click()
    expect(walk.page.locator("ol.replies")).to_contain_text("太慢")
    walk.step("the reply, from the bell")
    visitor = Client()
    assert "太慢" in visitor.get(f"/decks/{plain.pk}/").content.decode()  # everyone reads the thread


JOURNEYS = {
    "collector": collector,
    "builder": builder,
    "organiser": organiser,
    "player": player,
    "group": group,
    "reader": reader,
}


@pytest.mark.parametrize(("journey", "width", "language"), walks(list(JOURNEYS)))
def test_journey(site: str, browser, journey: str, width: str, language: str) -> None:
    walk = Walk(browser, site, width, language, journey)
    JOURNEYS[journey](walk)
    walk.done()


def test_every_run_walks_each_language_at_each_width() -> None:
    runs = walks(list(JOURNEYS))
    languages = 3 if os.environ.get("JOURNEY_LANGUAGES") == "all" else 1  # make test-browser-all: each in all
    assert len(runs) == 2 * len(JOURNEYS) * languages
    for width in ("phone", "desktop"):
        assert {language for _journey, w, language in runs if w == width} == {"zh-hant", "zh-hans", "en"}
