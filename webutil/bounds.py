"""Every bound the site keeps on what a request or a piece of work may cost, declared once where
the code that keeps it lives, and gathered here: the body-limit middleware, the README's table of
bounds (`manage.py bounds`) and the tests read them from this one registry."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any, TypeVar

from django.urls import URLPattern, URLResolver, get_resolver

KB = 1024
MB = 1024 * 1024


@dataclass(frozen=True)
class Bound:
    """One bound: a number, its unit, and what it bounds, in words for the README."""

    key: str  # stable: tests and the README's table name it
    value: int | float
    unit: str  # "bytes", "pixels", "pages", "files", "terms", "seconds"…
    what: str
    kind: str = "limit"  # "upload": the largest file of one kind a route accepts

    def __int__(self) -> int:
        return int(self.value)

    @property
    def shown(self) -> str:
        """The value as the README writes it (bytes in KiB or MB)."""
        if self.unit == "bytes":
            if self.value >= MB and self.value % MB == 0:
                return f"{int(self.value) // MB} MB"
            return f"{int(self.value) // KB} KiB"
        if isinstance(self.value, float) and not self.value.is_integer():
            return f"{self.value:g} {self.unit}"
        return f"{int(self.value):,} {self.unit}"


_REGISTRY: dict[str, Bound] = {}


def declare(key: str, value: int | float, unit: str, what: str, *, kind: str = "limit") -> Bound:
    """A bound, registered under its key (declared once: a second declaration is a mistake)."""
    bound = Bound(key, value, unit, what, kind)
    if key in _REGISTRY and _REGISTRY[key] != bound:
        raise ValueError(f"the bound {key!r} is declared twice")
    _REGISTRY[key] = bound
    return bound


def upload(key: str, max_bytes: int, what: str) -> Bound:
    """The largest file of one kind (a photo, a zip, a PDF…) that a route reading it accepts."""
    return declare(key, max_bytes, "bytes", what, kind="upload")


def registered() -> Iterator[Bound]:
    return iter(sorted(_REGISTRY.values(), key=lambda b: (b.kind != "upload", b.key)))


def context(request: Any) -> dict[str, Any]:
    """Templates name a bound as `bounds.image`, `bounds.pdf_pages`…: the hints beside a file
    field say what the code keeps, never a number of their own."""
    return {"bounds": {key.replace(" ", "_"): bound for key, bound in _REGISTRY.items()}}


# A multipart body carries headers and the form's other fields beside its files.
MULTIPART_OVERHEAD = MB


@dataclass(frozen=True)
class Accepts:
    """What one route reads from a request body: each kind of file, and how many at once."""

    files: tuple[tuple[Bound, int], ...] = field(default_factory=tuple)

    @property
    def body_limit(self) -> int:
        return sum(int(bound.value) * count for bound, count in self.files) + MULTIPART_OVERHEAD

    def describe(self) -> str:
        return " + ".join(f"{count} × {bound.key}" if count > 1 else bound.key for bound, count in self.files)


V = TypeVar("V")


def accepts(*files: Bound | tuple[Bound, int]) -> Callable[[V], V]:
    """Declare, on a view (a function or a class), the files its request body may carry: the
    body-limit middleware lets through a body of their size and no more (a form that takes one
    kind or another, a zip or many lists, declares both: its limit is their sum)."""
    parts = tuple(item if isinstance(item, tuple) else (item, 1) for item in files)

    def mark(view: V) -> V:
        view.upload_accepts = Accepts(parts)  # type: ignore[attr-defined]  # read by accepted_by
        return view

    return mark


# The admin views that show a model's form (and so its file fields).
ADMIN_FORMS = frozenset({"add_view", "change_view"})


def accepted_by(view: Any) -> Accepts | None:
    """The upload declaration of a resolved view: the function's, its class's (Django's and
    DRF's as_view), or its ModelAdmin's (the admin's wrapped views)."""
    holders = [view, getattr(view, "view_class", None), getattr(view, "cls", None)]
    if getattr(view, "__name__", "") in ADMIN_FORMS:  # the admin's: only its forms take files
        holders.append(getattr(view, "model_admin", None))
    for holder in holders:
        declared = getattr(holder, "upload_accepts", None)
        if isinstance(declared, Accepts):
            return declared
    return None


def walk(patterns: list[Any] | None = None, prefix: str = "") -> Iterator[tuple[str, Any]]:
    """Every route of the site as (its pattern, its view): the URL configuration walked whole."""
    for entry in get_resolver().url_patterns if patterns is None else patterns:
        if isinstance(entry, URLResolver):
            yield from walk(entry.url_patterns, prefix + str(entry.pattern))
        elif isinstance(entry, URLPattern):
            yield prefix + str(entry.pattern), entry.callback


def size_text(size: int) -> str:
    """A size as the README writes it: 26 MB, 42.2 MB, 512 KiB."""
    if size < MB:
        return f"{size // KB} KiB"
    return f"{size / MB:.1f}".removesuffix(".0") + " MB"


def upload_routes() -> list[tuple[str, Accepts]]:
    """The routes that declare uploads, with what they accept."""
    found = [(route, accepted_by(view)) for route, view in walk()]
    return sorted((route, accepts) for route, accepts in found if accepts is not None)


def markdown() -> str:
    """The README's table of bounds, and of the routes that take files, from the declarations."""
    lines = ["| bound | value | what it bounds |", "| --- | --- | --- |"]
    lines += [f"| {bound.key} | {bound.shown} | {bound.what} |" for bound in registered()]
    lines += ["", "| route | accepts | largest request |", "| --- | --- | --- |"]
    lines += [
        f"| `{route}` | {accepts.describe()} | {size_text(accepts.body_limit)} |" for route, accepts in upload_routes()
    ]
    return "\n".join(lines) + "\n"
