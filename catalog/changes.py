"""How a change to a card's facts is applied and recorded in the card's history.

Contributions (a higher layer) propose and review; the catalogue applies a reviewed change here,
and so do the admin and `loadcatalog`, so every change to a card has one history.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.db import transaction

from catalog import cache_version
from catalog.facts import PRINTED
from catalog.models import Card, CardChange, rebuild_search_keys


def apply_change(
    card: Card,
    values: Mapping[str, Any],
    *,
    source: str,
    note: str = "",
    proposer: Any = None,
    reviewer: Any = None,
    provenance: Mapping[str, Any] | None = None,
    reverts: CardChange | None = None,
) -> CardChange | None:
    """Set facts of a card (already checked), with its derived keys, aliases and provenance,
    and record the change. The caller holds the card's row lock inside a transaction. None
    when nothing differs."""
    changes = {name: [getattr(card, name), value] for name, value in values.items() if getattr(card, name) != value}
    if not changes:
        return None
    change = CardChange.objects.create(
        card=card,
        source=source,
        changes=changes,
        note=note,
        proposer=proposer,
        reviewer=reviewer,
        provenance_before={name: card.provenance.get(name) for name in changes},
        reverts=reverts,
    )
    if "name" in changes and changes["name"][0] not in card.aliases:
        # Lists saved under the old name (event lists, imports) must still read.
        card.aliases = [*card.aliases, changes["name"][0]]
    provenance_after = dict(card.provenance)
    for name in changes:
        chosen = (provenance or {}).get(name, {"change": change.pk, "note": note} if source != PRINTED else None)
        if chosen is None:
            provenance_after.pop(name, None)
        else:
            provenance_after[name] = chosen
    card.provenance = provenance_after
    for name, (_before, after) in changes.items():
        setattr(card, name, after)
    card.compute_derived()
    card.save()
    rebuild_search_keys([card])
    transaction.on_commit(cache_version.bump)
    return change


def revert(change: CardChange, reviewer: Any) -> CardChange | None:
    """Put back what a change replaced (itself a new history entry), under the card's lock."""
    with transaction.atomic():
        card = Card.objects.select_for_update().get(pk=change.card_id)
        values = {name: before for name, (before, _after) in change.changes.items()}
        return apply_change(
            card,
            values,
            source=CardChange.Source.REVERT,
            reviewer=reviewer,
            provenance={k: v for k, v in change.provenance_before.items()},
            reverts=change,
        )
