"""Every page, in each of the three languages, at a 360 px phone and a 1280 px desktop:

- nothing scrolls sideways (wide tables scroll inside their own box);
- axe-core (shipped by axe-playwright-python) finds no serious or critical violation;
- at 360 px no name or label of up to six characters wraps onto a second line, and buttons,
  steppers and the links that act as buttons are at least 44 × 44 px; at every width each target
  meets WCAG 2.2's 24 × 24 px or its spacing (tests/support/layout_checks.py).

Public pages as a visitor, private ones as their owner (the authorization table's pages). A page
added to the site joins tests/support/pages.py. Phone screenshots of the catalogue, the collection,
the builder and the completion page, in each language, are saved as artifacts.
"""

from __future__ import annotations

import shutil
from datetime import timedelta

import pytest
from django.conf import settings as django_settings
from django.contrib.auth import get_user_model
from django.test import Client
from django.utils import timezone

from collection.services import set_sharing
from tests.support.browser_fixtures import ARTIFACTS, CHROMIUM
from tests.support.collection_helpers import own
from tests.support.deck_helpers import make_deck
from tests.support.layout_checks import layout_faults
from tests.support.pages import (
    PRINT_SHEETS,
    PRIVATE,
    PUBLIC,
    contributions,
    paired_round,
    paper_sheet,
    play_group,
    scanned,
    talk,
)

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not shutil.which(CHROMIUM), reason=f"browser tests skipped: no chromium at {CHROMIUM}"),
]

LANGUAGES = ["zh-hant", "zh-hans", "en"]
WIDTHS = [360, 1280]


def _session_cookie(user) -> dict[str, str]:
    client = Client()
    client.force_login(user)
    return {
        "name": django_settings.SESSION_COOKIE_NAME,
        "value": client.cookies[django_settings.SESSION_COOKIE_NAME].value,
    }


@pytest.fixture
def world(site):
    from events.models import Event

    owner = get_user_model().objects.create_user("layout-owner", password="layout-password-1")
    own(owner, YXJQ_003=3, YXJQ_004=(1, 1), WJ_001=1)
    set_sharing(owner, True)  # an unbroken share address on the trade page and the account page
    deck = make_deck(owner, name="蜀漢步兵", public=True)
    event = Event.objects.create(organiser=owner, name="台北冬季賽", deadline=timezone.now() + timedelta(days=2))
    check = paired_round(event)
    places = {"deck": deck.pk, "event": event.pk, "check": check, "token": event.token, "public": event.public_token}
    places |= contributions(owner)
    places |= scanned(owner)
    places |= paper_sheet(event)
    places |= play_group(owner, deck)
    places |= talk(owner, deck)
    return {"site": site, "owner": owner, "places": places}


# The phone pages kept as pictures, in each language (test-artifacts/screenshots/phone-*-<language>.png).
SCREENSHOTS = {
    "/cards/?sort=name": "catalogue",
    "/collection/": "collection",
    "/decks/{deck}/build/": "builder",
    "/collection/completion/": "completion",
}

# One test a page (its faults in its own report), each in three languages at two widths.
PAGES = [(False, path) for path in PUBLIC if path not in PRINT_SHEETS] + [
    (True, path) for path in PRIVATE if path not in PRINT_SHEETS
]


@pytest.fixture(scope="module")
def contexts(browser):
    """One browser context and page per language and width, kept for the module's tests (a new
    one per test tripled the harness's time); each test sets its own cookies."""
    made = {
        (lang, width): browser.new_context(viewport={"width": width, "height": 800})
        for lang in LANGUAGES
        for width in WIDTHS
    }
    yield {key: (context, context.new_page()) for key, context in made.items()}
    for context in made.values():
        context.close()


@pytest.mark.parametrize(("logged_in", "path"), PAGES, ids=[path for _logged_in, path in PAGES])
def test_no_page_scrolls_sideways_or_fails_axe(contexts, world, logged_in: bool, path: str) -> None:
    from axe_playwright_python.sync_playwright import Axe

    axe = Axe()
    cookie = _session_cookie(world["owner"])
    host = world["site"].split("//", 1)[1].split(":")[0]
    faults: list[str] = []
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    url = path.format(**world["places"])
    for language in LANGUAGES:
        for width in WIDTHS:
            context, page = contexts[(language, width)]
            context.clear_cookies()
            cookies = [{"name": "django_language", "value": language, "domain": host, "path": "/"}]
            if logged_in:
                cookies.append({**cookie, "domain": host, "path": "/"})
            context.add_cookies(cookies)
            response = page.goto(world["site"] + url)
            assert response is not None and response.status == 200, (url, response and response.status)
            scroll = page.evaluate("document.documentElement.scrollWidth")
            if scroll > width:
                faults.append(f"{language} {width}px {url}: scrolls sideways ({scroll} px)")
            faults += [f"{language} {width}px {url}: {fault}" for fault in layout_faults(page, width)]
            violations = axe.run(page).response["violations"]
            for v in violations:
                if v["impact"] in ("serious", "critical"):
                    targets = ", ".join(str(n["target"][0])[:60] for n in v["nodes"][:3])
                    faults.append(f"{language} {width}px {url}: {v['id']} ({targets})")
            if width == 360 and path in SCREENSHOTS:
                page.screenshot(path=str(ARTIFACTS / f"phone-{SCREENSHOTS[path]}-{language}.png"), full_page=True)
    assert faults == [], "\n".join(faults)


@pytest.mark.parametrize("path", sorted(PRINT_SHEETS))
def test_the_print_sheets_controls_are_big_enough_to_tap(contexts, world, path: str) -> None:
    """The sheets are A4 pages (wider than a phone by design), but their Print and Back are
    tapped on a phone before printing: 44 × 44 px there."""
    from tests.support.layout_checks import TARGET_SIZES

    context, page = contexts[("zh-hant", 360)]
    context.clear_cookies()
    host = world["site"].split("//", 1)[1].split(":")[0]
    context.add_cookies([{**_session_cookie(world["owner"]), "domain": host, "path": "/"}])
    page.goto(world["site"] + path.format(**world["places"]))
    assert page.evaluate(TARGET_SIZES, True) == []
