"""Rulings (裁定): how a question of play was settled, with its source and date.

A ruling is proposed and approved through the contributions flow (a layer above, which calls
`check` when a proposal is made and `enact` when a curator approves it). Each ruling enters the
history of every card it belongs to (a CardChange whose `changes` is {"ruling": [before, after]}),
so the card's history page, the Atom feeds and a curator's revert treat it as they treat facts.
A later ruling may replace an earlier one, which stays on the card's page marked superseded; a
revert withdraws a ruling made by mistake (and a revert of the revert puts it back).
"""

from __future__ import annotations

import datetime
import re
from collections.abc import Mapping
from typing import Any

from django.core.exceptions import ValidationError
from django.core.validators import URLValidator
from django.db import transaction
from django.db.models import Exists, OuterRef, Q
from django.utils import timezone
from django.utils.translation import gettext as _

from catalog import cache_version, terms
from catalog.models import (
    MAX_ANSWER,
    MAX_QUESTION,
    MAX_RULING_CARDS,
    MAX_SOURCE,
    Card,
    CardChange,
    Ruling,
)
from rules_check.codes import normalize_code

IN_FORCE = "in_force"
WITHDRAWN = "withdrawn"
# The earliest date a ruling may carry: the game's first set came out after it.
EARLIEST = datetime.date(2010, 1, 1)
MAX_URL = 500
_DATE = re.compile(r"(\d{4})-(\d{2})-(\d{2})", re.ASCII)
_CODE_SEPARATORS = re.compile(r"[\s,，、;；]+")


class RulingError(ValueError):
    """A ruling that cannot be taken, in words; `field` names the part at fault."""

    def __init__(self, message: str, field: str = "", status: int = 400) -> None:
        super().__init__(message)
        self.message = message
        self.field = field
        self.status = status


def _text(raw: Mapping[str, Any], name: str, limit: int, required: str) -> str:
    value = raw.get(name)
    if value is None or (isinstance(value, str) and not value.strip()):
        raise RulingError(required, name)
    if not isinstance(value, str):
        raise RulingError(_("Write it as text."), name)
    value = value.strip().replace("\r\n", "\n")
    if "\x00" in value or any("\ud800" <= ch <= "\udfff" for ch in value):
        raise RulingError(_("The text holds characters that cannot be stored."), name)
    if len(value) > limit:
        raise RulingError(_("At most %(n)d characters.") % {"n": limit}, name)
    return value


def _date(raw: Any) -> datetime.date:
    found = _DATE.fullmatch(raw.strip()) if isinstance(raw, str) else None
    try:
        day = datetime.date(*(int(part) for part in found.groups())) if found else None
    except ValueError:
        day = None
    if day is None:
        raise RulingError(_("Give the date as YYYY-MM-DD, for example 2026-03-15."), "decided_on")
    if not EARLIEST <= day <= timezone.localdate() + datetime.timedelta(days=1):
        raise RulingError(_("The date must be between 2010 and today."), "decided_on")
    return day


def _url(raw: Any) -> str:
    if raw is None or raw == "":
        return ""
    if not isinstance(raw, str) or len(raw) > MAX_URL:
        raise RulingError(_("A link is an address of at most %(n)d characters.") % {"n": MAX_URL}, "url")
    try:
        URLValidator(schemes=["http", "https"])(raw.strip())
    except ValidationError:
        raise RulingError(_("Give a link starting with https:// (or leave it empty)."), "url") from None
    return raw.strip()


def _cards(card: Card, raw: Any) -> list[str]:
    """The ruling's cards as codes, the card it was proposed on first: others from a list of
    codes or a text of them (spaces, commas or 、 between)."""
    if raw is None or raw == "":
        given: list[Any] = []
    elif isinstance(raw, str):
        given = [part for part in _CODE_SEPARATORS.split(raw) if part]
    elif isinstance(raw, list):
        given = raw
    else:
        raise RulingError(_("List the other cards by their codes."), "cards")
    if len(given) > MAX_RULING_CARDS:
        raise RulingError(_("A ruling belongs to at most %(n)d cards.") % {"n": MAX_RULING_CARDS}, "cards")
    codes = [card.code]
    for item in given:
        code = normalize_code(item) if isinstance(item, str) and len(item) <= 40 else None
        if code is None:
            raise RulingError(_("“%(code)s” is not a card code.") % {"code": str(item)[:40]}, "cards")
        if code not in codes:
            codes.append(code)
    if len(codes) > MAX_RULING_CARDS:
        raise RulingError(_("A ruling belongs to at most %(n)d cards.") % {"n": MAX_RULING_CARDS}, "cards")
    known = set(Card.objects.filter(code__in=codes).values_list("code", flat=True))
    unknown = [code for code in codes if code not in known]
    if unknown:
        raise RulingError(_("No card with the code “%(code)s”.") % {"code": unknown[0]}, "cards")
    return codes


def replaceable(card: Card) -> list[Ruling]:
    """The rulings of `card` a new one may replace: in force, not replaced already."""
    return list(Ruling.objects.in_force().of_card(card).for_lists())


