"""A person's walk through the site in a real browser (tests/site_wide/test_journeys.py): one
browser context in one language at one width, and after every step the page as that person
sees it is checked the way the layout harness checks every page: nothing scrolls sideways,
short names do not wrap on a phone, every target is big enough to tap (measured in the
browser), axe finds no violation, and the console shows no error.

A journey runs in one language in CI, rotating between journeys and widths so that each
language is walked every run; `JOURNEY_LANGUAGES=all` (`make test-browser-all`) walks each
journey in all three.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from typing import Any

from tests.support.browser_fixtures import ARTIFACTS
from tests.support.layout_checks import layout_faults

LANGUAGES = ("zh-hant", "zh-hans", "en")
PHONE = {"width": 360, "height": 800}
DESKTOP = {"width": 1280, "height": 900}
WIDTHS = {"phone": PHONE, "desktop": DESKTOP}
# How the console reports a page answered 4xx.
REFUSAL = r"Failed to load resource: the server responded with a status of 4\d\d .*"


def walks(journeys: list[str]) -> list[tuple[str, str, str]]:
    """(journey, width, language) to run: every journey at both widths, each in one language
    (journey i at the phone in LANGUAGES[i % 3], at the desktop in the next one), or in all
    three when JOURNEY_LANGUAGES=all."""
    every = os.environ.get("JOURNEY_LANGUAGES") == "all"
    out = []
    for i, journey in enumerate(journeys):
        for j, width in enumerate(WIDTHS):
            languages = LANGUAGES if every else (LANGUAGES[(i + j) % len(LANGUAGES)],)
            out += [(journey, width, language) for language in languages]
    return out


@dataclass
class Walk:
    """One person in one browser context. `step()` after an action checks the page as it is."""

    browser: Any
    site: str
    width: str
    language: str
    name: str
    context: Any = None
    page: Any = None
    faults: list[str] = field(default_factory=list)
    console: list[str] = field(default_factory=list)
    checked: set[str] = field(default_factory=set)
    refusals: int = 0

    def __post_init__(self) -> None:
        self.context = self.browser.new_context(viewport=WIDTHS[self.width])
        host = self.site.split("//", 1)[1].split(":")[0]
        self.context.add_cookies([{"name": "django_language", "value": self.language, "domain": host, "path": "/"}])
        self.page = self.context.new_page()
        self.page.on("console", lambda m: self.console.append(m.text) if m.type == "error" else None)
        self.page.on("pageerror", lambda e: self.console.append(str(e)))

    @property
    def px(self) -> int:
        return int(WIDTHS[self.width]["width"])

    def go(self, path: str) -> Any:
        response = self.page.goto(self.site + path)
        assert response is not None and response.status == 200, (path, response and response.status)
        self.step(path)
        return response

    def step(self, label: str) -> None:
        """The page as it is now: sideways scroll, wrapping, target sizes, axe (once a path)."""
        where = f"{self.name} {self.language} {self.px}px {label}"
        self.page.wait_for_load_state()
        scroll = self.page.evaluate("document.documentElement.scrollWidth")
        if scroll > self.px:
            self.faults.append(f"{where}: scrolls sideways ({scroll} px)")
        self.faults += [f"{where}: {fault}" for fault in layout_faults(self.page, self.px)]
        path = self.page.url.split("?", 1)[0]
        if path not in self.checked:
            self.checked.add(path)
            from axe_playwright_python.sync_playwright import Axe

            for v in Axe().run(self.page).response["violations"]:
                targets = ", ".join(str(n["target"][0])[:60] for n in v["nodes"][:3])
                self.faults.append(f"{where}: axe {v['id']} ({v['impact']}: {targets})")

    def refused_next(self) -> None:
        """The next page is a refusal by design (a 4xx with the form again), which the browser's
        console reports as a failed load: that one report is expected, no other."""
        self.refusals += 1

    def marker(self) -> None:
        """Mark the page: `same_page()` is then true until the browser loads another."""
        self.page.evaluate("window.__walk = 'same page'")

    def same_page(self) -> bool:
        return bool(self.page.evaluate("window.__walk === 'same page'"))

    def in_view(self, selector: str) -> bool:
        """Whether the element's top is on the screen as it is scrolled now (scrolled to, its top
        may sit a fraction of a pixel above the edge)."""
        return bool(
            self.page.eval_on_selector(
                selector, "e => { const r = e.getBoundingClientRect(); return r.top > -2 && r.top < innerHeight; }"
            )
        )

    def sign_up(self, username: str, password: str) -> None:
        self.page.fill("#id_username", username)
        self.page.fill("#id_password1", password)
        self.page.fill("#id_password2", password)
        with self.page.expect_navigation():
            self.page.click("form.stack-form button[type=submit]")

    def log_in(self, username: str, password: str) -> None:
        self.go("/accounts/login/")
        self.page.fill("#id_username", username)
        self.page.fill("#id_password", password)
        with self.page.expect_navigation():
            self.page.click("form.stack-form button[type=submit]")

    def shoot(self, label: str) -> None:
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        self.page.screenshot(path=str(ARTIFACTS / f"journey-{self.name}-{label}-{self.width}-{self.language}.png"))

    def done(self) -> None:
        self.context.close()
        refused = [m for m in self.console if re.fullmatch(REFUSAL, m)]
        assert len(refused) <= self.refusals, self.console
        assert [m for m in self.console if m not in refused] == [], self.console
        assert self.faults == [], "\n".join(self.faults)
