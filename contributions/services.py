"""Proposing, editing, withdrawing and reviewing contributions. Each write is one transaction
under a row lock: two curators approving at once apply a proposal once; two tabs proposing at
once never pass the open-proposal limit."""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from typing import IO, Any

from django.contrib.auth import get_user_model
from django.core.files.base import ContentFile
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from catalog import changes, facts, images, rulings
from catalog.models import Card, CardChange, CardImage, Scan
from contributions.models import MAX_NOTE, MAX_OPEN, Proposal, ProposalPhoto
from contributions.tasks import prepare_photo
from webutil.storage import delete_on_commit, private_storage, taken_back_unless_kept


class ContributionError(ValueError):
    """A request that changes nothing, with the reason in words; `fact` names the field at fault."""

    def __init__(self, message: str, fact: str = "", status: int = 400) -> None:
        super().__init__(message)
        self.message = message
        self.fact = fact
        self.status = status


class StaleProposal(ContributionError):
    """The card changed since the proposal was made: the reviewer must see and confirm."""

    def __init__(self, rows: list[tuple[str, Any, Any, Any]]) -> None:
        super().__init__(_("The card changed since this was proposed: check the values and confirm."), status=409)
        self.rows = rows


def _checked(card: Card, raw: Mapping[str, Any], *, photos: bool = False) -> dict[str, Any]:
    """The proposed facts, parsed, without those equal to the card's values already."""
    if not isinstance(raw, Mapping):
        raise ContributionError(_("Facts must be an object of fact names and values."), "facts")
    try:
        clean = facts.check(raw, card) if raw else {}
    except facts.FactError as exc:
        raise ContributionError(exc.message, exc.fact) from None
    clean = {name: value for name, value in clean.items() if getattr(card, name) != value}
    if not clean and not photos:
        raise ContributionError(_("Nothing differs from the card as it is: change at least one fact."), "facts")
    return clean


def _note(note: Any) -> str:
    if not isinstance(note, str) or not note.strip():
        raise ContributionError(_("Say where the facts come from (your copy, its printing)."), "note")
    if len(note) > MAX_NOTE or "\x00" in note:
        raise ContributionError(_("The note is at most %(n)d characters.") % {"n": MAX_NOTE}, "note")
    return note.strip()


def propose(user: Any, card: Card, raw: Mapping[str, Any], note: Any, *, photos: bool = False) -> Proposal:
    clean_note = _note(note)
    clean = _checked(card, raw, photos=photos)
    with transaction.atomic():
        _below_the_open_limit(user)
        return Proposal.objects.create(
            card=card, author=user, facts=clean, base=facts.current(card, list(clean)), note=clean_note
        )


def _below_the_open_limit(user: Any) -> None:
    """Refuse a proposal past MAX_OPEN waiting. The author's row is the lock: two tabs counting
    open proposals at once wait in turn. Called inside the proposal's transaction."""
    get_user_model().objects.select_for_update().filter(pk=user.pk).first()
    if Proposal.objects.of(user).open().count() >= MAX_OPEN:
        raise ContributionError(
            _("You have %(n)d proposals waiting for review: wait for some to be reviewed first.") % {"n": MAX_OPEN},
            status=429,
        )


def _ruling(card: Card, raw: Mapping[str, Any]) -> dict[str, Any]:
    try:
        return rulings.check(raw, card)
    except rulings.RulingError as exc:
        raise ContributionError(exc.message, exc.field, exc.status) from None


def propose_ruling(user: Any, card: Card, raw: Mapping[str, Any]) -> Proposal:
    """A ruling for curators to approve: the question, the answer and its source, checked now."""
    draft = _ruling(card, raw)
    with transaction.atomic():
        _below_the_open_limit(user)
        return Proposal.objects.create(
            card=card, author=user, kind=Proposal.Kind.RULING, ruling=draft, note=draft["source"]
        )


def edit_ruling(proposal_id: int, user: Any, raw: Mapping[str, Any]) -> Proposal:
    with transaction.atomic():
        proposal = _locked_open(proposal_id)
        if proposal.author_id != user.pk or not proposal.is_ruling:
            raise ContributionError(_("No such proposal."), status=404)
        proposal.ruling = _ruling(proposal.card, raw)
        proposal.note = proposal.ruling["source"]
        proposal.save()
        return proposal


