"""Writes to a collection, each with its rule: counts stay within 0..9,999, every change is
recorded, and increments happen in the database (F()) so concurrent "+1"s never lose one."""

from __future__ import annotations

from typing import Any
from uuid import UUID, uuid4

from django.db import transaction
from django.db.models import F
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _

from catalog.models import Card
from collection.models import (
    MAX_COPIES,
    AllocatedCard,
    Allocation,
    CollectionChange,
    CollectionEntry,
    ShareLink,
    WishlistEntry,
    new_share_token,
)


class CountError(ValueError):
    """A change that would take a count below 0 or above the maximum: nothing was changed."""


def _check_count(value: Any, what: str) -> int:
    if type(value) is not int:
        raise CountError(_("%(what)s must be a whole number") % {"what": what})
    if not 0 <= value <= MAX_COPIES:
        raise CountError(_("%(what)s must be from 0 to %(max)s") % {"what": what, "max": f"{MAX_COPIES:,}"})
    return value


def _check_delta(value: Any, what: str) -> int:
    if type(value) is not int or abs(value) > MAX_COPIES:
        raise CountError(
            _("%(what)s must be a whole number from -%(max)s to %(max)s") % {"what": what, "max": f"{MAX_COPIES:,}"}
        )
    return value


def _record(
    entry: CollectionEntry, quantity_before: int, foil_before: int, source: str, batch: UUID | None = None
) -> CollectionChange:
    return CollectionChange.objects.create(
        batch=batch,
        user_id=entry.user_id,
        card_id=entry.card_id,
        quantity_before=quantity_before,
        quantity_after=entry.quantity,
        foil_before=foil_before,
        foil_after=entry.foil_quantity,
        source=source,
    )


def change_counts(
    user: Any, card: Card, *, add: int = 0, add_foil: int = 0, source: str = "web", batch: UUID | None = None
) -> CollectionEntry:
    """Add (or, negative, take away) copies. Refused whole if either count would leave 0..9,999.
    Changes of one step share a `batch` (one history entry)."""
    add, add_foil = _check_delta(add, "add"), _check_delta(add_foil, "add_foil")
    with transaction.atomic():
        entry, _created = CollectionEntry.objects.get_or_create(user=user, card=card)
        # One conditional UPDATE: the database adds, and refuses, atomically.
        updated = CollectionEntry.objects.filter(
            pk=entry.pk,
            quantity__gte=max(0, -add),
            quantity__lte=MAX_COPIES - max(0, add),
            foil_quantity__gte=max(0, -add_foil),
            foil_quantity__lte=MAX_COPIES - max(0, add_foil),
        ).update(quantity=F("quantity") + add, foil_quantity=F("foil_quantity") + add_foil)
        entry.refresh_from_db()
        if not updated:
            raise CountError(
                _("%(code)s: you have %(quantity)d + %(foil)d foil; counts must stay from 0 to %(max)s")
                % {"code": card.code, "quantity": entry.quantity, "foil": entry.foil_quantity, "max": f"{MAX_COPIES:,}"}
            )
        if add or add_foil:
            _record(entry, entry.quantity - add, entry.foil_quantity - add_foil, source, batch)
    return entry


def set_counts(
    user: Any, card: Card, *, quantity: int | None = None, foil_quantity: int | None = None, source: str = "web"
) -> CollectionEntry:
    """Set either count to a value of 0..9,999."""
    if quantity is not None:
        _check_count(quantity, "quantity")
    if foil_quantity is not None:
        _check_count(foil_quantity, "foil_quantity")
    with transaction.atomic():
        CollectionEntry.objects.get_or_create(user=user, card=card)
        entry = CollectionEntry.objects.select_for_update().get(user=user, card=card)
        before = (entry.quantity, entry.foil_quantity)
        if quantity is not None:
            entry.quantity = quantity
        if foil_quantity is not None:
            entry.foil_quantity = foil_quantity
        if (entry.quantity, entry.foil_quantity) != before:
            entry.save(update_fields=["quantity", "foil_quantity"])
            _record(entry, before[0], before[1], source)
    return entry


def undo_change(user: Any, change_id: int) -> list[CollectionEntry]:
    """Reverse one history entry (as a new entry of its own): one change, or every change of its
    batch at once, all or nothing. Only the owner's changes exist for them: another user's id is
    a 404."""
    with transaction.atomic():
        change = get_object_or_404(CollectionChange.objects.select_for_update(), pk=change_id, user=user)
        steps = [change]
        if change.batch is not None:
            steps = list(CollectionChange.objects.select_for_update().filter(user=user, batch=change.batch))
        if any(step.undone for step in steps):
            raise CountError(_("This change was already undone."))
        batch = uuid4() if len(steps) > 1 else None
        entries = [
            change_counts(
                user,
                step.card,
                add=step.quantity_before - step.quantity_after,
                add_foil=step.foil_before - step.foil_after,
                source=CollectionChange.Source.UNDO,
                batch=batch,
            )
            for step in steps
        ]
        CollectionChange.objects.filter(pk__in=[step.pk for step in steps]).update(undone=True)
    return entries


def set_wanted(user: Any, card: Card, wanted: int) -> WishlistEntry | None:
    """Want `wanted` copies of a card; 0 takes it off the wishlist."""
    _check_count(wanted, "wanted")
    if wanted == 0:
        WishlistEntry.objects.filter(user=user, card=card).delete()
        return None
    entry, _created = WishlistEntry.objects.update_or_create(user=user, card=card, defaults={"wanted": wanted})
    return entry


def set_sharing(user: Any, enabled: bool, new_link: bool = False) -> ShareLink:
    link, _created = ShareLink.objects.get_or_create(user=user)
    link.enabled = enabled
    if new_link:
        link.token = new_share_token()
    link.save()
    return link


def fill_allocation(user: Any, allocation: Allocation | None, name: str, copies: dict[int, int]) -> Allocation:
    """Set aside exactly `copies` (card pk → copies) under `name`, in the caller's transaction:
    a new allocation when `allocation` is None, else that one refilled."""
    if allocation is None:
        allocation = Allocation.objects.create(user=user, name=name)
    elif allocation.name != name:
        allocation.name = name
        allocation.save(update_fields=["name"])
    allocation.cards.all().delete()
    AllocatedCard.objects.bulk_create(
        [AllocatedCard(allocation=allocation, card_id=pk, copies=n) for pk, n in sorted(copies.items()) if n > 0]
    )
    return allocation
