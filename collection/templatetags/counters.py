"""A card's counter (my copies: − count + for copies and for foils, and the counts typed in),
and my collection's rows: webutil.rows, the whole list in one template."""

from __future__ import annotations

from typing import Any

from django import template
from django.utils.safestring import SafeString
from django.utils.translation import ngettext, pgettext

from webutil import rows
from webutil.urls import reverse_memo

register = template.Library()


_PAGE = object()


def _page_values(context: Any) -> dict[str, Any]:
    """What every counter of a page shares: the reader, the address to come back to, the form's
    token and the Set button's word; made once a page (a card list has sixty counters)."""
    found: dict[str, Any] | None = context.render_context.get(_PAGE)
    if found is None:
        found = context.render_context[_PAGE] = _made_page_values(context)
    return found


def _made_page_values(context: Any) -> dict[str, Any]:
    user = context.get("user")
    request = context.get("request")
    return {
        "signed_in": user is not None and user.is_authenticated,
        "next": request.get_full_path() if request is not None else "",
        "csrf_token": rows.csrf_token(context),
        "set_label": pgettext("button: set the counts", "Set"),
    }


def _card_values(card: Any) -> dict[str, Any]:
    owned = int(getattr(card, "owned", 0) or 0)
    foils = int(getattr(card, "owned_foil", 0) or 0)
    in_built = int(getattr(card, "in_built", 0) or 0)
    values = {
        "card": card,
        "change": reverse_memo("collection:change", card.code),
        "owned": owned,
        "foils": foils,
        "in_built": in_built,
        "over_committed": in_built > owned + foils,
        "in_built_text": "",
    }
    if in_built:
        held = ngettext("%(counter)s copy in built decks", "%(counter)s copies in built decks", in_built)
        values["in_built_text"] = held % {"counter": in_built}
    return values


@register.simple_tag(takes_context=True)
def counter(context: Any, card: Any, compact: bool = False, error: str | None = None) -> SafeString:
    """One form a card; an empty box for a reader who is not signed in (htmx swaps it whole)."""
    values = {**_page_values(context), **_card_values(card), "compact": compact, "error": error}
    return rows.render("collection/counter.html", values)


@register.simple_tag(takes_context=True)
def own_rows(context: Any, cards: Any) -> SafeString:
    """My collection's rows: each card (name, code, kind, rarity), then its compact counter."""
    values = {**_page_values(context), "compact": True, "error": None}
    return rows.render("collection/own_rows.html", {**values, "rows": [_card_values(card) for card in cards]})
