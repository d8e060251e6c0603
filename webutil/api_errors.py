"""API refusals the framework has no class for, shared by the apps' APIs."""

from __future__ import annotations

from rest_framework import status
from rest_framework.exceptions import APIException, NotFound, PermissionDenied, ValidationError


class Conflict(APIException):
    """409: the request is right but the thing is not in a state to take it."""

    status_code = status.HTTP_409_CONFLICT


class TooMany(APIException):
    """429 for a limit of the thing itself (open proposals, photos waiting), not the throttle's."""

    status_code = status.HTTP_429_TOO_MANY_REQUESTS


def refusal(status_code: int, message: str, field: str = "detail") -> APIException:
    """A service's refusal as the API answers it: its status, its message (on `field` for a 400)."""
    if status_code == 404:
        return NotFound(message)
    if status_code == 403:
        return PermissionDenied(message)
    if status_code == 409:
        return Conflict(message)
    if status_code == 429:
        return TooMany(message)
    return ValidationError({field: [message]})