def _replaces(raw: Any, codes: list[str]) -> int | None:
    if raw is None or raw == "":
        return None
    number = raw if isinstance(raw, int) and not isinstance(raw, bool) else None
    if isinstance(raw, str) and raw.isascii() and raw.isdigit() and len(raw) < 10:
        number = int(raw)
    found = (
        Ruling.objects.in_force().filter(pk=number, cards__code__in=codes).exists()
        if number and 0 < number < 2**31
        else False
    )
    if not found:
        raise RulingError(_("Choose a ruling in force on this card to replace."), "replaces")
    return number


def check(raw: Mapping[str, Any], card: Card) -> dict[str, Any]:
    """A proposed ruling, checked, as plain JSON (kept on the proposal until a curator decides)."""
    if not isinstance(raw, Mapping):
        raise RulingError(_("A ruling is an object with a question, an answer and its source."))
    kind = raw.get("source_kind")
    if kind not in Ruling.Source.values:
        raise RulingError(_("Choose where the answer comes from."), "source_kind")
    codes = _cards(card, raw.get("cards"))
    return {
        "question": _text(raw, "question", MAX_QUESTION, _("Write the question the ruling settles.")),
        "answer": _text(raw, "answer", MAX_ANSWER, _("Write the answer.")),
        "source_kind": kind,
        "source": _text(raw, "source", MAX_SOURCE, _("Name the source: the document, the organiser or the judge.")),
        "url": _url(raw.get("url")),
        "decided_on": _date(raw.get("decided_on")).isoformat(),
        "cards": codes,
        "replaces": _replaces(raw.get("replaces"), codes),
    }


def _record(ruling: Ruling, before: str | None, after: str, **fields: Any) -> list[CardChange]:
    """An entry in the history of each of the ruling's cards (one insert)."""
    return CardChange.objects.bulk_create(
        [
            CardChange(card=card, ruling=ruling, changes={"ruling": [before, after]}, **fields)
            for card in ruling.cards.order_by("code")
        ]
    )


def enact(payload: Mapping[str, Any], *, proposer: Any, reviewer: Any) -> tuple[Ruling, list[CardChange]]:
    """Make the ruling a proposal holds (checked when proposed; its cards and the ruling it
    replaces are checked again now). The ruling it replaces is locked: two rulings approved at
    once never both replace it."""
    with transaction.atomic():
        codes = list(payload["cards"])
        cards = list(Card.objects.filter(code__in=codes))
        if not cards:
            raise RulingError(_("None of the ruling's cards exists any more."), "cards")
        replaced = None
        if payload.get("replaces"):
            replaced = Ruling.objects.select_for_update().filter(pk=payload["replaces"]).first()
            if replaced is None or not Ruling.objects.in_force().filter(pk=payload["replaces"]).exists():
                raise RulingError(
                    _("The ruling it replaces was replaced or withdrawn meanwhile: reject it, or ask for a new one."),
                    "replaces",
                    status=409,
                )
        text = f"{payload['question']}\n{payload['answer']}"
        cited = terms.cited(text)
        ruling = Ruling.objects.create(
            question=payload["question"],
            answer=payload["answer"],
            source_kind=payload["source_kind"],
            source=payload["source"],
            url=payload.get("url", ""),
            decided_on=datetime.date.fromisoformat(payload["decided_on"]),
            replaces=replaced,
            terms=f" {' '.join(cited)} " if cited else "",
            entered_by=proposer,
            approved_by=reviewer,
        )
        ruling.cards.set(cards)
        entries = _record(
            ruling,
            None,
            IN_FORCE,
            source=CardChange.Source.CONTRIBUTION,
            note=ruling.source,
            proposer=proposer,
            reviewer=reviewer,
        )
        transaction.on_commit(cache_version.bump)
        return ruling, entries


def revert(change: CardChange, reviewer: Any) -> list[CardChange]:
    """Put the ruling back as it was before `change`: withdrawn if the change made it, in force
    if the change withdrew it. Nothing when it is so already."""
    assert change.ruling_id is not None, "a ruling's entry"
    with transaction.atomic():
        ruling = Ruling.objects.select_for_update().get(pk=change.ruling_id)
        before, _after = change.changes["ruling"]
        wanted = before == IN_FORCE
        now = WITHDRAWN if ruling.withdrawn else IN_FORCE
        if ruling.withdrawn == (not wanted):
            return []
        ruling.withdrawn = not wanted
        ruling.save(update_fields=["withdrawn"])
        entries = _record(
            ruling,
            now,
            IN_FORCE if wanted else WITHDRAWN,
            source=CardChange.Source.REVERT,
            reviewer=reviewer,
            reverts=change,
        )
        transaction.on_commit(cache_version.bump)
        return entries


def ruled() -> Q:
    """Cards with a ruling in the record (the query language's `is:ruled`)."""
    shown = Ruling.cards.through.objects.filter(card=OuterRef("pk"), ruling__withdrawn=False)
    return Q(Exists(shown))


def citing_counts() -> dict[str, int]:
    """How many rulings in the record name each term (one query over the rulings' term lists)."""
    counts: dict[str, int] = {}
    for text in Ruling.objects.shown().exclude(terms="").values_list("terms", flat=True):
        for slug in text.split():
            counts[slug] = counts.get(slug, 0) + 1
    return counts
