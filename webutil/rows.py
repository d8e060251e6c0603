"""Rows a page repeats sixty times (a card's counter, a deck line, a search result, a card's
face), drawn from their Jinja2 templates (the `rows` engine, jinja2/): the template language
took ten times as long for the same markup, half of the builder's and my collection's pages.

A row's words are `{{ _("…") }}`: makemessages reads them there as in any template, and each is
translated once a language and process (Django's gettext, asked ten times a row, was half of a
row's time)."""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache
from typing import Any

from django.template import engines
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language, gettext


@lru_cache(maxsize=32)
def _translator(language: str) -> Callable[[str], str]:
    # Made while `language` is active, and only ever used while it is: its answers are that
    # language's.
    @lru_cache(maxsize=512)
    def translate(message: str) -> str:
        return gettext(message)

    return translate


def render(name: str, values: dict[str, Any]) -> SafeString:
    """The row `name` drawn with `values`. Jinja2 escapes every value (autoescape is on), and a
    value already safe (a filter's markup) is kept as it is."""
    template = engines["rows"].env.get_template(name)  # type: ignore[attr-defined]
    values["_"] = _translator(get_language() or "")
    html: str = template.render(values)
    return mark_safe(html)  # noqa: S308 (the template escaped every value)


def csrf_token(context: Any) -> str:
    """The page's CSRF token, for a row's form (empty outside a request)."""
    return str(context.get("csrf_token") or "")
