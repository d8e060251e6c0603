"""A JSON parser for the API that refuses what would exhaust the stack.

JSON nested 1,000 deep made `json.loads` (or the serializers walking the result) raise
RecursionError, a 500. Nesting is measured before parsing, in one pass over the bytes, and any
document deeper than a real request could need is a 400.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from itertools import accumulate
from typing import Any

from django.conf import settings
from django.utils.translation import gettext as _
from rest_framework.exceptions import ParseError, ValidationError
from rest_framework.parsers import JSONParser

from webutil.text import BIDI, UnsafeText, clean_document

# A deck is {"cards": [{"card": …}]}: depth 3. Nothing we accept is deeper than a few levels.
MAX_DEPTH = 32


_STRING = re.compile(rb'"[^"\\]*(?:\\.[^"\\]*)*"', re.DOTALL)
_NOT_BRACKET = bytes(b for b in range(256) if b not in b"[]{}")
_STEP = [0] * 256
for _open in b"[{":
    _STEP[_open] = 1
for _close in b"]}":
    _STEP[_close] = -1


def json_depth(data: bytes) -> int:
    """The deepest nesting of arrays and objects in a JSON text, outside strings.

    Strings are cut out and everything but brackets dropped by the regex and bytes machinery, so
    the count runs over the brackets alone, at C speed.
    """
    brackets = _STRING.sub(b"", data).translate(None, _NOT_BRACKET)
    if not brackets:
        return 0
    return max(0, max(accumulate(map(_STEP.__getitem__, brackets))))


class SafeJSONParser(JSONParser):
    def parse(self, stream: Any, media_type: str | None = None, parser_context: Mapping[str, Any] | None = None) -> Any:
        data = stream.read() if stream is not None else b""
        if len(data) > settings.DATA_UPLOAD_MAX_MEMORY_SIZE:
            raise ParseError(
                _("The request body is larger than %(n)d bytes.") % {"n": settings.DATA_UPLOAD_MAX_MEMORY_SIZE}
            )
        if json_depth(data) > MAX_DEPTH:
            raise ParseError(_("JSON nested deeper than %(n)d levels is not accepted.") % {"n": MAX_DEPTH})
        try:
            text = data.decode("utf-8")
            document = json.loads(text, parse_constant=_refuse_constant)
        except (ValueError, RecursionError) as exc:
            raise ParseError(_("The body is not valid JSON: %(reason)s") % {"reason": str(exc)[:120]}) from None
        # A NUL or a lone surrogate reaches valid JSON only as a \u escape (raw, the one is not
        # JSON and the other not UTF-8): a body with neither an escape nor a bidi control is
        # clean already, and is not walked.
        if "\\u" not in text and not BIDI.search(text):
            return document
        try:
            return clean_document(document)
        except UnsafeText as exc:
            reason, where = exc.args
            raise ValidationError({where or "non_field_errors": [unsafe_message(reason)]}) from None


def unsafe_message(reason: str) -> str:
    """What a client is told of text that no field may hold (webutil.text.unsafe_reason)."""
    if reason == "NUL":
        return _("The request contains a NUL character, which no field accepts.")
    return _("The text holds a lone surrogate (\\ud800 to \\udfff without its pair): it is not Unicode text.")


def _refuse_constant(name: str) -> Any:
    # NaN and Infinity are not JSON; Python would accept them.
    raise ValueError(f"{name} is not valid JSON")
