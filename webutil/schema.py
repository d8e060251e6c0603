"""OpenAPI schema additions that hold for every operation."""

from __future__ import annotations

from typing import Any

from drf_spectacular.openapi import AutoSchema


def document_body_limit(result: dict[str, Any], generator: Any, request: Any, public: bool) -> dict[str, Any]:
    """Every operation that takes a body may answer 413: the body is larger than the API accepts
    (zongheng.middleware.RequestGuardMiddleware), before any view reads it."""
    error = {
        "description": "The body is larger than the API accepts: {detail: message}",
        "content": {"application/json": {"schema": {"type": "object"}}},
    }
    for operations in result.get("paths", {}).values():
        for operation in operations.values():
            if isinstance(operation, dict) and "requestBody" in operation:
                operation.setdefault("responses", {}).setdefault("413", error)
    return result


IDEMPOTENCY_KEY = {
    "name": "Idempotency-Key",
    "in": "header",
    "required": False,
    "schema": {"type": "string", "pattern": "^[A-Za-z0-9_.:-]{1,64}$"},
    "description": (
        "A key of your own for this write (a UUID): sent again with the same request within a day, the "
        "first answer is given again (header Idempotent-Replayed: true) and nothing is done twice; with "
        "another request, 422."
    ),
}


def document_idempotency(result: dict[str, Any], generator: Any, request: Any, public: bool) -> dict[str, Any]:
    """Every write (POST, PUT, PATCH, DELETE) takes an Idempotency-Key (accounts.idempotency), and
    may answer 409 (the same key still being done) or 422 (the same key with another request)."""
    refusal = {"content": {"application/json": {"schema": {"type": "object"}}}}
    for operations in result.get("paths", {}).values():
        for method, operation in operations.items():
            if method in ("post", "put", "patch", "delete") and isinstance(operation, dict):
                operation.setdefault("parameters", []).append(IDEMPOTENCY_KEY)
                responses = operation.setdefault("responses", {})
                responses.setdefault("400", {"description": "Bad request: {detail or field: messages}", **refusal})
                responses.setdefault("409", {"description": "This key's first request is still being done", **refusal})
                responses.setdefault("422", {"description": "This key was sent before with another request", **refusal})
    return result


THROTTLED = {
    "description": "Too many requests: {detail: message}. Retry-After says how many seconds to wait.",
    "headers": {
        "Retry-After": {
            "schema": {"type": "integer", "minimum": 0},
            "description": "Seconds to wait before the next request",
        }
    },
    "content": {"application/json": {"schema": {"type": "object"}}},
}


class ThrottledAutoSchema(AutoSchema):
    """drf-spectacular's schema, plus a 429 with `Retry-After` on every operation whose view is
    throttled: a client generated from the schema otherwise treats a throttled call as an
    unexpected status."""

    def _get_response_bodies(self, direction: Any = "response") -> dict[str, Any]:
        responses: dict[str, Any] = super()._get_response_bodies(direction)
        if direction == "response" and self.view.get_throttles():
            # An operation that names its own 429 (a limit of its own) keeps its words.
            responses["429"] = {**THROTTLED, **responses.get("429", {}), "headers": THROTTLED["headers"]}
        return responses