def _locked_open(proposal_id: int) -> Proposal:
    proposal = Proposal.objects.select_for_update().select_related("card").filter(pk=proposal_id).first()
    if proposal is None:
        raise ContributionError(_("No such proposal."), status=404)
    if not proposal.is_open:
        raise ContributionError(_("This proposal was already reviewed or withdrawn."), status=409)
    return proposal


def edit(proposal_id: int, user: Any, raw: Mapping[str, Any], note: Any, *, photos: bool = False) -> Proposal:
    clean_note = _note(note)
    with transaction.atomic():
        proposal = _locked_open(proposal_id)
        if proposal.author_id != user.pk or proposal.is_ruling:
            raise ContributionError(_("No such proposal."), status=404)
        clean = _checked(proposal.card, raw, photos=photos or proposal.photos.exists())
        proposal.facts = clean
        proposal.base = facts.current(proposal.card, list(clean))
        proposal.note = clean_note
        proposal.save()
        return proposal


def withdraw(proposal_id: int, user: Any) -> Proposal:
    with transaction.atomic():
        proposal = _locked_open(proposal_id)
        if proposal.author_id != user.pk:
            raise ContributionError(_("No such proposal."), status=404)
        proposal.status = Proposal.Status.WITHDRAWN
        proposal.save(update_fields=["status", "updated_at"])
        _drop_photos(proposal)
        return proposal


def reading_of(user: Any, card: Card, scan_id: int) -> Scan:
    """The photo of this card's face that `user` sent to be read (the page's "Read it from a
    photo", or the API's scan with purpose proposal): only its owner's, only for this card."""
    scan = Scan.objects.filter(pk=scan_id, user=user, purpose=Scan.Purpose.PROPOSAL, card=card).first()
    if scan is None:
        raise ContributionError(_("No such scan."), "scan")
    return scan


def propose_with_photos(
    user: Any, card: Card, raw: Mapping[str, Any], note: Any, uploads: dict[str, IO[bytes]], reading: Scan | None = None
) -> Proposal:
    """A proposal and its photos in one transaction, so that a refused photo leaves nothing behind.
    A photo read for it is its front's, unless another was chosen."""
    uploads = dict(uploads)
    if reading is not None and reading.image and "front" not in uploads:
        uploads["front"] = reading.image.open("rb")
    with transaction.atomic():
        proposal = propose(user, card, raw, note, photos=bool(uploads))
        for side, upload in uploads.items():
            add_photo(proposal.pk, user, side, upload)
    return proposal


def add_photo(proposal_id: int, user: Any, side: Any, upload: IO[bytes]) -> ProposalPhoto:
    """A photo of the card's front or back, checked from its header alone and kept as sent,
    private; the worker decodes it into the clean picture (contributions.tasks.prepare_photo:
    EXIF applied, metadata gone) and it waits until then."""
    if side not in ProposalPhoto.Side.values:
        raise ContributionError(_("The side is front or back."), "side")
    try:
        data, header = images.inspect_upload(upload)
    except images.ImageRejected as exc:
        raise ContributionError(str(exc), "image") from None
    digest = hashlib.sha256(data).hexdigest()[:16]
    # Written before the proposal's row lock is taken (a 25 MB photo takes a while), and taken
    # away again if the proposal refuses it.
    storage = private_storage()
    name = storage.save(f"proposals/{proposal_id}/{side}-sent-{digest}.{header.kind.lower()}", ContentFile(data))
    with taken_back_unless_kept([name]), transaction.atomic():
        proposal = _locked_open(proposal_id)
        if proposal.author_id != user.pk:
            raise ContributionError(_("No such proposal."), status=404)
        if proposal.is_ruling:
            raise ContributionError(_("A proposed ruling takes no photos: give its source instead."), "image")
        photo = ProposalPhoto.objects.filter(proposal=proposal, side=side).first() or ProposalPhoto(
            proposal=proposal, side=side
        )
        old = [photo.image.name, photo.source.name] if photo.pk else []
        photo.image.name, photo.source.name = "", name
        photo.status, photo.error, photo.attempts, photo.lease_until = ProposalPhoto.Status.QUEUED, "", 0, None
        photo.width, photo.height, photo.digest = header.width, header.height, ""
        photo.save()
        prepare_photo.enqueue(photo.pk)
        delete_on_commit(n for n in old if n != name)
    photo.refresh_from_db()
    return photo


def _drop_photos(proposal: Proposal) -> None:
    delete_on_commit(n for p in proposal.photos.all() for n in (p.image.name, p.source.name))


