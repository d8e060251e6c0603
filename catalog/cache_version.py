"""A version stamp for everything derived from the catalogue (cached API answers, ETags).

Loading or editing the catalogue bumps it, so no cached answer outlives the data it came from.
"""

from __future__ import annotations

import uuid

from django.core.cache import cache

_KEY = "catalog:version"


def current() -> str:
    version = cache.get(_KEY)
    if version is None:
        version = uuid.uuid4().hex[:12]
        # add() so that two workers starting at once agree on one stamp
        cache.add(_KEY, version, timeout=None)
        version = cache.get(_KEY, version)
    return str(version)


def bump() -> None:
    cache.set(_KEY, uuid.uuid4().hex[:12], timeout=None)
