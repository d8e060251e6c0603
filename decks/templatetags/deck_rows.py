"""Rows the deck pages repeat, drawn as webutil.rows, each list in one template: the builder's
thirty search results and a deck's forty to sixty lines (each with a form), the public deck
list's rows; and, alone, the held-copies note and the owned badge."""

from __future__ import annotations

from typing import Any

from django import template
from django.utils.safestring import SafeString
from django.utils.translation import pgettext

from catalog.templatetags.cards import face_values
from decks.models import MAX_ENTRY_COUNT
from groups import formats
from rules_check import DEFAULT_FORMAT, FORMATS
from webutil import rows

register = template.Library()


@register.simple_tag(takes_context=True)
def search_results(context: Any, cards: Any, change: str) -> SafeString:
    """The builder's search results; `change`: the deck's change address."""
    request = context.get("request")
    found = []
    for card in cards:
        owned = int(getattr(card, "owned", 0) or 0)
        foils = int(getattr(card, "owned_foil", 0) or 0)
        found.append({"card": card, "face": face_values(request, card), "owned": owned + foils if owned else 0})
    deck = context.get("deck")
    chosen = formats.stored(deck.format) if deck is not None else FORMATS[DEFAULT_FORMAT]
    playset = chosen.copy_limit  # the ×3 button's figure
    values = {"results": found, "change": change, "csrf_token": rows.csrf_token(context), "playset": playset}
    return rows.render("decks/search_results.html", values)


@register.simple_tag
def held(line: Any) -> SafeString:
    """Where the reader's other copies are, and whether too many are (the deck's statistics,
    the shopping list; a deck's lines draw it themselves)."""
    return rows.render("decks/held.html", {"line": line})


@register.simple_tag(takes_context=True)
def deck_lines(
    context: Any, lines: Any, section: str, editable: bool, bad_cards: Any, with_collection: bool, change: str
) -> SafeString:
    """A deck's lines. `section`: main or reinforcements, which show the card alone."""
    values = {
        "lines": lines,
        "main": section == "main",
        "section": section,
        "editable": editable,
        "bad_cards": bad_cards or (),
        "with_collection": with_collection,
        "change": change,
        "csrf_token": rows.csrf_token(context),
        "max_count": MAX_ENTRY_COUNT,
        "words": {
            "cost": pgettext("a deck line's figure", "cost"),
            "owned": pgettext("a deck line's figure", "owned"),
        },
    }
    return rows.render("decks/deck_lines.html", values)


@register.simple_tag
def owned_badge(deck: Any) -> SafeString:
    return rows.render("decks/owned_badge.html", {"deck": deck})


@register.simple_tag
def public_deck_rows(decks: Any, signed_in: bool) -> SafeString:
    return rows.render("decks/public_deck_rows.html", {"decks": decks, "signed_in": signed_in})