def _reviewable(proposal_id: int, reviewer: Any) -> Proposal:
    if not facts.is_curator(reviewer):
        raise ContributionError(_("Only curators review proposals."), status=403)
    proposal = _locked_open(proposal_id)
    if proposal.author_id == reviewer.pk:
        raise ContributionError(_("Nobody reviews their own proposal."), status=403)
    return proposal


def approve(
    proposal_id: int, reviewer: Any, edited: Mapping[str, Any] | None = None, *, confirm: bool = False
) -> Proposal:
    """Apply a proposal (or the curator's edit of it) in one transaction: the facts, with their
    provenance and history, and the photos as the card's pictures, credited to the author."""
    with transaction.atomic():
        proposal = _reviewable(proposal_id, reviewer)
        if proposal.is_ruling:
            return _approve_ruling(proposal, reviewer, edited)
        card = Card.objects.select_for_update().get(pk=proposal.card_id)
        proposal.card = card
        if any(photo.waiting for photo in proposal.photos.all()):
            raise ContributionError(
                _("A photo of this proposal is still being prepared: review it in a moment."), status=409
            )
        # A photo that could not be read is no evidence: it never becomes a picture.
        photos = [photo for photo in proposal.photos.all() if photo.ready]
        values = proposal.facts if edited is None else _checked(card, edited, photos=bool(photos))
        stale = [
            (name, proposal.base.get(name), getattr(card, name), value)
            for name, value in values.items()
            if name in proposal.base and proposal.base[name] != getattr(card, name)
        ]
        if stale and not confirm:
            raise StaleProposal(stale)
        try:
            # Checked again against the card as it is now (a metal needs its stars).
            values = facts.check(values, card) if values else {}
        except facts.FactError as exc:
            raise ContributionError(exc.message, exc.fact) from None
        change = changes.apply_change(
            card,
            values,
            source=CardChange.Source.CONTRIBUTION,
            note=proposal.note,
            proposer=proposal.author,
            reviewer=reviewer,
        )
        for photo in photos:
            with photo.image.open("rb") as handle:
                clean = images.CleanImage(handle.read(), photo.width, photo.height, photo.digest)
            picture = CardImage.objects.filter(card=card, side=photo.side).first() or CardImage(
                card=card, side=photo.side
            )
            picture.contributor = proposal.author
            images.store(picture, clean)
        _drop_photos(proposal)
        proposal.status = Proposal.Status.APPROVED
        proposal.reviewer, proposal.reviewed_at, proposal.change, proposal.seen = (
            reviewer,
            timezone.now(),
            change,
            False,
        )
        if edited is not None:
            proposal.facts = values
        proposal.save()
        return proposal


def _approve_ruling(proposal: Proposal, reviewer: Any, edited: Mapping[str, Any] | None) -> Proposal:
    """The ruling made, in the history of each of its cards; the proposal points at the entry
    of the card it was proposed on."""
    if edited:
        raise ContributionError(_("A ruling is approved as proposed: reject it with a reason to have it changed."))
    try:
        _ruling_made, entries = rulings.enact(proposal.ruling, proposer=proposal.author, reviewer=reviewer)
    except rulings.RulingError as exc:
        raise ContributionError(exc.message, exc.field, exc.status) from None
    proposal.status = Proposal.Status.APPROVED
    proposal.reviewer, proposal.reviewed_at, proposal.seen = reviewer, timezone.now(), False
    proposal.change = next((e for e in entries if e.card_id == proposal.card_id), entries[0])
    proposal.save()
    return proposal


def reject(proposal_id: int, reviewer: Any, reason: Any) -> Proposal:
    if not isinstance(reason, str) or not reason.strip() or len(reason) > MAX_NOTE or "\x00" in reason:
        raise ContributionError(_("Give the author a reason (at most %(n)d characters).") % {"n": MAX_NOTE}, "reason")
    with transaction.atomic():
        proposal = _reviewable(proposal_id, reviewer)
        proposal.status = Proposal.Status.REJECTED
        proposal.reviewer, proposal.reviewed_at, proposal.reason, proposal.seen = (
            reviewer,
            timezone.now(),
            reason.strip(),
            False,
        )
        proposal.save()
        _drop_photos(proposal)
        return proposal


def mark_seen(user: Any) -> None:
    Proposal.objects.of(user).filter(seen=False).update(seen=True)
