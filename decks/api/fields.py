"""API fields of decks' answers and requests."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from rest_framework import serializers

from groups import formats
from groups.models import MAX_KEY
from rules_check import FORMATS
from webutil.fields import StrictCharField

FORMAT_HELP = (
    f"An official format ({', '.join(FORMATS)}) or the key of a house format of one of my play groups "
    "(g<group id>-<slug>)"
)


class FormatField(StrictCharField):
    """A format key the caller may choose: an official format, or a house format of one of their
    play groups. Any other (someone else's house format too) is a 400, never telling which."""

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("max_length", MAX_KEY)
        kwargs.setdefault("help_text", FORMAT_HELP)
        super().__init__(**kwargs)

    def to_internal_value(self, data: Any) -> str:
        key = super().to_internal_value(data)
        request = self.context.get("request")
        if not formats.may_use(getattr(request, "user", None), key):
            raise serializers.ValidationError(
                _("No format “%(key)s” that you may choose: %(official)s, or a house format of your groups.")
                % {"key": key[:MAX_KEY], "official": ", ".join(FORMATS)}
            )
        return key
