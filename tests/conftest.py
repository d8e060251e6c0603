"""Shared fixtures: the real catalogue loaded once per test session, and a cast of users.

alice owns things, bob is another user who must never see alice's private data, charlie is a
staff member.
"""

from __future__ import annotations

import copy
import os

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from catalog import cache_version
from catalog.loading import load_catalog

PASSWORD = "correct-horse-battery-staple"


def pytest_configure(config) -> None:
    # Under pytest-xdist each worker is a site of its own: pytest-django gives it its own test
    # database, and here its own Redis database, since every test empties the caches it uses
    # (FLUSHDB), and one worker's emptying must not wipe another's counts mid-test.
    worker = os.environ.get("PYTEST_XDIST_WORKER", "")
    if not worker.startswith("gw"):
        return
    from django.conf import settings
    from django.test import override_settings

    caches = copy.deepcopy(settings.CACHES)
    for cache in caches.values():
        location = str(cache.get("LOCATION", ""))
        if location.startswith("redis://"):
            base, _, number = location.rpartition("/")
            cache["LOCATION"] = f"{base}/{(int(number or 0) - int(worker[2:])) % 16}"
    override_settings(CACHES=caches).enable()  # for the whole run: never disabled


@pytest.fixture(scope="session", autouse=True)
def fast_password_hashing():
    # Real password hashing costs a third of a second a user, by design; tests make hundreds.
    from django.test import override_settings

    with override_settings(PASSWORD_HASHERS=["django.contrib.auth.hashers.MD5PasswordHasher"]):
        yield


@pytest.fixture(autouse=True)
def empty_cache():
    # Cached answers and throttle counts belong to one test: the database rolls back, so must they.
    from django.core.cache import caches

    from webutil.breaker import reset_all

    reset_all()  # a test that broke the cache on purpose leaves no pause behind
    for alias in caches:
        caches[alias].clear()


@pytest.fixture
def local_caches():
    """Both caches in this process, the shape of the settings without REDIS_URL, whichever cache
    the suite runs with: for tests that look inside the cache."""
    from django.core.cache import caches
    from django.test import override_settings

    local = {
        "default": {
            "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
            "LOCATION": "t-default",
            "OPTIONS": {"MAX_ENTRIES": 2000},
        },
        "throttle": {
            "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
            "LOCATION": "t-throttle",
            "OPTIONS": {"MAX_ENTRIES": 1_000_000},
        },
    }
    with override_settings(CACHES=local):
        for alias in caches:
            caches[alias].clear()
        yield


@pytest.fixture(scope="session")
def django_db_setup(django_db_setup, django_db_blocker):
    # The real catalogue, loaded once: every test sees every card inside its own transaction.
    with django_db_blocker.unblock():
        load_catalog()
    yield
    # Before pytest-django drops the test database, which PostgreSQL refuses while a session is on it.
    cache_version.stop_listening()


@pytest.fixture
def alice(db):
    return get_user_model().objects.create_user("alice", "alice@example.org", PASSWORD)


@pytest.fixture
def racer(transactional_db):
    """A user for the concurrency tests, which run on real transactions (each test brings its
    own committed catalogue: the session's is in a transaction they cannot see)."""
    load_catalog()
    return get_user_model().objects.create_user("racer", password="x-very-long-password-1")


@pytest.fixture
def bob(db):
    return get_user_model().objects.create_user("bob", "bob@example.org", PASSWORD)


@pytest.fixture
def charlie(db):
    return get_user_model().objects.create_user("charlie", "charlie@example.org", PASSWORD, is_staff=True)


def logged_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


@pytest.fixture
def alice_client(alice) -> Client:
    return logged_in(alice)


@pytest.fixture
def bob_client(bob) -> Client:
    return logged_in(bob)


def pytest_collection_modifyitems(config, items):
    # Tests on a live server or with real transactions end by emptying every table, the loaded
    # catalogue included: run them last so that the other tests keep the session's catalogue.
    def flushes(item) -> bool:
        return bool({"transactional_db", "live_server"} & set(getattr(item, "fixturenames", ())))

    items.sort(key=flushes)
    # Tests run in a random order (pytest-randomly); one that stops the servers its module shares
    # (marked `destructive`) runs after the module's other tests, wherever the shuffle put it.
    keys = {}
    start = 0
    for i, item in enumerate(items):
        if i and items[i - 1].module is not item.module:
            start = i  # modules stay together in the shuffle: this is where one begins
        keys[item] = (start, item.get_closest_marker("destructive") is not None, i)
    items.sort(key=keys.__getitem__)


@pytest.fixture
def english(settings):
    """Pages, API answers and messages in English, for tests that read English words."""
    from django.utils import translation

    settings.LANGUAGE_CODE = "en"
    with translation.override("en"):
        yield


@pytest.fixture
def charlie_client(charlie) -> Client:
    return logged_in(charlie)


@pytest.fixture
def media_root(settings, tmp_path):
    """Uploaded files go to a fresh directory of this test's own, never into the checkout."""
    settings.MEDIA_ROOT = tmp_path / "media"
    settings.MEDIA_ROOT.mkdir()
    return settings.MEDIA_ROOT


@pytest.fixture(scope="module")
def browser():
    """Debian's chromium, driven by Playwright (the browser tests skip when it is missing)."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=os.environ.get("CHROMIUM", "/usr/bin/chromium"),
            args=[
                "--no-sandbox",
                "--disable-gpu",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                "--no-first-run",
            ],
        )
        yield browser
        browser.close()


@pytest.fixture
def site(live_server) -> str:
    from catalog.loading import load_catalog

    load_catalog()  # the live server's database starts empty after an earlier live test
    return live_server.url


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    """In CI (CI=true), a browser, cluster or object-storage test that skips is a failure: CI has
    every service they need, and a silent skip would hide that they no longer run."""
    outcome = yield
    report = outcome.get_result()
    if (
        os.environ.get("CI") == "true"
        and report.skipped
        and {"browser", "once"} & {mark.name for mark in item.iter_markers()}
    ):
        report.outcome = "failed"
        report.longrepr = f"skipped in CI, where it must run: {report.longrepr}"


@pytest.fixture(autouse=True)
def tasks_run_at_once(settings):
    """Background work (reading photos) runs inside the request that asks for it, as
    TASKS_BACKEND=immediate does: a test sees its result at once. test_scans.py also runs the
    database backend and its worker."""
    settings.TASKS = {"default": {"BACKEND": "django_tasks.backends.immediate.ImmediateBackend"}}


@pytest.fixture(autouse=True)
def language_reset():
    """Each test starts in the site's default language: a request in another one (the locale
    middleware activates the reader's language in this thread) does not leak into the next test."""
    from django.utils import translation

    translation.deactivate()
    yield
    translation.deactivate()
