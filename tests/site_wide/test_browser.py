"""End to end in Debian's chromium, driven by Playwright, against a live server.

Skipped (with a clear reason) where /usr/bin/chromium is missing; .ci/run installs it, so CI
always runs these. Screenshots of the main pages at phone and desktop widths go to
test-artifacts/screenshots/.
"""

from __future__ import annotations

import re
import shutil

import pytest
from playwright.sync_api import expect

from tests.support.browser_fixtures import ARTIFACTS, CHROMIUM, DESKTOP, PHONE
from tests.support.decklists import LEGAL_40

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not shutil.which(CHROMIUM), reason=f"browser tests skipped: no chromium at {CHROMIUM}"),
]


@pytest.fixture
def page(browser):
    context = browser.new_context(viewport=DESKTOP, locale="zh-TW")
    page = context.new_page()
    problems: list[str] = []
    # Anything the Content-Security-Policy blocks, and any script error, fails the test.
    page.on("console", lambda m: problems.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: problems.append(str(e)))
    yield page
    context.close()
    assert problems == [], problems


def shoot(page, name: str) -> None:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    for label, size in (("phone", PHONE), ("desktop", DESKTOP)):
        page.set_viewport_size(size)
        page.screenshot(path=str(ARTIFACTS / f"{name}-{label}.png"), full_page=True)


def test_browse_filter_and_search_the_catalogue_without_reloads(site: str, page) -> None:
    page.goto(f"{site}/cards/")
    assert page.locator("table.cards tbody tr").count() == 60
    shoot(page, "card-list")
    page.evaluate("window.__marker = 'same page'")
    page.fill("#id_q", "liubei")
    expect(page.locator("table.cards tbody tr")).to_have_count(1)
    assert "劉備" in page.locator("table.cards tbody").inner_text()
    assert page.evaluate("window.__marker") == "same page"  # htmx swapped the results, no reload
    assert "q=liubei" in page.url  # and the search is in the URL, to share

    page.goto(f"{site}/cards/?set=YXJQ&kind=tactic")
    assert page.locator("table.cards tbody tr").count() == 4


def test_open_a_card(site: str, page) -> None:
    page.goto(f"{site}/cards/?q=新兵")
    page.click("table.cards tbody tr:first-child a")
    page.wait_for_url("**/cards/YXJQ-003/")
    assert "銅★" in page.content()
    shoot(page, "card-detail")
    page.goto(f"{site}/sets/YXJQ/")
    shoot(page, "set-detail")


def test_paste_a_list_into_the_checker_and_see_the_verdict_live(site: str, page) -> None:
    page.goto(f"{site}/check/")
    page.fill("#id_list", "武將: 劉備\n3 新兵\n4 酒")
    page.wait_for_selector(".verdict.illegal")
    assert page.locator('[data-code="too_many_copies"]').count() == 1
    page.fill("#id_list", LEGAL_40)
    page.wait_for_selector(".verdict.legal")
    shoot(page, "check-deck")


def test_the_checker_echoes_a_list_one_line_a_line_on_a_phone(browser, site: str) -> None:
    # Each echoed line was about 72 px tall (the template's own line breaks kept), a 15-line list
    # a 4,000 px page: a line of the list is now one line on the screen.
    context = browser.new_context(viewport=PHONE, locale="zh-TW")
    page = context.new_page()
    page.goto(f"{site}/check/")
    page.fill("#id_list", LEGAL_40)
    page.wait_for_selector(".verdict.legal")
    heights = page.eval_on_selector_all("ol.listing li", "items => items.map(li => li.getBoundingClientRect().height)")
    line = page.eval_on_selector("ol.listing", "el => parseFloat(getComputedStyle(el).lineHeight)")
    assert len(heights) == len(LEGAL_40.strip().splitlines())
    assert max(heights) < 1.5 * line, (heights, line)
    context.close()


def test_the_checker_works_without_javascript(browser, site: str) -> None:
    context = browser.new_context(java_script_enabled=False, viewport=PHONE)
    page = context.new_page()
    page.goto(f"{site}/check/")
    page.fill("#id_list", LEGAL_40)
    page.click("#check-form button[type=submit]")
    page.wait_for_selector(".verdict.legal")
    context.close()


@pytest.mark.parametrize(
    "path",
    [
        "/",
        "/cards/",
        "/cards/?view=grid",
        "/cards/WJ-001/",
        "/sets/WD/",
        "/check/",
        "/accounts/signup/",
        "/decks/",
        "/cards/syntax/",
    ],
)
def test_main_pages_fit_a_phone_screen(site: str, page, path: str) -> None:
    page.set_viewport_size(PHONE)
    page.goto(f"{site}{path}")
    # nothing wider than the screen: no sideways scrolling of the whole page on a phone
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")
    if path == "/":
        shoot(page, "home")
    if path == "/cards/?view=grid":
        shoot(page, "card-grid")
    if path == "/cards/WJ-001/":
        shoot(page, "general")


