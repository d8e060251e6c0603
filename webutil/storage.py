"""Private files (photos of proposals under review): a directory outside MEDIA_ROOT, or `private/`
in the bucket when media live on S3-compatible storage (zongheng.storage), never with a public
URL: a view that checks permission serves them.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO, Any

from django.conf import settings
from django.core.files.base import File
from django.core.files.storage import FileSystemStorage, Storage
from django.db import transaction
from storages.backends.s3 import S3Storage

PRIVATE_PREFIX = "private"


def s3_options() -> dict[str, Any] | None:
    """The S3 settings (from the environment, read in settings), or None for the file system."""
    options: dict[str, Any] | None = getattr(settings, "MEDIA_S3", None)
    return options


def private_root() -> Path:
    configured = getattr(settings, "PRIVATE_MEDIA_ROOT", None)
    return Path(configured) if configured else Path(settings.MEDIA_ROOT).parent / "private-media"


class PrivateStorage(Storage):
    """Files no public URL reaches: a directory outside MEDIA_ROOT, or `private/` in the bucket.
    Chosen from the settings at each use (tests and deployments move them)."""

    def backend(self) -> Storage:
        options = s3_options()
        if options is not None:
            bucket: Storage = S3Storage(**{**options, "location": PRIVATE_PREFIX, "default_acl": "private"})
            return bucket
        return FileSystemStorage(location=private_root(), base_url=None)

    def _open(self, name: str, mode: str = "rb") -> File[bytes]:
        return self.backend().open(name, mode)

    def _save(self, name: str, content: IO[bytes]) -> str:
        return self.backend().save(name, content)

    def delete(self, name: str) -> None:
        self.backend().delete(name)

    def exists(self, name: str) -> bool:
        return self.backend().exists(name)

    def size(self, name: str) -> int:
        return self.backend().size(name)

    def listdir(self, path: str) -> tuple[list[str], list[str]]:
        return self.backend().listdir(path)

    def get_available_name(self, name: str, max_length: int | None = None) -> str:
        return self.backend().get_available_name(name, max_length=max_length)

    def path(self, name: str) -> str:
        return self.backend().path(name)  # the file system's only; S3 has no local path

    def url(self, name: str | None) -> str:
        raise ValueError("private files have no URL: a view that checks permission serves them")


def private_storage() -> PrivateStorage:
    return PrivateStorage()


@contextmanager
def taken_back_unless_kept(names: Iterable[str]) -> Iterator[None]:
    """Private files written before the block (a large upload is written before any row lock is
    taken), deleted again when the block fails: a refused or rolled-back write leaves none."""
    try:
        yield
    except BaseException:
        for name in names:
            private_storage().delete(name)
        raise


def delete_on_commit(names: Iterable[str]) -> None:
    """Private files deleted once the transaction that stops referring to them commits."""
    gone = [name for name in names if name]

    def delete() -> None:
        storage = private_storage()
        for name in gone:
            storage.delete(name)

    if gone:
        transaction.on_commit(delete)
