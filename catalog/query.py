"""The card query language, one parser for the card list, the API's `q=` and the deck builder
(and, with its own keywords, the deck search: decks.search reads its queries with `read`).

    liubei                     free words: names (either script), pinyin, codes, skills text
    "造成2點傷害"               a quoted phrase: text
    class:cavalry cost<=3      keyword, operator, value; values as slug, Chinese or English
    -kind:general              minus negates a term (or a group)
    faction:wei or faction:wu  `or` (also 或) between terms; terms side by side are all required
    (s:yxjq or s:lshj) c:騎兵   parentheses group

A query that cannot be read raises QueryError with the position (0-based) of the fault.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from django.db.models import Q
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from catalog import facts, rulings, search, textkeys, vocab
from catalog.models import SearchKey
from webutil import bounds


class QueryError(ValueError):
    def __init__(self, message: str, position: int) -> None:
        super().__init__(message)
        self.message = message
        self.position = position

    def __str__(self) -> str:
        return _("%(message)s (at character %(position)d)") % {"message": self.message, "position": self.position + 1}


@dataclass(frozen=True)
class Keyword:
    name: str
    field: str
    numeric: bool
    aliases: tuple[str, ...]
    values: dict[str, str] | None = None  # accepted word -> stored slug (None: free text)
    help: Any = ""  # a lazy translation: the syntax page shows it in the reader's language
    example: str = ""


def _set_words() -> dict[str, str]:
    words: dict[str, str] = {}
    for code, name in vocab.SETS.items():
        for word in (code, name, textkeys.to_simplified(name), "五道" if code == "WD" else code):
            words[word.lower()] = code
    return words


def _fact_keyword(fact: facts.Fact) -> Keyword:
    return Keyword(
        fact.keyword[0],
        fact.name,
        fact.kind == facts.INT,
        fact.keyword,
        facts.words_of(fact.name) if fact.choices is not None else None,
        gettext_lazy(fact.help),
        fact.example,
    )


# The set, each fact's keyword (catalog.facts, in its order), then the two about completeness.
KEYWORDS: tuple[Keyword, ...] = (
    Keyword("set", "set__code", False, ("set", "s", "系列"), _set_words(), gettext_lazy("the set"), "set:yxjq"),
    *(_fact_keyword(fact) for fact in facts.FACTS.values() if fact.keyword),
    Keyword(
        "is",
        "",
        False,
        ("is", "是"),
        {
            "incomplete": "incomplete",
            "不完整": "incomplete",
            "待補": "incomplete",
            "待补": "incomplete",
            "ruled": "ruled",
            "有裁定": "ruled",
            "裁定": "ruled",
        },
        gettext_lazy("cards that lack a fact their kind prints (incomplete), or have rulings (ruled)"),
        "is:incomplete",
    ),
    Keyword(
        "missing",
        "",
        False,
        ("missing", "缺", "缺少"),
        facts.MISSING_WORDS,
        gettext_lazy("cards of a kind that prints this fact, without it"),
        "missing:cost",
    ),
)
_BY_ALIAS = {alias.lower(): kw for kw in KEYWORDS for alias in kw.aliases}
_OPS = ("<=", ">=", "!=", ":", "=", "<", ">")
_OR_WORDS = {"or", "或"}
_QUOTES = {'"': '"', "“": "”", "「": "」"}
_TERM = re.compile(r"^(?P<key>[^\s:=<>!]+?)(?P<op><=|>=|!=|:|=|<|>)(?P<value>.*)$", re.DOTALL)


# --- tokens ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Token:
    kind: str  # "(", ")", "or", "-", "word", "phrase", "term"
    text: str
    position: int
    key: Keyword | None = None
    op: str = ""


def tokenize(query: str, keywords: dict[str, Keyword] | None = None) -> list[Token]:
    """The query's tokens; `keywords` (alias -> Keyword) are the language's, the cards' unless
    given."""
    aliases = _BY_ALIAS if keywords is None else keywords
    tokens: list[Token] = []
    i, n = 0, len(query)
    while i < n:
        ch = query[i]
        if ch.isspace():
            i += 1
        elif ch in "(（":
            tokens.append(Token("(", ch, i))
            i += 1
        elif ch in ")）":
            tokens.append(Token(")", ch, i))
            i += 1
        elif ch in _QUOTES:
            text, i = _read_quoted(query, i)
            tokens.append(Token("phrase", text, i - len(text) - 2))
        elif ch == "-" and (i + 1 == n or query[i + 1].isspace()):
            raise QueryError(_("Nothing after this minus"), i)
        elif ch == "-" and not query[i + 1].isdigit():
            tokens.append(Token("-", ch, i))
            i += 1
        else:
            start = i
            while i < n and not query[i].isspace() and query[i] not in "()（）":
                if query[i] in _QUOTES and i > start and query[i - 1] in ":=<>":
                    _quoted, i = _read_quoted(query, i)  # key:"a quoted value"
                    continue
                i += 1
            tokens.append(_word_token(query[start:i], start, aliases))
    return tokens


def _read_quoted(query: str, start: int) -> tuple[str, int]:
    close = _QUOTES[query[start]]
    end = query.find(close, start + 1)
    if end == -1:
        raise QueryError(_("This quote is never closed"), start)
    return query[start + 1 : end], end + 1


def _word_token(word: str, position: int, aliases: dict[str, Keyword]) -> Token:
    if word.lower() in _OR_WORDS:
        return Token("or", word, position)
    match = _TERM.match(word)
    if match is None:
        return Token("word", word, position)
    keyword = aliases.get(match.group("key").lower())
    if keyword is None:
        if re.fullmatch(r"[A-Za-z]+", match.group("key")):
            known = ", ".join(dict.fromkeys(kw.name for kw in aliases.values()))
            raise QueryError(
                _("Unknown keyword “%(key)s”: use one of %(known)s") % {"key": match.group("key"), "known": known},
                position,
            )
        return Token("word", word, position)  # e.g. a name with a colon in it
    value = match.group("value")
    if len(value) >= 2 and value[0] in _QUOTES and value[-1] == _QUOTES[value[0]]:
        value = value[1:-1]
    if not value:
        raise QueryError(
            _("%(keyword)s needs a value") % {"keyword": keyword.name + match.group("op")}, position + len(word)
        )
    return Token("term", value, position, key=keyword, op=match.group("op"))


# --- syntax tree -------------------------------------------------------------------------------


@dataclass(frozen=True)
class Node:
    kind: str  # "and", "or", "not", "word", "phrase", "term"
    children: tuple[Node, ...] = ()
    token: Token | None = None


class _Parser:
    def __init__(self, tokens: list[Token], length: int) -> None:
        self.tokens = tokens
        self.i = 0
        self.length = length
        self.depth = 0  # parentheses and minus signs open around the token being read

    def peek(self) -> Token | None:
        return self.tokens[self.i] if self.i < len(self.tokens) else None

    def take(self) -> Token:
        token = self.tokens[self.i]
        self.i += 1
        return token

    def parse(self) -> Node:
        node = self.or_expr()
        extra = self.peek()
        if extra is not None:
            raise QueryError(_("Unexpected “%(text)s”") % {"text": extra.text}, extra.position)
        return node

    def or_expr(self) -> Node:
        parts = [self.and_expr()]
        while (token := self.peek()) is not None and token.kind == "or":
            self.take()
            parts.append(self.and_expr())
        return parts[0] if len(parts) == 1 else Node("or", tuple(parts))

    def and_expr(self) -> Node:
        parts = []
        while (token := self.peek()) is not None and token.kind not in ("or", ")"):
            parts.append(self.unary())
        if not parts:
            token = self.peek()
            position = token.position if token else self.length
            raise QueryError(_("Expected a search term here"), position)
        return parts[0] if len(parts) == 1 else Node("and", tuple(parts))

    def unary(self) -> Node:
        token = self.take()
        if token.kind in ("-", "("):
            self.depth += 1
            if self.depth > int(QUERY_DEPTH):
                message = _("Parentheses and minus signs may nest at most %(max)d deep in a search.")
                raise QueryError(message % {"max": int(QUERY_DEPTH)}, token.position)
            try:
                return self._nested(token)
            finally:
                self.depth -= 1
        if token.kind == ")":
            raise QueryError(_("Unexpected “%(text)s”") % {"text": ")"}, token.position)
        return Node(token.kind, token=token)

    def _nested(self, token: Token) -> Node:
        if token.kind == "-":
            if self.peek() is None:
                raise QueryError(_("Nothing after this minus"), token.position)
            return Node("not", (self.unary(),))
        inner = self.or_expr()  # after "("
        closing = self.peek()
        if closing is None or closing.kind != ")":
            raise QueryError(_("This parenthesis is never closed"), token.position)
        self.take()
        return inner


# What one query may cost, bounded where it is read: each search term is a subquery, and
# PostgreSQL's planner weighs their orders against each other (16 text terms took 0.24 s to plan,
# 28 took 2 s, 49 never finished), so a query has at most this many.
QUERY_CHARACTERS = bounds.declare("query characters", 200, "characters", "the length of one search query")
QUERY_TERMS = bounds.declare("query terms", 12, "terms", "the words, phrases and keywords of one search query")
QUERY_DEPTH = bounds.declare("query depth", 4, "levels", "how deep parentheses and minus signs nest in a query")


def _bounded(tokens: list[Token]) -> None:
    terms = [t for t in tokens if t.kind in ("word", "phrase", "term")]
    if len(terms) > int(QUERY_TERMS):
        raise QueryError(
            _("A search may have at most %(max)d terms; this one has %(n)d.")
            % {"max": int(QUERY_TERMS), "n": len(terms)},
            terms[int(QUERY_TERMS)].position,
        )


def parse(query: str) -> Node | None:
    """The syntax tree of a card query, None for an empty one. Raises QueryError for a query
    that cannot be read, names a value that does not exist (`class:dragon`), or is past a bound
    (characters, terms, depth: QUERY_*)."""
    node = read(query)
    if node is not None:
        to_q(node)  # values are checked now, so that a bad one is a parse error, not a failure later
    return node


def read(query: str, keywords: dict[str, Keyword] | None = None) -> Node | None:
    """The syntax tree of a query in the language of `keywords` (the cards' unless given),
    within the bounds, its values not yet checked: the caller's conversion checks them."""
    if "\x00" in query:
        raise QueryError(_("The query contains a NUL character"), query.index("\x00"))
    if len(query) > int(QUERY_CHARACTERS):
        raise QueryError(
            _("A search may be at most %(max)d characters long.") % {"max": int(QUERY_CHARACTERS)},
            int(QUERY_CHARACTERS),
        )
    tokens = tokenize(query, keywords)
    if not tokens:
        return None
    _bounded(tokens)
    return _Parser(tokens, len(query)).parse()


# --- to SQL ------------------------------------------------------------------------------------


def to_q(node: Node) -> Q:
    if node.kind == "and":
        return _and(node.children)
    if node.kind == "or":
        result = Q()
        for child in node.children:
            result |= to_q(child)
        return result
    if node.kind == "not":
        return ~to_q(node.children[0])
    token = node.token
    assert token is not None
    if node.kind == "word":
        return search.term_condition(token.text)
    if node.kind == "phrase":
        return search.text_condition(token.text) | Q(name_key__contains=textkeys.name_key(token.text))
    return _term(token)


def _and(children: tuple[Node, ...]) -> Q:
    result = Q()
    for child in children:
        result &= to_q(child)
    words = [c.token.text for c in children if c.kind == "word" and c.token]
    folded = textkeys.fold_pinyin("".join(words))
    if len(words) > 1 and len(words) == len(children) and re.fullmatch(r"[a-zv]+", folded):
        # "liu bei", "liú bèi": one name typed with spaces
        result |= Q(pk__in=SearchKey.objects.starting_with([folded]).values("card_id"))
    return result


def _term(token: Token) -> Q:
    keyword = token.key
    assert keyword is not None
    if keyword.numeric:
        return _number(token, keyword)
    if token.op not in (":", "=", "!="):
        raise QueryError(
            _("%(keyword)s takes : = or != (not %(op)s)") % {"keyword": keyword.name, "op": token.op}, token.position
        )
    if keyword.values is not None:
        slug = keyword.values.get(token.text.lower().replace(" ", ""))
        if slug is None:
            examples = ", ".join(sorted({v for v in keyword.values.values()}))
            raise QueryError(
                _("“%(value)s” is not a %(keyword)s: use %(values)s")
                % {"value": token.text, "keyword": keyword.name, "values": examples},
                token.position,
            )
        if keyword.name == "is":
            cond = facts.incomplete() if slug == "incomplete" else rulings.ruled()
        elif keyword.name == "missing":
            cond = facts.FACTS[slug].missing()
        else:
            cond = Q(**{keyword.field: slug})
    elif keyword.field == "text":  # a phrase of the name or the skills, through the index
        cond = search.text_condition(token.text)
    else:  # a text as printed, found in either script
        field = f"{keyword.field}__contains"
        cond = Q(**{field: textkeys.to_traditional(token.text)}) | Q(**{field: token.text})
    return ~cond if token.op == "!=" else cond


_LOOKUPS = {":": "exact", "=": "exact", "<": "lt", "<=": "lte", ">": "gt", ">=": "gte"}


def _number(token: Token, keyword: Keyword) -> Q:
    text = token.text.strip()
    if not re.fullmatch(r"\d{1,4}", text):
        raise QueryError(
            _("%(keyword)s needs a whole number, not “%(value)s”") % {"keyword": keyword.name, "value": token.text},
            token.position,
        )
    value = int(text)
    if token.op == "!=":
        return Q(**{f"{keyword.field}__isnull": False}) & ~Q(**{keyword.field: value})
    return Q(**{f"{keyword.field}__{_LOOKUPS[token.op]}": value})


def free_text(node: Node | None) -> str:
    """The free words of a query, in order, for ranking the results."""
    if node is None:
        return ""
    if node.kind == "word" and node.token:
        return node.token.text
    if node.kind == "and":
        return "".join(free_text(c) for c in node.children if c.kind == "word")
    return ""


def apply(queryset: Any, node: Node | None) -> Any:
    """Cards matching the query, best matches first when it has free words."""
    if node is None:
        return queryset
    queryset = queryset.filter(to_q(node))
    ranking = free_text(node)
    if ranking:
        queryset = queryset.annotate(search_rank=search.rank_expression(ranking)).order_by("search_rank", "position")
    return queryset