@pytest.mark.parametrize("javascript", [True, False])
def test_the_logged_in_phone_header_is_one_row_with_a_menu(site: str, browser, javascript: bool) -> None:
    # It took three rows (130 px) of links on a 360 px phone; the links and the language are now
    # behind "Menu" (a details element: it opens without JavaScript too).
    from django.contrib.auth import get_user_model

    user, _made = get_user_model().objects.get_or_create(username="header-user")
    user.set_password("a-long-browser-password-42")
    user.save()
    context = browser.new_context(viewport=PHONE, locale="zh-TW", java_script_enabled=javascript)
    page = context.new_page()
    page.goto(f"{site}/accounts/login/")
    page.fill("#id_username", "header-user")
    page.fill("#id_password", "a-long-browser-password-42")
    page.locator("main form button[type=submit]").click()
    page.wait_for_load_state()
    header = page.locator("header.site-header")
    assert header.bounding_box()["height"] <= 64
    assert not page.locator("header nav.main-nav").is_visible()
    menu = page.locator("details.phone-menu > summary")
    box = menu.bounding_box()
    assert box["height"] >= 44 and box["width"] >= 44  # a primary control: 44 px
    menu.click()
    links = page.locator("nav.menu-nav a")
    expect(links.first).to_be_visible()
    assert links.count() >= 8  # cards, sets, decks, check, my decks, collection, events, groups, account
    for i in range(links.count()):
        assert links.nth(i).bounding_box()["height"] >= 44
    expect(page.locator("#lang-select-menu")).to_be_visible()
    page.set_viewport_size(DESKTOP)
    expect(page.locator("header nav.main-nav")).to_be_visible()
    expect(page.locator("details.phone-menu")).to_be_hidden()
    context.close()


def test_sign_up_and_count_cards_without_reloads(site: str, page) -> None:
    page.goto(f"{site}/accounts/signup/")
    page.fill("#id_username", "browser-user")
    page.fill("#id_password1", "a-long-browser-password-42")
    page.fill("#id_password2", "a-long-browser-password-42")
    page.click("form.stack-form button[type=submit]")
    page.wait_for_url("**/collection/")
    page.goto(f"{site}/cards/?q=新兵")
    page.evaluate("window.__marker = 'same page'")
    row = page.locator("table.cards tbody tr").first
    row.locator("button[value=inc]").click()
    page.wait_for_selector('table.cards tbody tr:first-child [data-owned="1"]')
    row = page.locator("table.cards tbody tr").first
    row.locator("button[value=inc]").click()
    page.wait_for_selector('table.cards tbody tr:first-child [data-owned="2"]')
    page.locator("table.cards tbody tr").first.locator("button[value=inc_foil]").click()
    page.wait_for_selector('table.cards tbody tr:first-child [data-foil="1"]')
    assert page.evaluate("window.__marker") == "same page"  # htmx: no reload
    shoot(page, "card-list-logged-in")
    page.goto(f"{site}/collection/")
    # My collection: one compact row a card, its steppers live too.
    row = page.locator(".own-rows > li").first
    assert "新兵" in row.inner_text()
    page.evaluate("window.__marker = 'same page'")
    row.locator("button[value=inc]").click()
    page.wait_for_selector('.own-rows > li:first-child [data-owned="3"]')
    assert page.evaluate("window.__marker") == "same page"
    page.goto(f"{site}/collection/completion/")
    shoot(page, "completion")


def test_build_a_deck_until_legal_export_it_and_check_it(site: str, browser) -> None:
    from django.contrib.auth import get_user_model

    from tests.support.deck_helpers import LEGAL_MAIN

    get_user_model().objects.create_user("builder", password="a-long-builder-password-7")
    context = browser.new_context(viewport=DESKTOP, locale="zh-TW")
    page = context.new_page()
    page.goto(f"{site}/accounts/login/")
    page.fill("#id_username", "builder")
    page.fill("#id_password", "a-long-builder-password-7")
    page.click("form.stack-form button[type=submit]")
    page.goto(f"{site}/decks/mine/")
    page.click("text=新牌庫")
    page.wait_for_url("**/build/")
    page.evaluate("window.__marker = 'same page'")
    page.fill("#builder-search #id_q", "liubei")
    page.wait_for_selector('#search-results button[value="general"]')
    page.click('#search-results button[value="general"]')
    page.wait_for_selector(".general-choice >> text=劉備")
    codes = list(LEGAL_MAIN.items())
    for code, count in codes:
        page.fill("#builder-search #id_q", code)
        page.wait_for_selector(f'#search-results li:has-text("{code}") button[value="inc"]')
        for _ in range(count):
            before = page.locator("#verdict").inner_text()
            page.click(f'#search-results li:has-text("{code}") button[value="inc"]')
            expect(page.locator("#verdict")).not_to_have_text(before)
    page.wait_for_selector('#verdict[data-legal="true"]')
    assert page.evaluate("window.__marker") == "same page"  # every change without a reload
    shoot(page, "builder")
    deck_url = page.url.replace("/build/", "/")
    page.goto(deck_url)
    shoot(page, "deck")
    text = page.request.get(deck_url + "export.txt").text()
    page.goto(f"{site}/check/")
    page.fill("#id_list", text)
    page.wait_for_selector(".verdict.legal")
    page.goto(deck_url + "sheet/")
    shoot(page, "registration-sheet")
    pdf = page.pdf(format="A4", print_background=True)  # what the browser's "save as PDF" gives
    (ARTIFACTS / "registration-sheet.pdf").write_bytes(pdf)
    assert len(re.findall(rb"/Type\s*/Page[^s]", pdf)) == 1  # one A4 page
    context.close()


