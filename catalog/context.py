"""`catalog_version` for every template: the key of fragments cached until the catalogue changes
(`{% cache … catalog_version … %}`). Read only when a template uses it."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest
from django.utils.functional import SimpleLazyObject

from catalog import cache_version


def catalog_version(request: HttpRequest) -> dict[str, Any]:
    return {"catalog_version": SimpleLazyObject(cache_version.current)}
