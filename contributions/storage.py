"""Where photos of open proposals live: outside MEDIA_ROOT, so no public URL reaches them. They
are served by a view that checks who asks (contributions.views.photo) until a curator approves
them, when they are copied into the card's public pictures."""

from __future__ import annotations

from pathlib import Path

from django.conf import settings
from django.core.files.storage import FileSystemStorage


def private_root() -> Path:
    configured = getattr(settings, "PRIVATE_MEDIA_ROOT", None)
    return Path(configured) if configured else Path(settings.MEDIA_ROOT).parent / "private-media"


class PrivateStorage(FileSystemStorage):
    """Read from the settings at each use (tests and deployments move MEDIA_ROOT)."""

    def __init__(self) -> None:
        super().__init__(base_url=None)

    @property  # FileSystemStorage caches it; here it follows the settings
    def base_location(self) -> str:
        return str(private_root())

    @property
    def location(self) -> str:
        return str(private_root().resolve())

    def url(self, name: str | None) -> str:
        raise ValueError("private files have no URL: contributions.views.photo serves them")


def private_storage() -> PrivateStorage:
    return PrivateStorage()
