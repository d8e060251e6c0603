"""What the reader's language asks of text the site shows."""

from __future__ import annotations

from django.utils.translation import get_language, gettext_noop, pgettext

SIMPLIFIED = frozenset({"zh-hans", "zh-cn", "zh-sg"})

# Django's forms end each label with gettext(":"). Its own Simplified catalogue keeps the ASCII
# colon, which mainland readers do not write after a label; ours says "：" in both scripts.
# Marked here so that makemessages keeps the message in our catalogue.
LABEL_SUFFIX = gettext_noop(":")


def colon() -> str:
    """What follows a label before its value: "：" in Chinese, ": " in English (templates write
    the same message as {% translate ": " context "after a label" %})."""
    return pgettext("after a label", ": ")


def wants_simplified() -> bool:
    """Card data and rules messages are kept in Traditional; these readers get Simplified."""
    return (get_language() or "").lower() in SIMPLIFIED


def wants_english() -> bool:
    return (get_language() or "").lower().startswith("en")
