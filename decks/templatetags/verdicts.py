"""How many of a verdict's problems a page lists: the first ones, then "and N more"."""

from __future__ import annotations

from django import template

from rules_check import Problem, Verdict
from rules_check.model import MAX_LISTED_PROBLEMS

register = template.Library()


@register.filter
def listed_problems(verdict: Verdict) -> tuple[Problem, ...]:
    return verdict.problems[:MAX_LISTED_PROBLEMS]


@register.filter
def unlisted_problems(verdict: Verdict) -> int:
    return max(0, len(verdict.problems) - MAX_LISTED_PROBLEMS)