def test_a_forty_card_deck_on_a_phone_in_fewer_than_twenty_taps(site: str, browser) -> None:
    """A full playset is one tap (×3) and the general one search and one tap: counted here, a
    typed search as one tap, pasting not used."""
    context, page = log_in(browser, site, "quick", PHONE)
    taps = 0

    def tap(selector: str) -> None:
        nonlocal taps
        taps += 1
        before = page.locator("#verdict").inner_text() if page.locator("#verdict").count() else ""
        page.click(selector)
        if before:
            expect(page.locator("#verdict")).not_to_have_text(before)

    page.goto(f"{site}/decks/mine/")
    taps += 1
    page.click("text=新牌庫")
    page.wait_for_url("**/build/")
    taps += 1  # the typed search
    page.fill("#builder-search #id_q", "liubei")
    page.wait_for_selector('#search-results button[value="general"]')
    tap('#search-results button[value="general"]')
    expect(page.locator(".general-select select")).to_have_value("WJ-001")  # the list follows the choice
    page.fill("#builder-search #id_q", "")
    page.wait_for_selector("#search-results li:nth-child(14) button[value=playset]")
    for n in range(1, 14):
        tap(f"#search-results li:nth-child({n}) button[value=playset]")
    tap("#search-results li:nth-child(14) button[value=inc]")
    page.wait_for_selector('#verdict[data-legal="true"]')
    assert taps < 20, taps
    # A count typed in a line is sent as it is; − and + still step it.
    first = page.locator(".deck-lines input.n").first
    first.fill("2")
    first.press("Enter")
    page.wait_for_selector('#verdict[data-legal="false"]')
    page.locator(".deck-lines li").first.locator("button[value=inc]").click()
    page.wait_for_selector('#verdict[data-legal="true"]')
    page.screenshot(path=str(ARTIFACTS / "phone-builder-40.png"), full_page=False)
    context.close()


def wait_drawn(page, selector: str) -> None:
    """Wait until the first image matching `selector` has arrived and been decoded.

    Why: `naturalWidth` is 0 while a picture is still on its way; on a busy CI machine the
    page's load event can come before it, so reading it at once is a race.
    """
    page.wait_for_function(
        "s => { const i = document.querySelector(s); return !!i && i.complete && i.naturalWidth > 0 }",
        arg=selector,
        timeout=10_000,
    )


def log_in(browser, site: str, username: str, viewport: dict[str, int] = DESKTOP):
    from django.contrib.auth import get_user_model

    password = f"a-long-{username}-password-9"
    get_user_model().objects.create_user(username, password=password)
    context = browser.new_context(viewport=viewport, locale="zh-TW")
    page = context.new_page()
    page.goto(f"{site}/accounts/login/")
    page.fill("#id_username", username)
    page.fill("#id_password", password)
    page.click("form.stack-form button[type=submit]")
    page.wait_for_url(lambda url: "/login/" not in url)
    return context, page


def test_an_event_from_its_link_to_the_printed_sheets(site: str, browser) -> None:
    from datetime import timedelta

    from django.contrib.auth import get_user_model
    from django.utils import timezone

    from events import services
    from events.models import Event
    from tests.support.decklists import ILLEGAL

    organiser, page = log_in(browser, site, "olga")
    page.goto(f"{site}/events/new/")
    page.fill("#id_name", "台北冬季賽")
    page.fill("#id_deadline", timezone.localtime(timezone.now() + timedelta(days=1)).strftime("%Y-%m-%dT%H:%M"))
    page.click("form.stack-form button[type=submit]")
    page.wait_for_selector(".share-url")
    link = page.input_value(".share-url")

    player, phone = log_in(browser, site, "pete", PHONE)
    phone.goto(link)
    phone.fill("#id_player_name", "王小明")
    phone.fill("#id_list", LEGAL_40)
    phone.click("form.stack-form button[type=submit]")
    phone.wait_for_selector('.verdict[data-legal="true"]')
    phone.screenshot(path=str(ARTIFACTS / "event-submitted-phone.png"), full_page=True)
    player.close()

    event = Event.objects.get()
    charlie = get_user_model().objects.create_user("charlie-player")
    services.submit(event, charlie, "查理", ILLEGAL)
    page.reload()
    assert page.locator("table.batch tr.legal").count() == 1 and page.locator("table.batch tr.illegal").count() == 1
    shoot(page, "event")
    page.click("text=鎖定名單")
    page.click("form.stack-form button.danger")  # the second step: locking is for good
    page.wait_for_selector(".event-state strong.bad")
    page.goto(f"{site}/events/{event.pk}/sheets/")
    pdf = page.pdf(format="A4", print_background=True)
    (ARTIFACTS / "event-sheets.pdf").write_bytes(pdf)
    assert len(re.findall(rb"/Type\s*/Page[^s]", pdf)) == 2  # one A4 page a player
    organiser.close()


def test_a_card_picture_shows_and_a_missing_one_falls_back_to_the_face(site: str, browser, media_root) -> None:
    import io

    from catalog import images
    from catalog.models import Card, CardImage
    from tests.support.image_helpers import picture_bytes

    for code in ("WJ-001", "WJ-002"):
        card = Card.objects.get(code=code)
        images.store(CardImage(card=card), images.clean_upload(io.BytesIO(picture_bytes("PNG", (500, 700)))))
    lost = CardImage.objects.get(card__code="WJ-002")
    for name in lost.files():
        (media_root / name).unlink()  # a restore that forgot the media folder, say

    # Not the `page` fixture: the missing picture's 404 is an expected console error here.
    context = browser.new_context(viewport=DESKTOP, locale="zh-TW")
    page = context.new_page()
    page.goto(f"{site}/cards/WJ-001/")
    picture = page.locator(".face-large img.face-image")
    expect(picture).to_be_visible()
    wait_drawn(page, ".face-large img.face-image")
    page.goto(f"{site}/cards/WJ-002/")
    expect(page.locator(".face-large img.face-image")).to_have_count(0)  # removed by site.js
    expect(page.locator(".face-large svg.face")).to_be_visible()
    page.goto(f"{site}/cards/?view=grid&kind=general")
    shoot(page, "card-grid-with-pictures")
    context.close()


