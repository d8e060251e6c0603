"""`{% idempotency_field %}`: beside `{% csrf_token %}` in every form of the site, a hidden key made
for this rendering of the form, so that sending it twice (a double tap, a reload that posts
again, a retry after a lost answer) does the write once (accounts.idempotency)."""

from __future__ import annotations

from uuid import uuid4

from django import template
from django.utils.html import format_html
from django.utils.safestring import SafeString

from accounts.idempotency import FIELD

register = template.Library()


@register.simple_tag
def idempotency_field() -> SafeString:
    return format_html('<input type="hidden" name="{}" value="{}">', FIELD, uuid4().hex)
