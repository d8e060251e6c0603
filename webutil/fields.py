"""API fields shared by every app."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from webutil.text import strip_bidi


class StrictCharField(serializers.CharField):
    """Text only: a number or a list where text belongs is a malformed request, not "12"."""

    def to_internal_value(self, data: Any) -> str:
        if not isinstance(data, str):
            self.fail("invalid")
        return str(super().to_internal_value(strip_bidi(data)))


class StrictBooleanField(serializers.BooleanField):
    """true or false only: 0, 1 or "yes" where a JSON boolean belongs is a malformed request."""

    def to_internal_value(self, data: Any) -> bool:
        if type(data) is not bool:
            self.fail("invalid")
        return data
