"""The Jinja2 environment of the rows a page repeats (webutil.rows): the filters that show game
data in the reader's script and language (catalog's own). A row's words and every other value
come with the row."""

from __future__ import annotations

from typing import Any

from catalog.templatetags import cards
from jinja2 import Environment


def environment(**options: Any) -> Environment:
    # Escaping is on whatever the settings say: the rows show what users wrote.
    options.pop("autoescape", None)
    env = Environment(autoescape=True, **options)
    env.filters.update(
        {
            "card_name": cards.card_name,
            "code": cards.code,
            "label": cards.label,
            "user_text": cards.user_text,
            "rarity": cards.rarity,
            "term_marker": cards.term_marker_html,
        }
    )
    return env
