"""The rows a page repeats are Jinja2 templates (webutil.rows): their words are translated in
every language, what users wrote is escaped, and the site's pages draw them."""

from __future__ import annotations

import re
from pathlib import Path
from types import SimpleNamespace

import polib
import pytest
from django.conf import settings
from django.utils import translation

from decks.models import Deck
from tests.conftest import logged_in
from tests.support.deck_helpers import make_deck
from webutil import rows

pytestmark = pytest.mark.django_db

ROWS = Path(settings.BASE_DIR) / "jinja2"
WORDS = re.compile(r"""_\("((?:[^"\\]|\\.)*)"\)""")


def _words() -> set[str]:
    return {word for path in ROWS.rglob("*.html") for word in WORDS.findall(path.read_text(encoding="utf-8"))}


def test_the_rows_words_are_in_both_chinese_catalogues() -> None:
    words = _words()
    assert "Copies" in words and "Choose as general" in words  # the pattern reads the templates
    for language in ("zh_Hant", "zh_Hans"):
        catalogue = polib.pofile(str(Path(settings.BASE_DIR) / "locale" / language / "LC_MESSAGES" / "django.po"))
        translated = {entry.msgid for entry in catalogue if entry.msgstr and not entry.obsolete}
        assert words <= translated, (language, words - translated)


@pytest.mark.parametrize(("language", "word"), [("zh-hant", "張數"), ("zh-hans", "张数"), ("en", "Copies")])
def test_a_row_speaks_the_readers_language(alice, language: str, word: str) -> None:
    page = logged_in(alice).get("/cards/YXJQ-003/", HTTP_ACCEPT_LANGUAGE=language).content.decode()
    counter = page[page.index('class="counter') :]
    assert f'<span class="count-label">{word}</span>' in counter


def test_what_users_wrote_is_escaped_in_a_row(alice, bob) -> None:
    Deck.objects.create(owner=alice, name="<script>alert(1)</script>", public=True)
    page = logged_in(bob).get("/decks/").content.decode()
    assert "<script>alert(1)</script>" not in page
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page


def test_the_builder_draws_its_rows(alice) -> None:
    deck = make_deck(alice, main={"YXJQ-003": 1})
    page = logged_in(alice).get(f"/decks/{deck.pk}/build/", {"q": "YXJQ"}).content.decode()
    assert '<li class="" data-code="YXJQ-003">' in page and 'data-count="1"' in page
    assert page.count('name="csrfmiddlewaretoken"') > 2 and 'class="face-image-only"' in page


def test_each_language_has_its_own_compiled_rows() -> None:
    # The words are put in while a row's template compiles, once a language: a language asked
    # after another gets its own, and what a user named is escaped still.
    line = SimpleNamespace(held=[("<b>我的牌庫</b>", 2)], over_committed=True)
    for language in ("zh-hant", "en", "zh-hans", "zh-hant"):
        with translation.override(language):
            html = rows.render("decks/held.html", {"line": line})
            assert translation.gettext("over-committed") in html
            assert translation.gettext("%(n)s in %(name)s") % {"n": 2, "name": "&lt;b&gt;我的牌庫&lt;/b&gt;"} in html
    assert "<b>" not in html