def test_the_round_clock_fills_the_screen_and_keeps_it_awake(site: str, browser) -> None:
    from datetime import timedelta

    from django.contrib.auth import get_user_model
    from django.utils import timezone

    from events import day
    from events.models import Event

    organiser = get_user_model().objects.create_user("clockkeeper", password="x-very-long-password-1")
    event = Event.objects.create(organiser=organiser, name="投影", deadline=timezone.now() + timedelta(days=1))
    for name in ("甲", "乙"):
        day.add_player(event, name, LEGAL_40)
    event.players.update(checked_in=True, legal=True)
    day.pair_next_round(event)
    context = browser.new_context(viewport=DESKTOP, locale="zh-TW")
    page = context.new_page()
    problems: list[str] = []
    page.on("console", lambda m: problems.append(m.text) if m.type == "error" else None)
    # What the page asks the browser for, seen by the test (a headless browser grants neither).
    page.add_init_script(
        "window.__asked = []; Object.defineProperty(navigator, 'wakeLock', {value: {request: (kind) =>"
        " { window.__asked.push('wake:' + kind); return Promise.resolve({}); }}});"
        " Element.prototype.requestFullscreen = function () { window.__asked.push('full:' + this.tagName);"
        " return Promise.resolve(); };"
    )
    page.goto(f"{site}/t/{event.public_token}/clock/")
    assert page.locator("header, nav, footer").count() == 0
    expect(page.locator(".projector-time")).to_be_visible()
    page.wait_for_function("window.__asked.includes('wake:screen')")  # the screen kept awake
    button = page.locator("button[data-fullscreen]")
    expect(button).to_be_visible()
    box = button.bounding_box()
    assert box is not None and box["height"] >= 24 and box["width"] >= 24
    button.click()
    page.wait_for_function("window.__asked.includes('full:HTML')")  # the whole page, full screen
    context.close()
    assert problems == [], problems


def test_the_organisers_day_page_has_tap_targets_a_finger_can_hit(site: str, browser) -> None:
    # WCAG 2.2 2.5.8: every control at least 24 × 24 px unless it is text in a sentence; ours:
    # buttons and the page's row of tools 44 px on a phone (the row was 19 px tall).
    from datetime import timedelta

    from django.contrib.auth import get_user_model
    from django.utils import timezone

    from events import day
    from events.models import Event

    context, phone = log_in(browser, site, "tapper", PHONE)
    organiser = get_user_model().objects.get(username="tapper")
    event = Event.objects.create(organiser=organiser, name="點按", deadline=timezone.now() + timedelta(days=1))
    for name in ("甲", "乙", "丙", "丁"):
        day.add_player(event, name, LEGAL_40)
    phone.goto(f"{site}/events/{event.pk}/day/")
    small = phone.eval_on_selector_all(
        "main button, main select, main input:not([type=hidden]), main summary, main .link-row a",
        """els => els.filter(e => e.offsetParent !== null).map(e => {
            const r = e.getBoundingClientRect();
            const primary = e.matches('button, .link-row a, summary');
            return [e.outerHTML.slice(0, 80), r.width, r.height, primary];
        }).filter(([_, w, h, primary]) => h < (primary ? 44 : 24) || w < 24)""",
    )
    assert small == []
    context.close()


def test_a_one_character_card_name_is_a_target_a_finger_can_hit(site: str, browser) -> None:
    # 酒 as a link was 16 × 19 px on the builder and /cards/incomplete/: at least 24 × 24 now.
    context = browser.new_context(viewport=PHONE, locale="zh-TW")
    page = context.new_page()
    page.goto(f"{site}/cards/?q=酒")
    sizes = page.eval_on_selector_all(
        "a.card-link",
        "els => els.map(e => { const r = e.getBoundingClientRect(); return [e.textContent, r.width, r.height]; })",
    )
    assert sizes and all(w >= 24 and h >= 24 for _text, w, h in sizes), sizes
    context.close()


