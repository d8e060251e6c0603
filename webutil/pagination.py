from __future__ import annotations

from django.http import HttpRequest
from django.utils.translation import gettext as _
from rest_framework.exceptions import ValidationError
from rest_framework.pagination import PageNumberPagination
from rest_framework.request import Request

MAX_PAGE_SIZE = 500


class StrictPageNumberPagination(PageNumberPagination):
    """Page-number pagination whose `page_size` is refused (400), not silently clamped, when bad."""

    page_size = 50
    page_size_query_param = "page_size"
    max_page_size = MAX_PAGE_SIZE

    def get_page_size(self, request: Request) -> int:
        raw = request.query_params.get(self.page_size_query_param)
        if raw is None or raw == "":
            return self.page_size
        if not raw.isdigit() or not 1 <= int(raw) <= MAX_PAGE_SIZE:
            raise ValidationError(
                {"page_size": [_("must be a whole number from 1 to %(max)d") % {"max": MAX_PAGE_SIZE}]}
            )
        return int(raw)


# Pages of cards: ?per_page=1..200, else 60.
PAGE_SIZE = 60
MAX_PER_PAGE = 200


def per_page(request: HttpRequest) -> int:
    """Cards a page shows: ?per_page=1..200, else 60."""
    raw = request.GET.get("per_page", "")
    return min(int(raw), MAX_PER_PAGE) if raw.isdigit() and int(raw) > 0 else PAGE_SIZE
