"""OpenAPI schema additions that hold for every operation."""

from __future__ import annotations

from typing import Any


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
