"""Make the stored files agree with the database after a crash (cron, or by hand after a kill).

- A card picture whose row is committed but whose files were never written (the process died
  between the commit and the writes) is written again from the proposal photo it came from,
  found by the content hash in its name; with no such photo, the row is removed, so that no
  page shows a picture that is not there.
- Files nothing refers to (a card picture written before a rollback; a proposal's photo left
  after the proposal was decided) are deleted: public ones are otherwise served.
"""

from __future__ import annotations

from typing import Any

from django.core.files.storage import Storage, default_storage
from django.core.management.base import BaseCommand

from catalog import images
from catalog.models import CardImage
from contributions.models import Proposal, ProposalPhoto
from webutil.storage import private_storage


def _walk(storage: Storage, folder: str) -> list[str]:
    """Every file below `folder` of `storage` (none when it does not exist)."""
    try:
        folders, files = storage.listdir(folder)
    except (FileNotFoundError, NotADirectoryError):
        return []
    found = [f"{folder}/{name}" for name in files]
    for sub in folders:
        found += _walk(storage, f"{folder}/{sub}")
    return found


def _digest(name: str) -> str:
    """The content hash in a picture's name (`cards/12/front-<digest>.webp`)."""
    return name.rsplit("/", 1)[-1].rsplit(".", 1)[0].rsplit("-", 1)[-1]


class Command(BaseCommand):
    help = "Write card pictures a crash left unwritten, and delete files nothing refers to."

    def handle(self, *args: Any, **options: Any) -> None:
        restored, dropped = self._restore_missing()
        public = self._delete_unreferenced_pictures()
        private = self._delete_decided_photos()
        self.stdout.write(
            f"{restored} pictures written again, {dropped} without a source removed, "
            f"{public + private} unreferenced files deleted"
        )

    def _restore_missing(self) -> tuple[int, int]:
        restored = dropped = 0
        photos = private_storage()
        for picture in CardImage.objects.all():
            if all(default_storage.exists(name) for name in picture.files()):
                continue
            source = next(
                (
                    p
                    for p in ProposalPhoto.objects.filter(digest=_digest(picture.image.name), side=picture.side)
                    if photos.exists(p.image.name)
                ),
                None,
            )
            if source is None:
                picture.delete()
                dropped += 1
                continue
            with photos.open(source.image.name, "rb") as handle:
                images.write_files(picture.image.name, handle.read())
            restored += 1
        return restored, dropped

    def _delete_unreferenced_pictures(self) -> int:
        kept = {name for picture in CardImage.objects.all() for name in picture.files()}
        stale = [name for name in _walk(default_storage, "cards") if name not in kept]
        images.delete_files(stale)
        return len(stale)

    def _delete_decided_photos(self) -> int:
        storage = private_storage()
        open_photos = ProposalPhoto.objects.filter(proposal__status=Proposal.Status.OPEN)
        kept = {name for pair in open_photos.values_list("image", "source") for name in pair if name}
        # Decided proposals' photos: their pictures were written again above, if they had to be.
        stale = [name for name in _walk(storage, "proposals") if name not in kept]
        for name in stale:
            storage.delete(name)
        return len(stale)
