from __future__ import annotations

from typing import Any

from django.core.exceptions import ValidationError as DjangoValidationError
from django.http import HttpRequest
from django.utils.translation import gettext as _
from rest_framework.exceptions import NotFound, ValidationError
from rest_framework.pagination import CursorPagination, PageNumberPagination
from rest_framework.request import Request

from webutil.numbers import whole_number

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
        size = whole_number(raw, low=1, high=MAX_PAGE_SIZE)
        if size is None:
            raise ValidationError(
                {"page_size": [_("must be a whole number from 1 to %(max)d") % {"max": MAX_PAGE_SIZE}]}
            )
        return size


# Pages of cards: ?per_page=1..200, else 60.
PAGE_SIZE = 60
MAX_PER_PAGE = 200


def per_page(request: HttpRequest, default: int = PAGE_SIZE) -> int:
    """Rows a page shows: ?per_page=1..200, else the default (60 cards)."""
    raw = request.GET.get("per_page", "")
    size = whole_number(raw, low=1, max_digits=5)
    return min(size, MAX_PER_PAGE) if size is not None else default


def _not_a_position() -> str:
    return str(_("This is not a position in the list: follow the next link."))


class StrictCursorPagination(CursorPagination):
    """Keyset pages for long lists: `next` carries a position, not a page number, so the
    thousandth page costs what the first does (no OFFSET, no COUNT). `page_size` as above."""

    page_size = 50
    page_size_query_param = "page_size"
    max_page_size = MAX_PAGE_SIZE
    ordering: tuple[str, ...] = ("-updated", "-id")

    def get_page_size(self, request: Request) -> int:
        return StrictPageNumberPagination.get_page_size(self, request)  # type: ignore[arg-type]  # the same rule

    def decode_cursor(self, request: Request) -> Any:
        try:
            return super().decode_cursor(request)
        except NotFound:
            raise ValidationError({"cursor": [_not_a_position()]}) from None

    def paginate_queryset(self, queryset: Any, request: Request, view: Any = None) -> list[Any] | None:
        # A cursor that decodes but whose position is no value of the sort field (`p=abc` for a
        # time) fails only when the page is read: it is a bad cursor too, never a 500.
        try:
            return super().paginate_queryset(queryset, request, view)
        except (DjangoValidationError, ValueError, TypeError, OverflowError):
            if request.query_params.get(self.cursor_query_param):
                raise ValidationError({"cursor": [_not_a_position()]}) from None
            raise


class SlicePage:
    """A page of a list without counting the list: one row more than shown says whether there is
    a next page. Page numbers stop at `max_page` (filter to go further)."""

    def __init__(self, rows: Any, number: int, per_page: int) -> None:
        items = list(rows[(number - 1) * per_page : number * per_page + 1])
        self.number = number
        self.object_list = items[:per_page]
        self._more = len(items) > per_page

    def has_next(self) -> bool:
        return self._more

    def has_previous(self) -> bool:
        return self.number > 1

    def has_other_pages(self) -> bool:
        return self.has_next() or self.has_previous()

    def next_page_number(self) -> int:
        return self.number + 1

    def previous_page_number(self) -> int:
        return self.number - 1


def page_number(request: HttpRequest, max_page: int) -> int | None:
    """The ?page= asked for (1 when absent or not a number); None when past `max_page`."""
    raw = request.GET.get("page", "")
    number = whole_number(raw, low=1, max_digits=7) or 1
    return number if number <= max_page else None
