"""Rows the deck pages repeat, drawn as rows of webutil.rows: the builder's thirty search results
and a deck's forty to sixty lines (each with a form), the public deck list's rows and the owned
badge."""

from __future__ import annotations

from typing import Any

from django import template
from django.utils.safestring import SafeString
from django.utils.translation import pgettext

from catalog.templatetags.cards import face_values
from webutil import rows

register = template.Library()


@register.simple_tag(takes_context=True)
def search_result(context: Any, card: Any, change: str) -> SafeString:
    """One search result; `change`: the deck's change address."""
    owned = int(getattr(card, "owned", 0) or 0)
    foils = int(getattr(card, "owned_foil", 0) or 0)
    values = {
        "card": card,
        "url": card.get_absolute_url(),
        "face": face_values(context.get("request"), card),
        "change": change,
        "csrf_token": rows.csrf_token(context),
        "owned": owned + foils if owned else 0,
    }
    return rows.render("decks/search_result.html", values)


@register.simple_tag
def held(line: Any) -> SafeString:
    """Where the reader's other copies are, and whether too many are (a deck line, the deck's
    statistics, the shopping list)."""
    return rows.render("decks/held.html", {"line": line})


@register.simple_tag(takes_context=True)
def deck_line(
    context: Any, line: Any, section: str, editable: bool, bad_cards: Any, with_collection: bool, change: str
) -> SafeString:
    """One line of a deck. `section`: main or reinforcements, which show the card alone."""
    card = line.card
    values = {
        "line": line,
        "card": card,
        "count": line.entry.count,
        "main": section == "main",
        "section": section,
        "editable": editable,
        "bad": bool(bad_cards) and card.code in bad_cards,
        "with_collection": with_collection,
        "change": change,
        "csrf_token": rows.csrf_token(context),
        "words": {
            "cost": pgettext("a deck line's figure", "cost"),
            "owned": pgettext("a deck line's figure", "owned"),
        },
    }
    return rows.render("decks/deck_line.html", values)


@register.simple_tag
def owned_badge(deck: Any) -> SafeString:
    return rows.render("decks/owned_badge.html", {"deck": deck})


@register.simple_tag
def public_deck_row(deck: Any, signed_in: bool) -> SafeString:
    return rows.render("decks/public_deck_row.html", {"deck": deck, "signed_in": signed_in})
