"""What players type, resolved to catalogue cards: codes and aliases, names in either script,
full pinyin. Built once per catalogue version, so a deck list or a CSV file costs no query per line.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

from catalog import cache_version, textkeys
from catalog.models import Card
from rules_check import CardFacts, normalize_code


def card_facts(card: Card) -> CardFacts:
    return CardFacts(
        code=card.code,
        name=card.name,
        kind=card.kind,
        name_key=card.name_key,
        cost=card.cost,
        troop_class=card.troop_class,
        speed=card.speed,
        element=card.element,
        card_set=card.set.code if card.set is not None else None,
    )


@dataclass(frozen=True)
class CatalogIndex:
    """Every card by code, by same-name key and by unique full pinyin: a parse costs no query."""

    by_code: dict[str, CardFacts]
    by_name: dict[str, CardFacts]
    by_pinyin: dict[str, CardFacts]
    pk_by_code: dict[str, int]

    @cached_property
    def code_by_pk(self) -> dict[int, str]:
        return {pk: code for code, pk in self.pk_by_code.items()}

    @cached_property
    def printings(self) -> dict[str, int]:
        """How many cards bear each name (its key): a reprint is a second card of one name."""
        counts: dict[str, int] = {}
        for facts in self.by_code.values():
            counts[facts.same_name_key] = counts.get(facts.same_name_key, 0) + 1
        return counts

    @classmethod
    def build(cls) -> CatalogIndex:
        by_code: dict[str, CardFacts] = {}
        by_name: dict[str, CardFacts] = {}
        pinyin_owners: dict[str, set[str]] = {}
        pk_by_code: dict[str, int] = {}
        renamed: list[Card] = []
        for card in Card.objects.select_related("set").order_by("position"):
            if card.aliases:
                renamed.append(card)
            facts = card_facts(card)
            by_code[card.code] = facts
            pk_by_code[card.code] = card.pk
            # Two cards share a name only across kinds (貂蟬 the general and the awakened
            # general): the first in catalogue order wins; a code picks the other.
            by_name.setdefault(card.name_key, facts)
            for reading in filter(None, card.pinyin_key.split("|")):
                pinyin_owners.setdefault(reading, set()).add(card.name_key)
        for card in renamed:
            # A renamed card keeps answering to its old names; a card that now bears one wins.
            for alias in card.aliases:
                by_name.setdefault(textkeys.name_key(alias), by_code[card.code])
        by_pinyin = {
            reading: by_name[next(iter(owners))] for reading, owners in pinyin_owners.items() if len(owners) == 1
        }
        return cls(by_code=by_code, by_name=by_name, by_pinyin=by_pinyin, pk_by_code=pk_by_code)

    def lookup(self, text: str) -> CardFacts | None:
        code = normalize_code(text)
        if code is not None:
            return self.by_code.get(code)
        found = self.by_name.get(textkeys.name_key(text))
        if found is None and text.isascii():
            found = self.by_pinyin.get(textkeys.fold_pinyin(text))
        return found


_index = cache_version.PerVersion(CatalogIndex.build)


def catalog_index() -> CatalogIndex:
    """The index of the current catalogue, rebuilt when the catalogue version changes."""
    return _index.get()
