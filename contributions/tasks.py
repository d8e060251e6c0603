"""Background work of contributions: a proposal's photo, kept as it was sent, decoded into its
clean picture by the worker (never in the request), under a lease (webutil.leases) so that a
worker that dies mid-photo leaves it queued again, not waiting for ever."""

from __future__ import annotations

from django.core.files.base import ContentFile
from django_tasks import task

from catalog import images
from contributions.models import ProposalPhoto
from webutil import leases
from webutil.storage import delete_on_commit, private_storage


def recover_lost() -> int:
    """Photos whose worker died queued again, each with a run of its own; those out of tries
    failed. Returns how many were queued again."""
    again = leases.recover(ProposalPhoto, ProposalPhoto.STATES, failed={"error": "too_costly"})
    for photo_id in again:
        prepare_photo.enqueue(photo_id)
    return len(again)


@task()
def prepare_photo(photo_id: int) -> str:
    """Decode a proposal photo as sent into its clean WebP (upright, no metadata) within the
    decoding bounds; a file that cannot be is marked failed with the reason its author sees."""
    photo = leases.claim(ProposalPhoto.objects.filter(pk=photo_id), ProposalPhoto.STATES)
    if photo is None:  # prepared already, replaced by another photo, or deleted
        return "skipped"
    source = photo.source.name
    with leases.held(photo):
        try:
            with private_storage().open(source, "rb") as sent:
                clean = images.decode(sent.read(), images.PICTURE_SIDE)
        except images.ImageRejected as exc:
            return _failed(photo, source, exc.code or "corrupt")
        except OSError:  # its file is gone: the proposal was withdrawn meanwhile
            return _failed(photo, source, "corrupt")
        name = private_storage().save(
            f"proposals/{photo.proposal_id}/{photo.side}-{clean.digest}.webp", ContentFile(clean.data)
        )
    done = ProposalPhoto.objects.filter(pk=photo.pk, source=source, status=ProposalPhoto.Status.RUNNING).update(
        image=name,
        source="",
        status=ProposalPhoto.Status.READY,
        width=clean.width,
        height=clean.height,
        digest=clean.digest,
        lease_until=None,
    )
    delete_on_commit([source if done else name])  # the file sent once read; the picture if replaced
    return "ready" if done else "replaced"


def _failed(photo: ProposalPhoto, source: str, code: str) -> str:
    ProposalPhoto.objects.filter(pk=photo.pk, source=source).update(
        status=ProposalPhoto.Status.FAILED, error=code[:40], source="", lease_until=None
    )
    delete_on_commit([source])
    return "failed"
