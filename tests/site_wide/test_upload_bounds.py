"""Every route that reads a file declares how large it may be (webutil.bounds.accepts), the
body-limit middleware lets exactly that through, and the README's table of bounds is the one the
declarations print. A new upload form without a declaration fails here, not on a user's phone."""

from __future__ import annotations

import re
import types
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django import forms
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import call_command
from django.db.models import FileField
from rest_framework import serializers
from rest_framework.parsers import MultiPartParser

from webutil import bounds
from zongheng.middleware import DEFAULT_BODY_LIMIT, body_limit

README = Path(__file__).resolve().parents[2] / "README.md"


def _functions(view: Any) -> Iterator[types.FunctionType]:
    """The code a route runs: the view function unwrapped, or its class's handlers."""
    owner = getattr(view, "view_class", None) or getattr(view, "cls", None)
    if owner is not None:
        for klass in owner.__mro__:
            if klass.__module__.split(".")[0] in ("django", "rest_framework", "builtins"):
                continue
            yield from (v for v in vars(klass).values() if isinstance(v, types.FunctionType))
        return
    while view is not None:
        if isinstance(view, types.FunctionType):
            yield view
        view = getattr(view, "__wrapped__", None)


def _names(code: types.CodeType) -> set[str]:
    found = set(code.co_names)
    for const in code.co_consts:
        if isinstance(const, types.CodeType):
            found |= _names(const)
    return found


def _has_file_field(thing: Any) -> bool:
    if isinstance(thing, type) and issubclass(thing, forms.BaseForm):
        return any(isinstance(f, forms.FileField) for f in thing.base_fields.values())
    if isinstance(thing, type) and issubclass(thing, serializers.Serializer):
        return any(isinstance(f, serializers.FileField) for f in thing._declared_fields.values())
    return False


def reads_files(view: Any) -> bool:
    """Whether a route reads files: it touches request.FILES, parses multipart bodies, or uses a
    form or serializer with a file field (its admin's form, for the admin's add and change)."""
    owner = getattr(view, "view_class", None) or getattr(view, "cls", None)
    if owner is not None and MultiPartParser in getattr(owner, "parser_classes", []):
        return True
    admin = getattr(view, "model_admin", None)
    if admin is not None:  # the admin's lists and pages take no files; its add and change forms may
        if getattr(view, "__name__", "") not in bounds.ADMIN_FORMS:
            return False
        model_files = any(isinstance(f, FileField) and f.editable for f in admin.model._meta.fields)
        return model_files or any(_has_file_field(f) for f in [admin.form, *(i.form for i in admin.inlines)])
    for function in _functions(view):
        names = _names(function.__code__)
        if "FILES" in names or any(_has_file_field(function.__globals__.get(n)) for n in names):
            return True
    return False


def _sample(route: str) -> str:
    """A path the route answers: each converter given a value of its kind."""
    filled = re.sub(r"<(?:int:)?\w*id\w*>|<int:\w+>", "1", route)
    filled = re.sub(r"<path:\w+>", "1", filled)
    return "/" + re.sub(r"<(?:str:|slug:)?\w+>", "WD-001", filled)


ROUTES = list(bounds.walk())


def test_the_walk_finds_the_routes_that_read_files() -> None:
    # The detector itself: it must see the upload routes we know of, and not a plain page.
    readers = {route for route, view in ROUTES if reads_files(view)}
    assert {"api/scans/", "collection/scan/", "events/<int:event_id>/paper/", "check/", "decks/archive/"} <= readers
    assert "cards/" not in readers and "decks/mine/" not in readers


FILE_ROUTES = [(r, v) for r, v in ROUTES if reads_files(v)]


# Named by route alone: a view's repr holds its address, which differs between xdist's workers.
@pytest.mark.parametrize(("route", "view"), FILE_ROUTES, ids=[r for r, _v in FILE_ROUTES])
def test_every_route_that_reads_a_file_declares_its_bound(route: str, view: Any) -> None:
    declared = bounds.accepted_by(view)
    assert declared is not None, f"{route} reads files but declares no bound (webutil.bounds.accepts)"
    largest = max(int(bound.value) for bound, _count in declared.files)
    limit = body_limit(_sample(route))
    assert limit >= largest + bounds.MULTIPART_OVERHEAD and limit > DEFAULT_BODY_LIMIT, route


def test_a_route_without_files_keeps_the_default_body_limit() -> None:
    assert body_limit("/decks/mine/") == DEFAULT_BODY_LIMIT
    assert body_limit("/no/such/page/") == DEFAULT_BODY_LIMIT
    assert body_limit("/collection/scan/") >= 10 * 25 * bounds.MB


def test_a_bound_is_declared_once() -> None:
    with pytest.raises(ValueError, match="declared twice"):
        bounds.declare("image", 1, "bytes", "another image bound")


def test_the_readme_table_is_the_one_the_declarations_print(capsys) -> None:
    call_command("bounds")
    table = capsys.readouterr().out
    assert "| image | 25 MB |" in table and "| `collection/scan/` | 10 × image |" in table
    assert table in README.read_text(encoding="utf-8"), "README: paste the output of `manage.py bounds`"


def test_a_new_upload_bound_is_one_declaration_that_everything_follows(monkeypatch, settings, capsys) -> None:
    """A bound declared and named by one route's @accepts: the body limit lets that much through
    on that route alone, the README's table and the templates show it, nothing else is written."""
    from django.http import HttpRequest, HttpResponse
    from django.test import Client
    from django.urls import path

    monkeypatch.setattr(bounds, "_REGISTRY", dict(bounds._REGISTRY))
    fake = bounds.upload("tapestry", 3 * bounds.MB, "a photographed tapestry")

    @bounds.accepts(fake)
    def tapestry(request: HttpRequest) -> HttpResponse:
        return HttpResponse(str(len(request.FILES["tapestry"].read())))

    def plain(request: HttpRequest) -> HttpResponse:
        return HttpResponse("plain")

    urls = types.ModuleType("tapestry_urls")
    urls.urlpatterns = [path("tapestry/", tapestry), path("plain/", plain)]  # type: ignore[attr-defined]
    settings.ROOT_URLCONF = urls
    settings.MIDDLEWARE = [m for m in settings.MIDDLEWARE if "Csrf" not in m]

    def two_mb() -> dict[str, SimpleUploadedFile]:
        return {"tapestry": SimpleUploadedFile("t.jpg", b"\xff" * (2 * bounds.MB))}

    answer = Client().post("/tapestry/", two_mb())
    assert answer.status_code == 200 and answer.content == str(2 * bounds.MB).encode()
    assert Client().post("/plain/", two_mb()).status_code == 413  # the default limit elsewhere
    call_command("bounds")
    table = capsys.readouterr().out
    assert "| tapestry | 3 MB | a photographed tapestry |" in table and "| `tapestry/` | tapestry |" in table
    assert bounds.context(None)["bounds"]["tapestry"] is fake
