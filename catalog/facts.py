"""The facts of a card that people may supply, defined once: how each is read and checked, which
kinds of card print it (so that a missing one makes the card incomplete), and how a change is
applied and recorded in the card's history.

Contributions (a higher layer) propose and review; the catalogue applies a reviewed change here,
and so do the admin and `loadcatalog`, so every change to a card has one history.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.db import transaction
from django.db.models import Q
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from catalog import cache_version, textkeys, vocab
from catalog.models import Card, CardChange, rebuild_search_keys
from rules_check import model as rules
from webutil.numbers import whole_number

if TYPE_CHECKING:
    from django.utils.functional import _StrPromise

# Curators review proposals; staff count as curators (GLOSSARY: `curators`).
CURATORS = "curators"
PRINTED = "printed"
MAX_TEXT = 2000


def is_curator(user: AbstractBaseUser | AnonymousUser) -> bool:
    if not user.is_authenticated:
        return False
    if getattr(user, "is_staff", False):
        return True
    # Asked several times in one request (the page, its permission checks, the header): the
    # answer is kept on the user object, which lives as long as the request.
    cached: bool | None = getattr(user, "_is_curator", None)
    if cached is None:
        groups = getattr(user, "groups", None)
        cached = bool(groups is not None and groups.filter(name=CURATORS).exists())
        user._is_curator = cached  # type: ignore[attr-defined]
    return cached


class FactError(ValueError):
    """A value that is not a fact of this card, in words for the person who typed it."""

    def __init__(self, fact: str, message: str) -> None:
        super().__init__(message)
        self.fact = fact
        self.message = message


ALL_KINDS = frozenset(vocab.Kind.values)


@dataclass(frozen=True)
class Fact:
    name: str  # the card JSON's field name
    label: _StrPromise
    kind: str  # "int", "choice", "text", "name"
    expected: frozenset[str] = frozenset()  # kinds of card that print it (empty: none must)
    choices: type | None = None
    low: int = 0
    high: int = 999
    max_length: int = 40
    aliases: tuple[str, ...] = ()  # names for `missing:` in the query language

    def missing(self) -> Q:
        """Cards of a kind that prints this fact, without it."""
        empty = Q(**{f"{self.name}__isnull": True})
        if self.kind in ("text", "name"):
            empty |= Q(**{self.name: ""})
        if self.name == "cost":
            empty &= Q(cost_text__isnull=True)
        return Q(kind__in=sorted(self.expected)) & empty

    def parse(self, raw: Any) -> Any:
        """The stored value of what was typed or sent, or FactError."""
        if raw is None or (isinstance(raw, str) and not raw.strip()):
            raise FactError(self.name, _("Give a value, or leave the fact out."))
        if self.kind == "int":
            return self._parse_int(raw)
        if not isinstance(raw, str):
            raise FactError(self.name, _("Expected text."))
        text = raw.strip()
        if re.search(r"[\x00-\x08\x0b-\x1f\x7f]", text):
            raise FactError(self.name, _("Control characters are not allowed."))
        if self.kind == "choice":
            assert self.choices is not None
            slug = vocab.value_words(self.choices.choices).get(text.lower().replace(" ", ""))  # type: ignore[attr-defined]
            if slug is None:
                allowed = ", ".join(self.choices.values)  # type: ignore[attr-defined]
                raise FactError(
                    self.name, _("“%(value)s” is not one of %(allowed)s.") % {"value": text[:40], "allowed": allowed}
                )
            return slug
        if len(text) > self.max_length:
            raise FactError(self.name, _("At most %(n)d characters.") % {"n": self.max_length})
        if self.kind == "name":
            if any(ch in text for ch in " ,，\u3000"):
                raise FactError(self.name, _("A name has no spaces or commas."))
            return textkeys.to_traditional(text)  # names are kept as printed, in Traditional
        return text.replace("\r\n", "\n")

    def _parse_int(self, raw: Any) -> int:
        if isinstance(raw, bool) or not isinstance(raw, int | str):
            raise FactError(self.name, _("Expected a whole number."))
        if isinstance(raw, str):
            number = whole_number(raw.strip(), max_digits=4)  # ASCII digits only, as everywhere
            if number is None:
                raise FactError(self.name, _("Expected a whole number."))
            raw = number
        if not self.low <= raw <= self.high:
            raise FactError(
                self.name, _("Expected a whole number from %(low)d to %(high)d.") % {"low": self.low, "high": self.high}
            )
        return raw


_DECK = frozenset(rules.DECK_KINDS)
_UNITS = frozenset(rules.UNIT_KINDS)
_LEADERS = frozenset(rules.CHOOSABLE_GENERAL_KINDS)
_GENERALS = frozenset(rules.GENERAL_KINDS)
_TACTICS = frozenset({rules.TACTIC})

FACTS: dict[str, Fact] = {
    fact.name: fact
    for fact in (
        Fact("name", gettext_lazy("Name as printed"), "name"),
        Fact("text", gettext_lazy("Skills text"), "text", ALL_KINDS, max_length=MAX_TEXT, aliases=("技能", "文字")),
        Fact("cost", gettext_lazy("Cost"), "int", _DECK, aliases=("費用", "费用")),
        Fact("power", gettext_lazy("Power"), "int", _UNITS, aliases=("戰力", "战力")),
        Fact("health", gettext_lazy("Health"), "int", _UNITS, aliases=("生命",)),
        Fact("life", gettext_lazy("Life"), "int", _LEADERS, aliases=("血量",)),
        Fact(
            "troop_class",
            gettext_lazy("Class"),
            "choice",
            _UNITS | _LEADERS,
            vocab.TroopClass,
            aliases=("class", "類型", "类型"),
        ),
        Fact("affiliation", gettext_lazy("Affiliation"), "text", max_length=20),
        Fact("faction", gettext_lazy("Faction"), "choice", _GENERALS, vocab.Faction, aliases=("陣營", "阵营")),
        Fact("speed", gettext_lazy("Speed"), "choice", _TACTICS, vocab.Speed, aliases=("速度",)),
        Fact("element", gettext_lazy("Element"), "choice", _TACTICS, vocab.Element, aliases=("屬性", "属性")),
        Fact(
            "tier",
            gettext_lazy("Rarity metal"),
            "choice",
            ALL_KINDS,
            vocab.Tier,
            aliases=("rarity", "稀有度", "等級", "等级"),
        ),
        Fact("stars", gettext_lazy("Rarity stars"), "int", low=1, high=5),
        Fact("awakening", gettext_lazy("Awakening"), "int", frozenset({rules.AWAKENED_GENERAL})),
    )
}
# What `missing:` accepts: the fact's name and its aliases (English and Chinese), to the fact.
MISSING_WORDS: dict[str, str] = {
    word.lower(): fact.name for fact in FACTS.values() if fact.expected for word in (fact.name, *fact.aliases)
}


def incomplete() -> Q:
    """Cards that lack any fact their kind prints."""
    cond = Q()
    for fact in FACTS.values():
        if fact.expected:
            cond |= fact.missing()
    return cond


def expected_facts(card: Card) -> list[Fact]:
    return [fact for fact in FACTS.values() if card.kind in fact.expected]


def offered(card: Card) -> list[Fact]:
    """The facts a proposal for this card may change: what its kind prints, its name, its
    rarity, and an affiliation for units."""
    always = {"name", "text", "tier", "stars"}
    if card.is_unit:
        always.add("affiliation")
    return [fact for fact in FACTS.values() if fact.name in always or card.kind in fact.expected]


def missing_facts(card: Card) -> list[str]:
    return [
        fact.name
        for fact in expected_facts(card)
        if getattr(card, fact.name) in (None, "") and not (fact.name == "cost" and card.cost_text)
    ]


def check(values: Mapping[str, Any], card: Card) -> dict[str, Any]:
    """The parsed facts of a proposal for `card`, or FactError for the first fault. A metal and
    its stars go together: a card cannot end up with one and not the other."""
    if not values:
        raise FactError("", _("Change at least one fact."))
    clean: dict[str, Any] = {}
    for name, raw in values.items():
        fact = FACTS.get(name)
        if fact is None:
            raise FactError(str(name)[:40], _("“%(name)s” is not a fact of a card.") % {"name": str(name)[:40]})
        clean[name] = fact.parse(raw)
    tier = clean.get("tier", card.tier)
    stars = clean.get("stars", card.stars)
    if (tier is None) != (stars is None):
        raise FactError("stars" if tier else "tier", _("Give the rarity's metal and its stars together."))
    return clean


def current(card: Card, names: list[str]) -> dict[str, Any]:
    return {name: getattr(card, name) for name in names}


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
