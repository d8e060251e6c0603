"""Every request leaves one JSON line in the request log, and its id in an answer header."""

from __future__ import annotations

import json
import logging

import pytest
from django.test import Client

pytestmark = pytest.mark.django_db


def lines(caplog: pytest.LogCaptureFixture) -> list[dict[str, object]]:
    return [json.loads(r.getMessage()) for r in caplog.records if r.name == "zongheng.requests"]


def test_a_request_is_logged_as_json_with_its_id(client: Client, caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.INFO, logger="zongheng.requests"):
        response = client.get("/cards/WJ-001/")
    [line] = lines(caplog)
    assert response["X-Request-ID"] == line["request_id"] and len(str(line["request_id"])) == 32
    assert (line["method"], line["path"], line["status"], line["user"]) == ("GET", "/cards/WJ-001/", 200, None)
    assert isinstance(line["ms"], float)


def test_a_proxys_id_is_kept_and_a_strange_one_replaced(
    alice_client: Client, alice, caplog: pytest.LogCaptureFixture
) -> None:
    with caplog.at_level(logging.INFO, logger="zongheng.requests"):
        kept = alice_client.get("/decks/mine/", headers={"X-Request-ID": "edge-7f3a.1"})
        replaced = alice_client.get("/nope/", headers={"X-Request-ID": "<script>" * 20})
    first, second = lines(caplog)
    assert kept["X-Request-ID"] == first["request_id"] == "edge-7f3a.1" and first["user"] == alice.pk
    assert replaced["X-Request-ID"] == second["request_id"] != "<script>" * 20 and second["status"] == 404
