"""The tournament day's pages a part at a time: links to another page of one list (players,
tables, standings, names) that keep every other choice of the address (the round, the others'
pages)."""

from __future__ import annotations

from typing import Any

from django import template
from django.utils.html import format_html
from django.utils.safestring import mark_safe

register = template.Library()


@register.simple_tag(takes_context=True)
def page_url(context: Any, param: str, number: int) -> str:
    query = context["request"].GET.copy()
    query[param] = str(number)
    return "?" + query.urlencode()


def _key(parts: tuple[Any, ...]) -> str:
    return ":".join(str(part) for part in parts)


def _refused_here(context: Any, parts: tuple[Any, ...], any_action: bool = False) -> Any:
    refusal = context.get("refusal")
    if refusal is None:
        return None
    key = _key(parts)
    # A form of several buttons (check in, drop) is one form whatever button was pressed.
    return refusal if refusal.key == key or (any_action and refusal.key.startswith(key + ":")) else None


@register.simple_tag
def in_place() -> str:
    """A day action's form sent by htmx: a refusal's reason comes back into the form's place for
    it (`refused`), the input untouched; done, the page loads again at what changed."""
    return mark_safe('hx-boost="true" hx-target="find .refusal" hx-swap="innerHTML"')  # a constant


@register.simple_tag(takes_context=True)
def refused(context: Any, *parts: Any, any_action: bool = False) -> str:
    """The place in a day action's form where a refusal shows: its reason, when this form's
    action (its key: the route's name, then its ids and action, as events.views.action.form_key
    makes it) was just refused; else an empty place that htmx fills with the reason."""
    here = _refused_here(context, parts, any_action)
    if here is None:
        return mark_safe('<div class="refusal" aria-live="polite"></div>')  # a constant
    return format_html(
        '<div class="refusal" aria-live="polite"><p class="error" role="alert" id="refused">{}</p></div>', here.message
    )


@register.simple_tag(takes_context=True)
def posted(context: Any, *parts: Any, field: str, default: Any = "") -> Any:
    """What was typed in `field` of this form when its action was refused, else `default`."""
    here = _refused_here(context, parts)
    if here is None:
        return "" if default is None else default
    return here.data.get(field, "")
