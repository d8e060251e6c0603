"""schemathesis over every operation of our own OpenAPI schema, in-process (WSGI).

Authenticated as alice (an API token). No answer may be a 5xx, and every answer must match the schema (status codes documented,
bodies of the documented shape). NUL bytes, huge numbers and odd Unicode come with the
generated data. Bounded examples per operation so that CI stays quick.
"""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
import schemathesis
from django.core.signals import request_finished, request_started
from django.db import close_old_connections, transaction
from hypothesis import HealthCheck, settings
from rest_framework.authtoken.models import Token
from rest_framework.views import APIView
from schemathesis.specs.openapi.checks import ignored_auth, negative_data_rejection, positive_data_acceptance

from catalog.models import Card
from catalog.query import QueryError, parse
from collection.services import change_counts
from decks import search as deck_search
from zongheng.wsgi import application

schema = schemathesis.openapi.from_wsgi("/api/schema/?format=json", application)


@pytest.fixture(autouse=True)
def no_throttling(monkeypatch):
    # Hundreds of requests a minute are the fuzzer's job; throttling is tested on its own.
    monkeypatch.setattr(APIView, "throttle_classes", [])


@pytest.fixture
def token(alice) -> str:

    change_counts(alice, Card.objects.get(code="YXJQ-003"), add=2)  # something to list
    return Token.objects.create(user=alice).key


@pytest.fixture(autouse=True)
def keep_the_test_connection_open():
    # Django closes the database connection when a request ends; inside a test that connection
    # holds the test's transaction. Django's test client unhooks this, and so must we when
    # schemathesis calls the WSGI application directly (PostgreSQL would see it closed).
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    yield
    request_started.connect(close_old_connections)
    request_finished.connect(close_old_connections)


def _names_a_card(text: str) -> bool:
    try:
        deck_search.wanted(text)
    except deck_search.SearchError:
        return False
    return True


def _headers(token: str) -> dict[str, str]:
    # The WSGI transport hands back the bytes as sent; asked for gzip (its default), it would
    # read compressed bytes as the answer. Real clients decompress; this one is asked not to.
    return {"Authorization": f"Token {token}", "Accept-Encoding": "identity"}


@pytest.mark.django_db
@schema.parametrize()
@settings(max_examples=30, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck))
def test_api_operations(case, token: str) -> None:
    excluded = []
    if case.operation.path == "/api/legality/" or case.method in ("POST", "PUT", "PATCH"):
        # Rules across fields are not expressible in the schema (legality: a `list`, or
        # `general`/`cards`, not both and not neither; collection: counts to set or to add, and
        # never below 0; decks: cards given one way, card codes that exist): such requests are
        # rightly refused with a 400.
        excluded.append(positive_data_acceptance)
    query = case.query or {}
    if "cursor" in query:
        # A cursor is an opaque position that only the API's own `next` links hold: a generated
        # one is rightly refused (400, saying so).
        excluded.append(positive_data_acceptance)
    if any("\x00" in str(value) for value in query.values()):
        # No field anywhere accepts a NUL (zongheng.middleware refuses it with a 400 naming the
        # field; PostgreSQL could not store it): a generated string holding one is rightly refused.
        excluded.append(positive_data_acceptance)
    if isinstance(query.get("q"), str) and "\x00" not in query["q"]:
        # `q` is a query language the schema cannot describe (the cards', or on the deck lists
        # the decks'): a generated string that the language refuses (400, with the position) is
        # swapped for one it reads.
        decks = case.operation.path.startswith("/api/decks/")
        try:
            (deck_search.parse if decks else parse)(query["q"])
        except QueryError:
            query["q"] = "liubei"
    for name in ("card", "without"):
        # A card named as deck lists name it: a generated string that names no card is rightly
        # refused (400, naming it), so it is swapped for a card that exists.
        given = query.get(name)
        values = given if isinstance(given, list) else [given] if isinstance(given, str) else []
        if values and all("\x00" not in str(v) for v in values):
            query[name] = [v if _names_a_card(str(v)) else "新兵" for v in values]
    headers = _headers(token)
    response = case.call(headers=headers)
    if response.status_code == 413:
        # A body over the size limit is refused before it is read: too large, whatever it holds.
        excluded.append(negative_data_rejection)
    if response.status_code in (409, 422) and "Idempotency-Key" in (case.headers or {}):
        # The generator sends one key with several different requests: the second is rightly
        # refused (accounts.idempotency), as a client that reused a key is.
        excluded.append(positive_data_acceptance)
    case.validate_response(response, excluded_checks=excluded, headers=headers, transport_kwargs={"headers": headers})