def test_a_tournament_day_on_phones(site: str, browser) -> None:
    """Eight players check in and report from their phones, three Swiss rounds (a disagreement
    settled by the organiser), a top 4, and the public results page."""
    from datetime import timedelta

    from django.contrib.auth import get_user_model
    from django.utils import timezone

    from events import services
    from events.models import Event, Match, Player

    organiser, desk = log_in(browser, site, "olga", PHONE)
    event = Event.objects.create(
        organiser=get_user_model().objects.get(username="olga"),
        name="台北冬季賽",
        deadline=timezone.now() + timedelta(days=1),
        top_cut=4,
        checkin_open=True,
    )
    phones = {}
    for n in range(8):
        context, phone = log_in(browser, site, f"player{n}", PHONE)
        user = get_user_model().objects.get(username=f"player{n}")
        services.submit(event, user, f"選手{n}", LEGAL_40)  # as the event's link sends it
        phone.goto(f"{site}/e/{event.token}/")
        phone.click(f'form[action$="/e/{event.token}/check-in/"] button')
        phone.wait_for_load_state()
        phones[user.pk] = (context, phone)
    assert Player.objects.filter(event=event, checked_in=True).count() == 8

    def report(player_pk: int, wins: int, losses: int, draws: str = "0") -> None:
        user_id = Player.objects.get(pk=player_pk).user_id
        phone = phones[user_id][1]
        phone.goto(f"{site}/e/{event.token}/")
        form = phone.locator(f'form[action$="/e/{event.token}/report/"]')
        form.locator('input[name="wins"]').fill(str(wins))
        form.locator('input[name="losses"]').fill(str(losses))
        form.locator('input[name="draws"]').fill(draws)  # "": left empty, as phones often leave it
        form.locator("button").click()
        phone.wait_for_load_state()
        assert "Not done" not in phone.title() and "未完成" not in phone.title(), phone.content()[:500]

    for number in range(1, 4):
        desk.goto(f"{site}/events/{event.pk}/day/")
        with desk.expect_navigation():  # htmx sends it; done, the page loads again at the round
            desk.click('form[action$="/day/pair/"] button:not([name])')
        desk.wait_for_selector("table.pairings")
        matches = list(Match.objects.filter(round__event=event, round__number=number).order_by("table"))
        assert len(matches) == 4
        for i, match in enumerate(matches):
            report(match.player_a_id, 2, 1, "" if number == 2 else "0")  # round 2: "drawn" left empty
            if number == 1 and i == 0:
                report(match.player_b_id, 2, 1)  # both say they won
                assert Match.objects.get(pk=match.pk).disputed
                desk.goto(f"{site}/events/{event.pk}/day/")
                form = desk.locator(f'form[action$="/results/{match.pk}/"]')
                form.locator('input[name="wins"]').fill("2")
                form.locator('input[name="losses"]').fill("1")
                with desk.expect_navigation():
                    form.locator("button").click()
                assert f"match-{match.pk}" in desk.url  # the page shows the result entered
            else:
                report(match.player_b_id, 1, 2, "" if number == 2 else "0")
            settled = Match.objects.get(pk=match.pk)
            assert (settled.a_wins, settled.b_wins, settled.disputed) == (2, 1, False)
    desk.goto(f"{site}/events/{event.pk}/day/")
    assert desk.locator("table.standings tbody tr").count() == 8
    desk.screenshot(path=str(ARTIFACTS / "tournament-day-phone.png"), full_page=True)
    for _stage in ("semis", "final"):
        desk.goto(f"{site}/events/{event.pk}/day/")
        with desk.expect_navigation():
            desk.click('form[action$="/day/pair/"] button[name="top_cut"]')
        desk.wait_for_selector(".bracket")
        for match in Match.objects.filter(round__event=event, round__kind="top", a_wins__isnull=True):
            report(match.player_a_id, 2, 0)
            report(match.player_b_id, 0, 2)
    visitor = browser.new_context(viewport=PHONE, locale="zh-TW")
    public = visitor.new_page()
    public.goto(f"{site}/t/{event.public_token}/")
    rows = public.locator("table.cards").first.locator("tbody tr")
    expect(rows).to_have_count(8)
    final = Match.objects.filter(round__event=event, round__kind="top").order_by("-round__number").first()
    winner = Player.objects.get(pk=final.player_a_id).name
    assert winner in rows.first.inner_text()
    assert public.locator("pre.listing").count() == 8  # lists public after the event (the default)
    assert public.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    public.screenshot(path=str(ARTIFACTS / "tournament-results-phone.png"), full_page=True)
    for context, _phone in phones.values():
        context.close()
    visitor.close()
    organiser.close()


def test_a_player_completes_a_card_and_a_curator_approves_it(site: str, browser, media_root, tmp_path) -> None:
    import json
    from urllib.parse import quote

    from django.contrib.auth import get_user_model
    from django.core.management import call_command

    from tests.support.contribution_helpers import WD_CARD, make_curator
    from tests.support.image_helpers import picture_bytes

    player, phone = log_in(browser, site, "penny", PHONE)
    phone.goto(f"{site}/cards/{WD_CARD}/")
    phone.click("text=提出修訂")
    phone.fill("#id_cost", "3")
    phone.fill("#id_text", "登場時，摸一張牌。")
    phone.fill("#id_note", "我的卡，第二刷")
    phone.set_input_files(
        "#id_front",
        files=[{"name": "front.jpg", "mimeType": "image/jpeg", "buffer": picture_bytes("JPEG", (300, 420))}],
    )
    phone.click("form.proposal-form button[type=submit]")
    phone.wait_for_selector(".status-open")
    wait_drawn(phone, ".photos img")  # the author sees the photo
    shoot(phone, "proposal-phone")

    curator, desk = log_in(browser, site, "cora")
    make_curator(get_user_model().objects.get(username="cora"))
    desk.goto(f"{site}/review/")
    desk.click("table a[href^='/contributions/']")
    expect(desk.locator(".diff-table ins").first).to_be_visible()
    desk.click("section.review form button[type=submit] >> text=核准")
    desk.wait_for_url(lambda url: url.endswith("/review/"))

    phone.goto(f"{site}/cards/{WD_CARD}/")
    expect(phone.locator(".card-text").first).to_have_text("登場時，摸一張牌。")
    expect(phone.locator("a.provenance").first).to_be_visible()
    expect(phone.locator(".face-large img.face-image")).to_be_visible()  # the photo is the card's picture now
    shoot(phone, "card-after-contribution-phone")
    data = phone.request.get(f"{site}/api/cards/{quote(WD_CARD)}/").json()
    assert data["cost"] == 3 and isinstance(data["provenance"]["cost"], int)
    phone.goto(f"{site}/cards/?q=set%3Awd+cost%3D3")
    expect(phone.locator(f"a[href='/cards/{quote(WD_CARD)}/']").first).to_be_visible()
    phone.goto(f"{site}/cards/{WD_CARD}/history/")
    expect(phone.locator(".changes li")).to_have_count(1)
    expect(phone.locator(".changes")).to_contain_text("我的卡，第二刷")
    player.close()
    curator.close()

    target = tmp_path / "cards.json"
    call_command("exportcatalog", str(target))
    record = next(c for c in json.loads(target.read_text(encoding="utf-8"))["cards"] if c["code"] == WD_CARD)
    assert record["cost"] == 3 and record["text"] == "登場時，摸一張牌。"
    assert record["provenance"]["cost"]["note"] == "我的卡，第二刷"


