"""Requests to the site's WSGI application itself (zongheng.wsgi.application: the front door
that sends stored catalogue answers, then Django), as a WSGI server makes them."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from django.core.signals import request_finished, request_started
from django.db import close_old_connections
from django.test import RequestFactory


@dataclass
class Answer:
    status: int
    headers: dict[str, str] = field(default_factory=dict)
    body: bytes = b""

    def __getitem__(self, name: str) -> str:
        return self.headers[name.lower()]


@contextmanager
def _connections_kept() -> Iterator[None]:
    # As Django's test client does: a request must not close the test's database connection
    # (its transaction holds the test's data).
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    try:
        yield
    finally:
        request_started.connect(close_old_connections)
        request_finished.connect(close_old_connections)


def call(method: str, path: str, headers: dict[str, str] | None = None) -> Answer:
    from zongheng.wsgi import application

    environ = RequestFactory().generic(method, path, headers=headers or {}).environ
    sent: dict[str, Any] = {}

    def start_response(status: str, response_headers: list[tuple[str, str]], *exc_info: Any) -> None:
        sent["status"], sent["headers"] = status, response_headers

    with _connections_kept():
        result = application(environ, start_response)
        try:
            body = b"".join(result)
        finally:
            if hasattr(result, "close"):
                result.close()
    return Answer(int(sent["status"].split()[0]), {k.lower(): v for k, v in sent["headers"]}, body)


def get(path: str, **headers: str) -> Answer:
    return call("GET", path, headers)