@pytest.mark.django_db
def test_api_workflows(token: str) -> None:
    """The stateful phase: calls chained through links that schemathesis infers from the schema
    (a deck created by POST is then read, patched, checked and deleted). No 5xx, every answer as
    documented."""
    base = schema.as_state_machine()

    class Workflow(base):
        # Each scenario starts from the same stored state (a savepoint rolled back after it):
        # what one scenario created must not change what the next one draws, or Hypothesis
        # sees its generation behave differently on a replay (FlakyStrategyDefinition).
        def setup(self):
            self.savepoint = transaction.savepoint()

        def teardown(self):
            transaction.savepoint_rollback(self.savepoint)

        def get_call_kwargs(self, case):
            return {"headers": _headers(token)}

        def validate_response(self, response, case, additional_checks=None, **kwargs):
            # Cross-field rules (see above) rightly refuse some generated bodies with a 400. Who may
            # call what is the authorization table's test; here the chained calls keep the test
            # client's cookies, which the auth check would take for ignored credentials.
            excluded = [positive_data_acceptance, ignored_auth]
            if response.status_code == 413:
                # A body over the size limit is refused before it is read (as in the test above).
                excluded.append(negative_data_rejection)
            if (case.media_type or "").startswith("multipart/"):
                # A mutated multipart body is not sent as generated: schemathesis writes a value it
                # cannot encode as a part without a name, and the field the check calls invalid
                # never reaches the server (a photo sent with a valid `card`, rightly accepted).
                # The photo endpoints' bad input is tested with real files in tests/collection.
                excluded.append(negative_data_rejection)
            case.validate_response(response, excluded_checks=excluded)

    Workflow.run(
        settings=settings(
            max_examples=25,
            stateful_step_count=6,
            deadline=None,
            derandomize=True,
            suppress_health_check=list(HealthCheck),
        )
    )


# Shapes that broke imports before (digits int() refuses, NUL, lone surrogates, numbers out of
# range): each in every field of every JSON body the schema documents, one at a time.
SHAPES = ["²", "٣", "a\x00b", "\ud800", "x\udfffy", 2**40, 2**70, -(2**63), "1" * 4400, 1.5, None]


def _bodies() -> list[tuple[str, str, str, Any]]:
    raw = schemathesis.openapi.from_wsgi("/api/schema/?format=json", application).raw_schema
    components = raw.get("components", {}).get("schemas", {})
    cases = []
    for path, methods in raw["paths"].items():
        for method, operation in methods.items():
            content = operation.get("requestBody", {}).get("content", {}) if isinstance(operation, dict) else {}
            ref = content.get("application/json", {}).get("schema", {}).get("$ref", "")
            properties = components.get(ref.rsplit("/", 1)[-1], {}).get("properties", {})
            for name in properties:
                for shape in SHAPES:
                    cases.append((method.upper(), path, name, shape))
    return cases


@pytest.mark.django_db
def test_hostile_shapes_in_every_json_field_are_refused_not_500(token: str, alice) -> None:
    from django.test import Client

    from tests.support.deck_helpers import make_deck

    deck = make_deck(alice, name="fuzz")
    client = Client(raise_request_exception=False, HTTP_AUTHORIZATION=f"Token {token}")
    cases = _bodies()
    assert len(cases) > 100
    failures = []
    for method, path, field, shape in cases:
        url = re.sub(r"\{[^}]+\}", lambda m: str(deck.pk) if "id" in m.group(0) else "YXJQ-003", path)
        body = json.dumps({field: shape})  # a lone surrogate goes as the escape a broken client sends
        response = client.generic(method, url, body, content_type="application/json")
        if response.status_code >= 500:
            failures.append((method, url, field, repr(shape)[:20], response.status_code))
    assert failures == []