def test_focus_stays_on_the_control_after_a_live_update_and_copy_buttons_copy(site: str, browser) -> None:
    from django.contrib.auth import get_user_model

    from tests.support.deck_helpers import make_deck

    context, page = log_in(browser, site, "kim")
    context.grant_permissions(["clipboard-read", "clipboard-write"])
    page.goto(f"{site}/cards/YXJQ-003/")
    plus = page.locator(".my-copies button[value=inc]")
    plus.focus()
    page.keyboard.press("Enter")
    page.wait_for_selector('.my-copies [data-owned="1"]')

    # site.js puts focus back once htmx has settled the swap, a moment after the new count shows.
    # (Polled from here: the site's CSP forbids the eval that wait_for_function uses.)
    def refocused() -> None:
        for _ in range(100):
            if page.evaluate("document.activeElement && document.activeElement.value === 'inc'"):
                return
            page.wait_for_timeout(20)

    refocused()
    page.keyboard.press("Enter")  # still on "+": a second press counts a second copy
    page.wait_for_selector('.my-copies [data-owned="2"]')
    refocused()
    focused = page.evaluate("[document.activeElement.name, document.activeElement.value]")
    assert focused == ["action", "inc"]
    page.locator(".my-copies button[value=dec_foil]").is_disabled()

    deck = make_deck(get_user_model().objects.get(username="kim"), name="複製測試")
    page.goto(f"{site}/decks/{deck.pk}/")
    copy = page.locator("button[data-copy-url]")
    expect(copy).to_be_visible()  # shown once the script knows a clipboard is there
    copy.click()
    expect(copy).to_have_text("已複製")
    copied = page.evaluate("navigator.clipboard.readText()")
    assert "複製測試" in copied and "YXJQ" in copied
    context.close()


def test_a_cards_face_shows_on_hover_and_on_the_first_tap(site: str, browser) -> None:
    from django.contrib.auth import get_user_model

    from tests.support.deck_helpers import make_deck

    context, page = log_in(browser, site, "lin")
    deck = make_deck(get_user_model().objects.get(username="lin"), name="預覽", main={"YXJQ-003": 3})
    preview = page.locator(".face-preview")
    for path in (f"/decks/{deck.pk}/", f"/decks/{deck.pk}/build/"):
        page.goto(f"{site}{path}")
        name = page.locator('.deck-lines li[data-code="YXJQ-003"] a').first
        name.hover()
        expect(preview).to_be_visible()
        assert "/cards/YXJQ-003/face.svg" in (preview.locator("img").get_attribute("src") or "")
        # the face was drawn (waited for: on a busy machine the picture arrives after the box shows)
        wait_drawn(page, ".face-preview img")
        # a picture cannot mark its words: the terms it names are listed beneath it, defined
        terms = preview.locator(".face-terms")
        expect(terms).to_be_visible()
        expect(terms.locator("dt")).to_have_text(["部隊"])
        expect(terms.locator("dd")).to_have_text(["規則提到這個詞，但沒有定義。"])
        page.mouse.move(5, 5)
        expect(preview).to_be_hidden()
    # a verdict names its cards, and they preview too
    page.goto(f"{site}/check/")
    page.fill("#id_list", "武將: 劉備\n4 新兵")
    problem = page.locator('[data-code="too_many_copies"] .problem-cards a')
    expect(problem).to_have_count(1)
    problem.hover()
    expect(preview).to_be_visible()
    # 南蠻入侵 is a slow tactic: 緩速 has its line of the rules, 錦囊 none
    page.goto(f"{site}/cards/?q=南蠻入侵")
    page.locator("table.cards tbody tr:first-child a").first.hover()
    expect(preview.locator(".face-terms dt")).to_have_text(["緩速", "錦囊"])
    expect(preview.locator(".face-terms dd").first).to_contain_text("緩速：只能在已方回合的行動階段使用")
    expect(preview.locator(".face-terms dd").first).to_have_attribute("lang", "zh-Hant")
    page.keyboard.press("Escape")  # dismissible without moving the pointer (WCAG 1.4.13)
    expect(preview).to_be_hidden()
    context.close()

    # On a phone: the first tap shows the face and stays on the page; its button opens the card.
    phone = browser.new_context(viewport=PHONE, locale="zh-TW", has_touch=True, is_mobile=True)
    page = phone.new_page()
    page.goto(f"{site}/cards/?q=新兵")
    page.locator("table.cards tbody tr:first-child a").first.tap()
    sheet = page.locator(".face-preview.touch")
    expect(sheet).to_be_visible()
    assert page.url.endswith("/cards/?q=%E6%96%B0%E5%85%B5") or "/cards/?q=" in page.url
    page.locator(".face-preview-actions a").tap()
    page.wait_for_url("**/cards/YXJQ-003/")
    phone.close()


