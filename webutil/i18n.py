"""What the reader's language asks of text the site shows."""

from __future__ import annotations

from django.utils.translation import get_language

SIMPLIFIED = frozenset({"zh-hans", "zh-cn", "zh-sg"})


def wants_simplified() -> bool:
    """Card data and rules messages are kept in Traditional; these readers get Simplified."""
    return (get_language() or "").lower() in SIMPLIFIED


def wants_english() -> bool:
    return (get_language() or "").lower().startswith("en")
