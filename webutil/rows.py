"""Rows a page repeats sixty times (a card's counter, a deck's lines, the builder's search
results, a card's face), drawn from their Jinja2 templates (the `rows` engine, jinja2/): the
template language took ten times as long for the same markup, half of the builder's and my
collection's pages. A list is drawn by one template, not one call a row.

A row's words are `{{ _("…") }}`: makemessages reads them there as in any template, and each
language has its own compiled copy of each template with its words already in it (a word
translated and escaped as each row was drawn was half of a counter's time).

Why Jinja2 stays (speed machinery keeps its place where a benchmark takes 20% or 5 ms off a p99):
measured with `bench/rows.py` when the rows moved (docs/performance.md, "Rows in templates"), a
sixty-row page drawn by the template language took 10–18 ms more, and a row 2–4 times as long
(a collection row 285 µs against 61). The Django-template rows are gone, so the benchmark prints
the Jinja2 rows alone now; the comparison is in that history.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from functools import lru_cache
from typing import Any

from django.template import engines
from django.utils import translation
from django.utils.safestring import SafeString, mark_safe
from jinja2.ext import Extension
from jinja2.lexer import TOKEN_STRING, Token

from jinja2 import Environment


class CompiledWords(Extension):
    """`_("a literal")` becomes its translation in the environment's language while the
    template compiles; the translation is then plain text of the template."""

    def filter_stream(self, stream: Iterable[Token]) -> Iterator[Token]:
        tokens = list(stream)
        language = getattr(self.environment, "words_language", "")
        i = 0
        while i < len(tokens):
            token = tokens[i]
            window = tokens[i : i + 4]
            if (
                len(window) == 4
                and token.test("name:_")
                and window[1].type == "lparen"
                and window[2].type == TOKEN_STRING
                and window[3].type == "rparen"
            ):
                with translation.override(language):
                    yield Token(token.lineno, TOKEN_STRING, translation.gettext(window[2].value))
                i += 4
                continue
            yield token
            i += 1


@lru_cache(maxsize=16)
def _environment(language: str) -> Environment:
    # An overlay shares the loader, filters and settings of the `rows` engine, with a template
    # cache of its own: each language's compiled templates.
    env: Environment = engines["rows"].env.overlay(extensions=[CompiledWords])  # type: ignore[attr-defined]
    env.words_language = language  # type: ignore[attr-defined]
    return env


def render(name: str, values: dict[str, Any]) -> SafeString:
    """The row `name` drawn with `values` and nothing else (no environment globals: a row gets
    what it shows, and merging the globals into each row's context was half of a small row's
    time). Jinja2 escapes every value (autoescape is on); a value already safe (a filter's
    markup) is kept as it is."""
    env = _environment(translation.get_language() or "")
    template = env.get_template(name)
    try:
        html: str = env.concat(template.root_render_func(template.new_context(values, shared=True)))
    except Exception:
        env.handle_exception()  # Jinja2's own: the traceback names the template's line
        raise
    return mark_safe(html)  # noqa: S308 (the template escaped every value)


def csrf_token(context: Any) -> str:
    """The page's CSRF token, for a row's form (empty outside a request)."""
    return str(context.get("csrf_token") or "")
