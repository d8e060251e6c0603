"""A card's counter (my copies: − count + for copies and for foils, and the counts typed in),
and a row of my collection. A list shows sixty of them: they are rows of webutil.rows."""

from __future__ import annotations

from typing import Any

from django import template
from django.utils.safestring import SafeString
from django.utils.translation import ngettext, pgettext

from webutil import rows
from webutil.urls import reverse_memo

register = template.Library()
_HERE = object()


@register.simple_tag(takes_context=True)
def counter(context: Any, card: Any, compact: bool = False, error: str | None = None) -> SafeString:
    """One form a card; an empty box for a reader who is not signed in (htmx swaps it whole)."""
    return rows.render("collection/counter.html", _counter_values(context, card, compact, error))


def _counter_values(context: Any, card: Any, compact: bool, error: str | None) -> dict[str, Any]:
    user = context.get("user")
    request = context.get("request")
    # A page's sixty counters go back to the same address: it is asked once a page.
    here = context.render_context.get(_HERE)
    if here is None:
        here = context.render_context[_HERE] = request.get_full_path() if request is not None else ""
    owned = int(getattr(card, "owned", 0) or 0)
    foils = int(getattr(card, "owned_foil", 0) or 0)
    in_built = int(getattr(card, "in_built", 0) or 0)
    values = {
        "card": card,
        "compact": compact,
        "error": error,
        "signed_in": user is not None and user.is_authenticated,
        "change": reverse_memo("collection:change", card.code),
        "csrf_token": rows.csrf_token(context),
        "next": here,
        "owned": owned,
        "foils": foils,
        "set_label": pgettext("button: set the counts", "Set"),
        "in_built": in_built,
        "over_committed": in_built > owned + foils,
    }
    if in_built:
        held = ngettext("%(counter)s copy in built decks", "%(counter)s copies in built decks", in_built)
        values["in_built_text"] = held % {"counter": in_built}
    return values


@register.simple_tag(takes_context=True)
def own_row(context: Any, card: Any) -> SafeString:
    """A row of my collection: the card, then its compact counter (drawn in the same template)."""
    return rows.render("collection/own_row.html", _counter_values(context, card, True, None))
