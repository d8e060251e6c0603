"""The facts of a card, defined once (`FACTS`): how each is stored, read, checked, searched,
filtered and shown, and which kinds of card print it (so that a missing one makes the card
incomplete).

Everything that lists card facts is derived from here: the Card model's columns (their
choices and bounds), the data file's loader, the card list's filters and the API's documented
parameters, the API's labels, the query language's keywords, the card page's fact rows, the
contribution form and the incomplete report. Adding a plain fact is its entry here, its values
in the data file and its words' translations, plus the Card's column (one line, and the
migration makemigrations writes); tests/catalog/test_fact_registry.py adds a fake fact and finds
it in every place derived from here.

This module imports no model: the model is built from it. How a change is applied and recorded
is catalog.changes.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, gettext_noop

from catalog import vocab
from rules_check import model as rules
from webutil.numbers import whole_number

if TYPE_CHECKING:
    from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
    from django.utils.functional import _StrPromise

    from catalog.models import Card

# Curators review proposals; staff count as curators (GLOSSARY: `curators`).
CURATORS = "curators"
PRINTED = "printed"
MAX_TEXT = 2000

# How a fact is typed.
INT = "int"
CHOICE = "choice"
TEXT = "text"
NAME = "name"

# How a fact filters the card list and the API: by its value, or also by a range (`cost_min`).
EXACT = "exact"
RANGE = "range"


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
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f]")


@dataclass(frozen=True)
class Fact:
    name: str  # the Card field and the card JSON's key
    english: str  # its name in English (marked for translation; `label` is the reader's)
    kind: str  # INT, CHOICE, TEXT or NAME
    expected: frozenset[str] = frozenset()  # kinds of card that print it (empty: none must)
    shown: frozenset[str] | None = None  # kinds whose page shows it (None: those expected)
    choices: type[models.TextChoices] | None = None
    low: int = 0
    high: int = 99
    max_length: int = 40  # the column's width for text and choices
    required: bool = False  # every card has it (the name, the kind)
    proposable: bool = True  # a contribution may change it
    keyword: tuple[str, ...] = ()  # the query language's words for it, the first its name
    aliases: tuple[str, ...] = ()  # more words for it in `missing:`
    help: str = ""  # what the keyword means, on the syntax page (marked for translation)
    example: str = ""
    filter: str = ""  # EXACT or RANGE: a filter of the card list and the API
    row: bool = True  # a row of the card page's facts (the name, kind and text are shown apart)
    row_english: str = ""  # the row's heading when not the fact's name
    display: str = ""  # how the row shows it, when not by its value (catalog.templatetags.cards)
    fallback: str = ""  # a Card field shown when the value is unknown (a printed X cost)
    joins: tuple[str, ...] = ()  # other facts shown in this fact's row (stars with the metal)
    unit: str = ""  # printed after the value, as the card prints it
    # The game term (catalog.terms) its row names, marked on the card page; a choice whose value
    # is a term's slug (快速 `fast`, 部隊 `troop`) is marked by its value without this.
    term: str = ""

    @property
    def label(self) -> _StrPromise:
        return gettext_lazy(self.english)

    @property
    def row_label(self) -> _StrPromise:
        return gettext_lazy(self.row_english or self.english)

    @property
    def shown_on(self) -> frozenset[str]:
        return self.expected if self.shown is None else self.shown

    @property
    def input_length(self) -> int:
        """How long a typed value may be: a number's digits, a choice's word, a text's column."""
        if self.kind == INT:
            return 4
        if self.kind == CHOICE:
            return 40
        return self.max_length

    def model_field(self, **options: Any) -> models.Field[Any, Any]:
        """The Card's column for this fact: its type, choices and bounds, from here."""
        if not self.required:
            options |= {"null": True, "blank": True}
        if self.kind == INT:
            bounds = [MinValueValidator(self.low), MaxValueValidator(self.high)]
            return models.PositiveSmallIntegerField(validators=bounds, **options)
        if self.kind == CHOICE:
            assert self.choices is not None
            return models.CharField(max_length=self.max_length, choices=self.choices.choices, **options)
        if self.max_length > 255:
            return models.TextField(**options)
        return models.CharField(max_length=self.max_length, **options)

    def words(self) -> dict[str, str] | None:
        """What the query language and a contribution accept for a choice, to its slug."""
        return vocab.value_words(self.choices.choices) if self.choices is not None else None

    def missing(self) -> Q:
        """Cards of a kind that prints this fact, without it."""
        empty = Q(**{f"{self.name}__isnull": True})
        if self.kind in (TEXT, NAME):
            empty |= Q(**{self.name: ""})
        if self.fallback:
            empty &= Q(**{f"{self.fallback}__isnull": True})
        return Q(kind__in=sorted(self.expected)) & empty

    def is_missing(self, card: Card) -> bool:
        return getattr(card, self.name) in (None, "") and not (self.fallback and getattr(card, self.fallback))

    def parse(self, raw: Any) -> Any:
        """The stored value of what was typed or sent, or FactError."""
        if raw is None or (isinstance(raw, str) and not raw.strip()):
            raise FactError(self.name, _("Give a value, or leave the fact out."))
        if self.kind == INT:
            return self._parse_int(raw)
        if not isinstance(raw, str):
            raise FactError(self.name, _("Expected text."))
        text = raw.strip()
        if _CONTROL.search(text):
            raise FactError(self.name, _("Control characters are not allowed."))
        if self.kind == CHOICE:
            assert self.choices is not None
            slug = words_of(self.name).get(text.lower().replace(" ", ""))
            if slug is None:
                allowed = ", ".join(self.choices.values)
                raise FactError(
                    self.name, _("“%(value)s” is not one of %(allowed)s.") % {"value": text[:40], "allowed": allowed}
                )
            return slug
        if len(text) > self.max_length:
            raise FactError(self.name, _("At most %(n)d characters.") % {"n": self.max_length})
        if self.kind == NAME:
            from catalog import textkeys  # opencc loads when a name is first read, not with the model

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

