"""Finding decks by the cards they play: `card=` (with an optional least count) and `without=`
on the deck lists and the API, and the deck query language read by catalog.query's own
tokenizer and parser with the keywords below.

    has:新兵              plays 新兵 (a name in either script, pinyin, a code, a WD- alias)
    has:新兵:2            plays at least two copies of it (its printings counted together)
    -has:火攻             does not play it
    by:alice             built by alice
    updated>2026-10-01   changed after that day (< <= > >= = as for numbers)
    likes>=5             liked by at least five readers
    general:劉備          led by that general (a name or a code)
    free words           in the deck's name, in either script

A card is its name: every printing of it counts, as the copy limit counts them. Each condition
is one lookup on the decks' stored card sets (decks.models.DeckName), never a sum over entries.
"""

from __future__ import annotations

import datetime
import re
from collections.abc import Iterable
from typing import Any

from django.db import connection
from django.db.models import BooleanField, F, Func, Q, Value
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from catalog import textkeys
from catalog.lookup import catalog_index
from catalog.query import Keyword, Node, QueryError, read
from decks.models import DeckName
from webutil import bounds

# How many cards one search may name (required and excluded together): each is a subquery.
SEARCH_CARDS = bounds.declare("deck search cards", 8, "cards", "the cards one deck search may require or exclude")
# The longest card (name or code, with its count) a search reads.
MAX_CARD_TEXT = 60
# The most copies a search may ask a deck to hold (no deck holds more of a name).
MOST_COPIES = 60

KEYWORDS: tuple[Keyword, ...] = (
    Keyword("has", "", False, ("has", "有", "含"), None, gettext_lazy("decks that play a card"), "has:新兵:2"),
    Keyword("by", "owner__username", False, ("by", "作者"), None, gettext_lazy("decks built by a user"), "by:alice"),
    Keyword(
        "updated",
        "updated",
        False,
        ("updated", "更新"),
        None,
        gettext_lazy("decks changed on, before or after a day"),
        "updated>2026-10-01",
    ),
    Keyword("likes", "like_count", True, ("likes", "讚", "赞"), None, gettext_lazy("decks by their likes"), "likes>=5"),
    Keyword(
        "general",
        "",
        False,
        ("general", "g", "武將", "武将"),
        None,
        gettext_lazy("decks led by a general"),
        "general:劉備",
    ),
)
_BY_ALIAS = {alias.lower(): keyword for keyword in KEYWORDS for alias in keyword.aliases}
_COUNTED = re.compile(r"^(?P<card>.+?)\s*[:：×xX*]\s*(?P<n>\d{1,3})$")
_NUMBER_LOOKUPS = {":": "exact", "=": "exact", "<": "lt", "<=": "lte", ">": "gt", ">=": "gte"}
_DATE_LOOKUPS = {":": "date", "=": "date", "<": "date__lt", "<=": "date__lte", ">": "date__gt", ">=": "date__gte"}


class SearchError(ValueError):
    """A card search that cannot be answered: an unknown card, a bad count, too many cards."""


def wanted(text: str) -> tuple[str, int]:
    """A wanted card as the URL and `has:` give it (`新兵`, `新兵:2`, `LSHJ-001:2`): its name's
    key and the least count (1 unless given). Raises SearchError for a card not in the catalogue."""
    text = text.strip()
    if len(text) > MAX_CARD_TEXT:
        raise SearchError(_("A card is named in at most %(max)d characters.") % {"max": MAX_CARD_TEXT})
    counted = _COUNTED.match(text)
    name, least = (counted.group("card"), int(counted.group("n"))) if counted else (text, 1)
    facts = catalog_index().lookup(name) if name else None
    if facts is None and counted:  # a name that ends in a number, not a count
        facts, least = catalog_index().lookup(text), 1
    if facts is None:
        raise SearchError(_("No card is called “%(card)s”.") % {"card": text[:60]})
    if not 1 <= least <= MOST_COPIES:
        raise SearchError(_("A deck holds 1 to %(most)d copies of a card.") % {"most": MOST_COPIES})
    return facts.name_key, least


class HoldsName(Func):
    """PostgreSQL: the deck's stored card names (Deck.card_names) hold this name, read through
    the GIN index on their array (decks migration 0019): several cards are one bitmap scan
    each, ANDed, where the DeckName rows took a hash join each over every deck playing them."""

    output_field = BooleanField()

    def __init__(self, name_key: str) -> None:
        super().__init__(F("card_names"), Value(name_key))

    def as_sql(self, compiler: Any, connection: Any, **extra: Any) -> tuple[str, list[Any]]:  # type: ignore[override]
        column, column_params = compiler.compile(self.source_expressions[0])
        name, name_params = compiler.compile(self.source_expressions[1])
        return f"string_to_array({column}, '|') @> ARRAY[{name}]::text[]", [*column_params, *name_params]