def test_a_card_link_in_a_comment_shows_its_face_at_the_first_tap(site: str, browser) -> None:
    """On a phone, [[新兵]] in a comment behaves as every card name does: the first tap shows the
    face and stays on the page. A name several cards bear shows its face too, and its button
    opens the list of that name."""
    from django.contrib.auth import get_user_model

    from catalog.lookup import catalog_index
    from decks import comments
    from tests.support.deck_helpers import make_deck

    users = get_user_model().objects
    owner = users.create_user("tap-owner", password="pw-tap-owner-1")
    deck = make_deck(owner, name="點一下", main={"YXJQ-003": 3}, public=True)
    shared = next(f for f in catalog_index().by_code.values() if catalog_index().printings[f.same_name_key] > 1)
    comments.write(deck, owner, f"帶 [[新兵]] 和 [[{shared.name}]]")

    phone = browser.new_context(viewport=PHONE, locale="zh-TW", has_touch=True, is_mobile=True)
    page = phone.new_page()
    page.goto(f"{site}/decks/{deck.pk}/")
    sheet = page.locator(".face-preview.touch")
    links = page.locator(".comment-body a.card-link")
    expect(links).to_have_count(2)
    links.nth(0).tap()
    expect(sheet).to_be_visible()
    assert "/cards/YXJQ-003/face.svg" in (sheet.locator("img").get_attribute("src") or "")
    wait_drawn(page, ".face-preview img")
    assert page.url.endswith(f"/decks/{deck.pk}/")  # still reading the comments
    expect(links.nth(0).locator(".card-peek")).to_be_hidden()  # one face, not two
    page.keyboard.press("Escape")  # a phone with a keyboard: closed, and it stays closed
    expect(sheet).to_be_hidden()
    links.nth(0).tap()
    expect(sheet).to_be_visible()
    page.locator("[data-face-close]").tap()
    expect(sheet).to_be_hidden()
    links.nth(1).tap()
    expect(sheet).to_be_visible()
    assert f"/cards/{shared.code}/face.svg" in (sheet.locator("img").get_attribute("src") or "")
    page.locator(".face-preview-actions a").tap()
    page.wait_for_url("**/cards/?q=*")
    phone.close()

    # Without JavaScript the link opens the card, and its face shows on hover by CSS alone.
    plain = browser.new_context(viewport=DESKTOP, locale="zh-TW", java_script_enabled=False)
    page = plain.new_page()
    page.goto(f"{site}/decks/{deck.pk}/")
    first = page.locator(".comment-body a.card-link").first
    first.hover()
    expect(first.locator(".card-peek")).to_be_visible()
    plain.close()


def test_a_game_term_shows_its_definition_on_hover_and_at_the_first_tap(site: str, browser) -> None:
    """資源 in a card's text: its definition from the rules beside it with a mouse, as a sheet at the
    foot of a phone's screen at the first tap; the second tap opens its rules section."""
    desk = browser.new_context(viewport=DESKTOP, locale="zh-TW")
    page = desk.new_page()
    page.goto(f"{site}/cards/WJ-001/")
    term = page.locator('.card-text .term[data-term="resource"]')
    tip = term.locator(".term-tip")
    expect(tip).to_be_hidden()
    term.locator("a").hover()
    expect(tip).to_be_visible()
    expect(tip).to_contain_text("放置資源的區域")
    desk.close()

    phone = browser.new_context(viewport=PHONE, locale="zh-TW", has_touch=True, is_mobile=True)
    page = phone.new_page()
    page.goto(f"{site}/cards/WJ-001/")
    term = page.locator('.card-text .term[data-term="resource"]')
    term.locator("a").tap()
    tip = term.locator(".term-tip")
    expect(tip).to_be_visible()
    assert page.url.endswith("/cards/WJ-001/")  # still on the card
    box = tip.bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"]  # on the screen
    page.locator("h1").tap()  # a tap elsewhere closes it
    expect(tip).to_be_hidden()
    term.locator("a").tap()
    expect(tip).to_be_visible()
    # the word is not under its definition's sheet: the second tap reaches it
    word, sheet = term.locator("a").bounding_box(), tip.bounding_box()
    assert word is not None and sheet is not None and word["y"] + word["height"] <= sheet["y"]
    page.wait_for_timeout(500)  # two taps at once would be a double tap (a zoom), not two taps
    term.locator("a").tap()
    page.wait_for_url(re.compile(r"/rules/#zones$"))
    expect(page.locator("#zones")).to_be_visible()
    phone.close()


def test_the_longest_skill_text_fits_its_face_as_a_picture(site: str, browser) -> None:
    """The face a phone shows at the first tap is the face.svg file: its skill text is whole."""
    from catalog.models import Card

    page = browser.new_context(viewport=PHONE).new_page()  # a file alone: the browser asks for a favicon

    longest = max(Card.objects.exclude(text=""), key=lambda card: len(card.text or ""))
    for code in (longest.code, "YXJQ-001"):
        page.goto(f"{site}/cards/{code}/face.svg?lang=zh-hant")
        height, room = page.evaluate(
            "(() => { const t = document.querySelector('.face-text'); return [t.scrollHeight, t.clientHeight]; })()"
        )
        assert 0 < height <= room, (code, height, room)


