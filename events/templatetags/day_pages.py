"""The tournament day's pages a part at a time: links to another page of one list (players,
tables, standings, names) that keep every other choice of the address (the round, the others'
pages)."""

from __future__ import annotations

from typing import Any

from django import template

register = template.Library()


@register.simple_tag(takes_context=True)
def page_url(context: Any, param: str, number: int) -> str:
    query = context["request"].GET.copy()
    query[param] = str(number)
    return "?" + query.urlencode()
