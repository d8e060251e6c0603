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