def test_ticking_a_filter_keeps_the_panel_open_and_the_count_in_view(site: str, browser) -> None:
    """On a phone the count of cards found follows each tick in a bar at the bottom of the open
    panel (read aloud as a status), and the panel stays open between ticks."""
    context = browser.new_context(viewport=PHONE, locale="zh-TW")
    page = context.new_page()
    page.goto(f"{site}/cards/")
    page.click(".filter-panel summary")
    before = page.locator("#filter-count").inner_text()
    page.check("input[name=faction][value=wei]")
    expect(page.locator("#filter-count")).not_to_have_text(before)
    assert page.locator(".filter-panel").get_attribute("open") is not None
    bar = page.locator(".filter-bar").bounding_box()
    assert bar is not None and bar["y"] + bar["height"] <= PHONE["height"] + 1  # in view
    assert page.locator("#filter-count").get_attribute("role") == "status"
    page.check("input[name=faction][value=shu]")
    expect(page.locator("#filter-count")).not_to_have_text(before)
    assert page.locator(".filter-panel").get_attribute("open") is not None
    context.close()


def test_a_phone_photo_is_shrunk_upright_before_it_is_sent(site: str, browser, media_root) -> None:
    from catalog.models import Card, Scan
    from tests.support.card_photos import card_face, spread
    from tests.support.real_files import phone_photo

    cards = [Card.objects.get(code=code) for code in ("YXJQ-004", "WJ-001")]
    photo = phone_photo(spread([card_face(c.code, c.name, c.text or "", c.cost) for c in cards], columns=2, seed=7))
    context, phone = log_in(browser, site, "snap", PHONE)
    phone.goto(f"{site}/collection/scan/")
    sent: list[int] = []
    phone.on("request", lambda r: sent.append(len(r.post_data_buffer or b"")) if r.method == "POST" else None)
    phone.set_input_files("#id_photos", files=[{"name": "IMG_0001.jpg", "mimeType": "image/jpeg", "buffer": photo}])
    phone.click("form.stack-form button[type=submit]")
    phone.wait_for_url("**/collection/scan/*/")
    assert sent and sent[0] < len(photo) / 2  # a fraction of the camera's 4 MB went
    scan = Scan.objects.get(user__username="snap")
    # Stored on its side (4032 × 3024 turned by EXIF), sent upright at 2,000 px on its long side.
    assert (scan.width, scan.height) == (2000, 1500)
    assert sorted(c["card"] for c in scan.result["cards"]) == ["WJ-001", "YXJQ-004"]
    context.close()


def test_find_an_event_near_me_wait_for_a_place_play_it_and_see_it_on_my_page(site: str, browser) -> None:
    """Find an event in my region on the calendar, register, get promoted from the waiting list,
    play it, see it on my page with my rating."""
    from datetime import timedelta

    from django.contrib.auth import get_user_model
    from django.utils import timezone

    from events import day, ratings, services
    from events.models import Event

    users = get_user_model().objects
    olga = users.create_user("olga-organiser")
    start = timezone.localtime(timezone.now() + timedelta(days=2)).replace(hour=13, minute=0, second=0, microsecond=0)
    event = Event.objects.create(
        organiser=olga,
        name="上海週末積分賽",
        deadline=start - timedelta(hours=2),
        starts_at=start,
        visibility="listed",
        venue="牌友會館",
        city="上海",
        region="shanghai",
        cap=1,
        rated=True,
    )
    holder = users.create_user("place-holder")
    services.register(event, holder)  # the only place is taken

    context, phone = log_in(browser, site, "mei", PHONE)
    phone.goto(f"{site}/accounts/profile/")
    phone.select_option("#id_region", "shanghai")
    phone.click("form.stacked button")
    phone.goto(f"{site}/events/")
    phone.click(".near a")  # "Near me": the region of my profile
    if not phone.locator(f"table.month a[href='/events/{event.pk}/']").count():  # the event is next month
        phone.click("#calendar + nav a:nth-child(2)")
    phone.click(f"table.month a[href='/events/{event.pk}/']")
    phone.wait_for_url(f"**/events/{event.pk}/")
    expect(phone.locator("h1")).to_have_text("上海週末積分賽")
    phone.click("#registration button")  # full: the waiting list
    expect(phone.locator("#registration")).to_contain_text("1")
    shoot(phone, "event-waiting")

    assert services.unregister(event, holder)  # the holder withdraws: mei moves up and is told
    phone.goto(f"{site}/notifications/")
    phone.click(f"a[href='/events/{event.pk}/']")
    phone.wait_for_selector("#registration .ok")
    phone.click(f"a[href='{event.get_submit_url()}']")  # send my list
    phone.fill("#id_player_name", "美美")
    phone.fill("#id_list", LEGAL_40)
    phone.click("form.stack-form button[type=submit]")
    phone.wait_for_selector('.verdict[data-legal="true"]')

    # The day: a second player, one round, mei wins it; the ratings run (a background task).
    rival = users.create_user("rival")
    Event.objects.filter(pk=event.pk).update(cap=2)
    services.register(event, rival)
    services.submit(event, rival, "對手", LEGAL_40)
    day.players_from_lists(event)
    event.players.update(checked_in=True, legal=True)
    match = day.pair_next_round(event).matches.get()
    mine = match.player_a.user_id == users.get(username="mei").pk
    day.enter_result(match, 2 if mine else 0, 0 if mine else 2, 0)
    ratings.recompute()

    phone.goto(f"{site}/u/mei/")
    events_played = phone.locator("section[aria-labelledby=events-heading]")
    expect(events_played).to_contain_text("上海週末積分賽")
    expect(events_played).to_contain_text("1–0–0")
    expect(phone.locator("#rating-heading")).to_be_visible()  # the rating, and its chart
    expect(phone.locator("figure.trend svg").first).to_be_visible()
    shoot(phone, "profile-with-rating")
    context.close()
