"""A client that reads the site in one language, as a visitor who chose it in the footer does."""

from __future__ import annotations

from typing import Any

from django.test import Client


def reader(language: str, user: Any = None) -> Client:
    """A client whose pages come in `language` (the language cookie set by the site's own form),
    logged in as `user` when given."""
    client = Client()
    client.post("/i18n/setlang/", {"language": language, "next": "/"})
    if user is not None:
        client.force_login(user)
    return client
