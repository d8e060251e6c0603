"""What rows drawn in Python (template tags that repeat sixty times a page: a card's counter, the
deck pages' rows) share: their words, translated once per language and escaped, and the CSRF
token of the page's forms."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from html import escape
from typing import Any

from django.utils.translation import get_language


def words_per_language(make: Callable[[], Mapping[str, str]]) -> Callable[[], dict[str, str]]:
    """A function that returns `make()`'s words in the active language, escaped for HTML: made
    once per language (translations do not change while the process runs)."""
    by_language: dict[str, dict[str, str]] = {}

    def words() -> dict[str, str]:
        language = get_language() or ""
        found = by_language.get(language)
        if found is None:
            found = by_language[language] = {key: escape(str(value)) for key, value in make().items()}
        return found

    return words


def csrf_value(context: Any) -> str:
    """The page's CSRF token, escaped for an attribute (empty outside a request)."""
    return escape(str(context.get("csrf_token") or ""))