# In the order the card page shows them, the query language lists its keywords and the
# incomplete report its columns.
FACTS: dict[str, Fact] = {
    fact.name: fact
    for fact in (
        Fact("name", gettext_noop("Name as printed"), NAME, required=True, row=False),
        Fact(
            "kind",
            gettext_noop("Kind"),
            CHOICE,
            choices=vocab.Kind,
            max_length=20,
            required=True,
            proposable=False,
            keyword=("kind", "k", "種類", "种类"),
            help=gettext_noop("the kind of card"),
            example="kind:tactic",
            filter=EXACT,
            row=False,
        ),
        Fact(
            "tier",
            gettext_noop("Rarity metal"),
            CHOICE,
            ALL_KINDS,
            choices=vocab.Tier,
            max_length=8,
            keyword=("tier", "r", "等級", "等级"),
            aliases=("rarity", "稀有度"),
            help=gettext_noop("rarity metal"),
            example="tier:silver",
            filter=EXACT,
            row_english=gettext_noop("Rarity"),
            display="rarity",
            joins=("stars",),
        ),
        Fact(
            "stars",
            gettext_noop("Rarity stars"),
            INT,
            low=1,
            high=5,
            shown=ALL_KINDS,
            keyword=("stars", "星", "星級", "星级"),
            help=gettext_noop("rarity stars, 1 to 5"),
            example="stars>=4",
            filter=EXACT,
            row=False,
        ),
        Fact(
            "cost",
            gettext_noop("Cost"),
            INT,
            _DECK,
            keyword=("cost", "費用", "费用"),
            help=gettext_noop("cost"),
            example="cost<=3",
            filter=RANGE,
            fallback="cost_text",
        ),
        Fact(
            "power",
            gettext_noop("Power"),
            INT,
            _UNITS,
            keyword=("power", "戰力", "战力"),
            help=gettext_noop("troop power"),
            example="power>2",
        ),
        Fact(
            "health",
            gettext_noop("Health"),
            INT,
            _UNITS,
            keyword=("health", "生命"),
            help=gettext_noop("troop health"),
            example="health>=5",
        ),
        Fact(
            "affiliation",
            gettext_noop("Affiliation"),
            TEXT,
            shown=_UNITS,
            max_length=20,
            keyword=("affiliation", "a", "所屬", "所属"),
            help=gettext_noop("the troop's affiliation as printed, in either script"),
            example="a:羽林",
            filter=EXACT,
        ),
        Fact(
            "troop_class",
            gettext_noop("Class"),
            CHOICE,
            _UNITS | _LEADERS,
            shown=_UNITS | _GENERALS,
            choices=vocab.TroopClass,
            max_length=12,
            keyword=("class", "c", "類型", "类型"),
            help=gettext_noop("troop class"),
            example="class:騎兵",
            filter=EXACT,
        ),
        Fact(
            "life",
            gettext_noop("Life"),
            INT,
            _LEADERS,
            shown=_GENERALS,
            keyword=("life", "血量"),
            help=gettext_noop("a general's life"),
            example="life>=35",
        ),
        Fact(
            "faction",
            gettext_noop("Faction"),
            CHOICE,
            _GENERALS,
            choices=vocab.Faction,
            max_length=8,
            keyword=("faction", "f", "陣營", "阵营"),
            help=gettext_noop("faction of a general"),
            example="faction:wei",
            filter=EXACT,
        ),
        Fact(
            "awakening", gettext_noop("Awakening"), INT, frozenset({rules.AWAKENED_GENERAL}), unit="武魂", term="soul"
        ),
        Fact(
            "speed",
            gettext_noop("Speed"),
            CHOICE,
            _TACTICS,
            choices=vocab.Speed,
            max_length=8,
            keyword=("speed", "速度"),
            help=gettext_noop("tactic speed"),
            example="speed:fast",
            filter=EXACT,
        ),
        Fact(
            "element",
            gettext_noop("Element"),
            CHOICE,
            _TACTICS,
            choices=vocab.Element,
            max_length=8,
            keyword=("element", "e", "屬性", "属性"),
            help=gettext_noop("tactic element"),
            example="e:fire",
            filter=EXACT,
        ),
        Fact(
            "text",
            gettext_noop("Skills text"),
            TEXT,
            ALL_KINDS,
            max_length=MAX_TEXT,
            keyword=("text", "t", "技能", "文字"),
            help=gettext_noop("skills text"),
            example='t:"造成2點傷害"',
            row=False,
        ),
    )
}
PROPOSABLE: dict[str, Fact] = {name: fact for name, fact in FACTS.items() if fact.proposable}
CHOICE_FACTS: tuple[Fact, ...] = tuple(fact for fact in FACTS.values() if fact.kind == CHOICE)
FILTERS: tuple[Fact, ...] = tuple(fact for fact in FACTS.values() if fact.filter)
# What `missing:` accepts: the fact's name, its keyword's words and its aliases, to the fact.
MISSING_WORDS: dict[str, str] = {
    word.lower(): fact.name
    for fact in FACTS.values()
    if fact.expected
    for word in (fact.name, *fact.keyword, *fact.aliases)
}
_WORDS: dict[str, dict[str, str]] = {}


def words_of(name: str) -> dict[str, str]:
    """What a choice fact accepts (Fact.words), made when first asked (they need opencc) and
    kept for the process: the query language and a contribution read the same."""
    if name not in _WORDS:
        words = FACTS[name].words()
        assert words is not None
        _WORDS[name] = words
    return _WORDS[name]


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
    """The facts a proposal for this card may change: its name and what its page shows."""
    return [fact for fact in PROPOSABLE.values() if fact.required or card.kind in fact.shown_on]


def missing_facts(card: Card) -> list[str]:
    return [fact.name for fact in expected_facts(card) if fact.is_missing(card)]


def check(values: Mapping[str, Any], card: Card) -> dict[str, Any]:
    """The parsed facts of a proposal for `card`, or FactError for the first fault. A metal and
    its stars go together: a card cannot end up with one and not the other."""
    if not values:
        raise FactError("", _("Change at least one fact."))
    clean: dict[str, Any] = {}
    for name, raw in values.items():
        fact = PROPOSABLE.get(name)
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
