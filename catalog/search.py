"""Free words of a card search: Traditional or Simplified, pinyin (full, initials, prefix), codes.
The query language (catalog.query) combines them with keywords.

Everything matched here was computed when the catalogue loaded (catalog.textkeys); a request
only folds its own query and runs one indexed-or-small SQL filter.
"""

from __future__ import annotations

import re

from django.db.models import Case, IntegerField, Q, Value, When

from catalog import textkeys
from catalog.models import Card, SearchKey, TextGram
from rules_check.codes import ASCII_PREFIXES, normalize_code

_PINYIN_LIKE = re.compile(r"^[a-zv]+$")
# A word whose first two letters begin a card code (`yx`, `wd1`, `lshj02`) is searched as a code.
_CODE_STARTS = {prefix[:2].lower() for prefix in ASCII_PREFIXES}


def term_condition(term: str) -> Q:
    """Cards whose name, code, pinyin or text match one search word."""
    prefixes = [textkeys.hex_key(textkeys.name_key(term))]  # a part of the name, either script
    folded = textkeys.fold_pinyin(term)
    if _PINYIN_LIKE.match(folded):
        prefixes.append(folded)  # the start of a pinyin reading or of the initials
    code_key = textkeys.code_key(term)
    if code_key and re.match(r"^[a-z]+\d*$", code_key) and code_key[:2] in _CODE_STARTS:
        prefixes.append(code_key)  # the start of a code
    cond = Q(pk__in=SearchKey.objects.starting_with(prefixes).values("card_id"))
    code = normalize_code(term)
    if code:
        cond |= Q(code=code)
    return cond | text_condition(term)


def text_condition(phrase: str) -> Q:
    """Cards whose searchable text (name and skills, either script) contains the phrase: the
    indexed grams narrow the cards to those holding every pair of the phrase, and only those are
    scanned for the phrase itself."""
    lowered = phrase.lower()
    inner = Q(search_blob__contains=lowered)
    for gram in textkeys.query_grams(lowered):
        if len(gram) == 1:  # a character alone: every pair it begins, and the runs it ends
            grams = TextGram.objects.filter(gram__gte=gram, gram__lt=chr(ord(gram) + 1))
        else:
            grams = TextGram.objects.filter(gram=gram)
        inner &= Q(pk__in=grams.values("card_id"))
    # One subquery of its own: beside other conditions (a free word's `or` with the name keys),
    # the database plans it once, as a set, instead of testing the pairs card by card.
    return Q(pk__in=Card.objects.filter(inner).values("pk"))


def rank_expression(term: str) -> Case:
    """0 exact name or code, 1 name prefix, 2 pinyin, 3 anything else (text)."""
    key = textkeys.name_key(term)
    folded = textkeys.fold_pinyin(term)
    whens = [When(name_key=key, then=Value(0)), When(name_key__startswith=key, then=Value(1))]
    code = normalize_code(term)
    if code:
        whens.insert(0, When(code=code, then=Value(0)))
    if _PINYIN_LIKE.match(folded):
        whens += [
            When(pinyin_key__contains=f"|{folded}|", then=Value(1)),
            When(initials_key__contains=f"|{folded}|", then=Value(2)),
            When(pinyin_key__contains=f"|{folded}", then=Value(2)),
            When(initials_key__contains=f"|{folded}", then=Value(2)),
        ]
    whens.append(When(name_key__contains=key, then=Value(2)))
    return Case(*whens, default=Value(3), output_field=IntegerField())