def plays(name_key: str, least: int = 1) -> Q:
    """Decks whose main deck plays at least `least` copies of the card name: on PostgreSQL, a
    name at all by the GIN index; any count, and on SQLite, by the DeckName rows."""
    if least == 1 and connection.vendor == "postgresql":
        return Q(HoldsName(name_key))
    return Q(pk__in=DeckName.objects.filter(name_key=name_key, copies__gte=least).values("deck_id"))


def cards_condition(required: Iterable[str], excluded: Iterable[str]) -> Q:
    """Decks that play every required card (`card=` values) and none of the excluded ones
    (`without=`). Raises SearchError naming the first card that cannot be read."""
    required, excluded = [r for r in required if r.strip()], [e for e in excluded if e.strip()]
    too_many = too_many_cards(len(required) + len(excluded))
    if too_many:
        raise SearchError(too_many)
    condition = Q()
    for text in required:
        condition &= plays(*wanted(text))
    for text in excluded:
        condition &= ~plays(wanted(text)[0])
    return condition


def parse(query: str) -> Node | None:
    """A deck query's syntax tree (None when empty), its values checked: QueryError otherwise."""
    node = read(query, _BY_ALIAS)
    if node is not None:
        _count_cards(node)
        to_q(node)
    return node


def too_many_cards(named: int) -> str:
    """Why a search naming this many cards is refused ("" when it is not): the page's fields and
    the query language count against the one bound."""
    if named <= int(SEARCH_CARDS):
        return ""
    return _("A search may name at most %(max)d cards; this one names %(n)d.") % {"max": int(SEARCH_CARDS), "n": named}


def _count_cards(node: Node) -> None:
    named = [n for n in _leaves(node) if n.token is not None and n.token.key is not None and n.token.key.name == "has"]
    too_many = too_many_cards(len(named))
    if too_many:
        raise QueryError(too_many, named[int(SEARCH_CARDS)].token.position)  # type: ignore[union-attr]


def _leaves(node: Node) -> list[Node]:
    return [node] if not node.children else [leaf for child in node.children for leaf in _leaves(child)]


def to_q(node: Node) -> Q:
    """The decks a query's tree selects."""
    if node.kind in ("and", "or"):
        result = Q()
        for child in node.children:
            result = result & to_q(child) if node.kind == "and" else result | to_q(child)
        return result
    if node.kind == "not":
        return ~to_q(node.children[0])
    token = node.token
    assert token is not None
    if node.kind in ("word", "phrase"):
        return _named(token.text)
    keyword = token.key
    assert keyword is not None
    if keyword.name == "updated":
        return _updated(token.text, token.op, token.position)
    if keyword.numeric:
        return _number(keyword, token.text, token.op, token.position)
    if token.op not in (":", "="):
        raise QueryError(
            _("%(keyword)s takes : or = (not %(op)s)") % {"keyword": keyword.name, "op": token.op}, token.position
        )
    if keyword.name == "has":
        try:
            return plays(*wanted(token.text))
        except SearchError as exc:
            raise QueryError(str(exc), token.position) from None
    if keyword.name == "by":
        return Q(owner__username__iexact=token.text)
    facts = catalog_index().lookup(token.text)  # general
    if facts is None:
        raise QueryError(_("No card is called “%(card)s”.") % {"card": token.text[:60]}, token.position)
    return Q(general__name_key=facts.name_key)


def _number(keyword: Keyword, text: str, op: str, position: int) -> Q:
    if not re.fullmatch(r"\d{1,6}", text.strip()):
        message = _("%(keyword)s needs a whole number, not “%(value)s”") % {"keyword": keyword.name, "value": text[:20]}
        raise QueryError(message, position)
    if op == "!=":
        return ~Q(**{keyword.field: int(text)})
    return Q(**{f"{keyword.field}__{_NUMBER_LOOKUPS[op]}": int(text)})


def _named(text: str) -> Q:
    """A word of the deck's name, in either script."""
    return (
        Q(name__icontains=text)
        | Q(name__icontains=textkeys.to_traditional(text))
        | Q(name__icontains=textkeys.to_simplified(text))
    )


def _updated(text: str, op: str, position: int) -> Q:
    try:
        day = datetime.date.fromisoformat(text.strip())
    except ValueError:
        message = _("updated needs a day as 2026-10-01, not “%(value)s”") % {"value": text[:20]}
        raise QueryError(message, position) from None
    if op not in _DATE_LOOKUPS:
        raise QueryError(_("updated takes : = < <= > or >= (not %(op)s)") % {"op": op}, position)
    return Q(**{f"updated__{_DATE_LOOKUPS[op]}": day})
