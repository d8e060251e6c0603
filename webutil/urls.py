"""reverse(), remembered. A list page links each of its cards several times (its page, its face,
its counter's form): hundreds of reverse() calls of about 10 µs each, always with the same answer
for the same arguments."""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from django.core.signals import setting_changed
from django.dispatch import receiver
from django.urls import get_script_prefix, get_urlconf, reverse
from django.utils.translation import get_language


def reverse_memo(name: str, *args: str | int) -> str:
    """reverse(name, args=args), remembered per URL configuration, script prefix and language
    (everything else reverse() reads)."""
    return _reverse(get_urlconf(), get_script_prefix(), get_language(), name, args)


@lru_cache(maxsize=8192)
def _reverse(urlconf: str | None, prefix: str, language: str | None, name: str, args: tuple[str | int, ...]) -> str:
    return reverse(name, args=args, urlconf=urlconf)


@receiver(setting_changed)
def _forget(setting: str, **kwargs: Any) -> None:
    # A test's override of the URL configuration changes every answer.
    if setting == "ROOT_URLCONF":
        _reverse.cache_clear()
