"""The game's terms (快速, 調度, 武魂…): one registry, each term with the rules section that explains
it and the line of the rules that defines it. Wherever a term appears in text the site shows (card
text, the labels of card facts) it is marked, its definition shown on hover, focus or a tap.

("Keywords" are the query language's `class:`-style words; these are "terms".)

A definition is a line of the printed rules (`catalog.rules`), never our own words: a term the
seeds do not define (部隊, 錦囊) links its section and has no definition."""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from django.utils.functional import Promise
from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext_lazy

from catalog import facts, rules, textkeys


@dataclass(frozen=True)
class Term:
    slug: str
    word: str  # as printed (Traditional); the Simplified form is derived
    english: str | Promise
    anchor: str  # the rules section that explains it
    defined_by: str | None  # how the defining line of that section begins; None: not defined

    def words(self) -> dict[str, str]:
        return {"zh_hant": self.word, "zh_hans": textkeys.to_simplified(self.word)}

    def word_in(self, script: rules.Script) -> str:
        """The word as a page in `script` prints it (Traditional on English pages)."""
        return self.words()["zh_hans" if script == "zh_hans" else "zh_hant"]

    def definition(self, script: rules.Script) -> str | None:
        """The defining line of the rules, in the reader's script (Traditional on English pages:
        the rules are not translated)."""
        if self.defined_by is None:
            return None
        section = rules.book().section(self.anchor)
        assert section is not None, self.anchor
        if script == "zh_hans":
            start = textkeys.to_simplified(self.defined_by)
            found = next((line for line in section.lines("zh_hans") if line.startswith(start)), None)
            if found is not None:
                return found
            hant = self.definition("zh_hant")
            return textkeys.to_simplified(hant) if hant else None
        return next((line for line in section.lines("zh_hant") if line.startswith(self.defined_by)), None)


TERMS = {
    term.slug: term
    for term in (
        Term("fast", "快速", gettext_lazy("fast"), "turn-main", "快速："),
        Term("slow", "緩速", gettext_lazy("slow"), "turn-main", "緩速："),
        Term("mulligan", "調度", gettext_lazy("mulligan"), "setup", "調度："),
        Term("raise", "提升", gettext_lazy("raise"), "turn-main", "提升："),
        Term("awaken", "覺醒", gettext_lazy("awaken"), "concepts", "覺醒前："),
        Term("soul", "武魂", gettext_lazy("war soul"), "concepts", "武魂："),
        Term("reinforcement", "援軍", gettext_lazy("reinforcement"), "reinforcements", "援軍："),
        Term("troop", "部隊", gettext_lazy("troop"), "turn-main", None),
        Term("tactic", "錦囊", gettext_lazy("tactic"), "turn-main", None),
        Term("graveyard", "墳場", gettext_lazy("graveyard"), "zones", "玩家的棄牌區。"),
        Term("resource", "資源", gettext_lazy("resource"), "zones", "放置資源的區域。"),
        Term("tapped", "橫置", gettext_lazy("tapped (turned sideways)"), "zones", "☆資源區中，"),
        Term("untapped", "豎置", gettext_lazy("untapped (upright)"), "zones", "☆資源區中，"),
    )
}


@lru_cache(maxsize=2)
def _pattern(script: rules.Script) -> tuple[re.Pattern[str], dict[str, Term]]:
    side: rules.Script = "zh_hans" if script == "zh_hans" else "zh_hant"
    by_word = {term.words()[side]: term for term in TERMS.values()}
    # Longest first, so that a longer term is never cut by a shorter one inside it.
    return re.compile("|".join(re.escape(w) for w in sorted(by_word, key=len, reverse=True))), by_word


def mark(text: str, script: rules.Script, rules_url: str) -> SafeString:
    """`text` (plain, in the reader's script; Traditional on English pages) escaped, its lines
    kept, each term in it marked where it first appears: a link to its rules section with its definition beside it,
    shown on hover, focus or a tap (static/js/site.js). Later mentions stay plain text, as a
    reference book marks a word once a passage."""
    pattern, by_word = _pattern(script)
    out: list[str] = []
    last = 0
    seen: set[str] = set()
    for found in pattern.finditer(text):
        term = by_word[found.group(0)]
        if term.slug in seen:
            continue
        seen.add(term.slug)
        out.append(_plain(text[last : found.start()]))
        out.append(_marked(term, found.group(0), script, rules_url))
        last = found.end()
    out.append(_plain(text[last:]))
    return mark_safe("".join(out))  # noqa: S308 (every piece escaped above)


def _plain(text: str) -> str:
    """Escaped, its lines kept as lines."""
    return "<br>".join(escape(line) for line in text.split("\n"))


def _marked(term: Term, word: str, script: rules.Script, rules_url: str) -> str:
    definition = term.definition(script)
    named = f"<b>{escape(str(term.english))}</b> " if script == "en" else ""
    lang = "zh-Hans" if script == "zh_hans" else "zh-Hant"
    shown = f'<span lang="{lang}">{escape(definition)}</span>' if definition else ""
    tip = f'<span class="term-tip" role="tooltip">{named}{shown}</span>' if named or definition else ""
    return (
        f'<span class="term" data-term="{term.slug}">'
        f'<a href="{escape(rules_url)}#{term.anchor}">{escape(word)}</a>{tip}</span>'
    )


def cited(text: str) -> list[str]:
    """The slugs of the terms `text` names, in either script, in the registry's order."""
    found: set[str] = set()
    for script in ("zh_hant", "zh_hans"):
        pattern, by_word = _pattern(script)
        found.update(by_word[m.group(0)].slug for m in pattern.finditer(text))
    return [slug for slug in TERMS if slug in found]


def of_fact(fact: facts.Fact, value: Any) -> str:
    """The term a fact's row names: the fact's own (覺醒值 → 武魂), else its value when that is a
    term (speed fast → 快速); "" for none."""
    return fact.term or (value if isinstance(value, str) and value in TERMS else "")


def of_card(card: Any) -> list[str]:
    """The slugs of the terms a card's face names: its kind (部隊, 錦囊), the facts its kind
    shows that are terms (快速, 武魂), and the terms in its text; in the registry's order. The
    hover preview of a card (a picture) lists them beneath it."""
    found = {card.kind} & set(TERMS)
    for fact in facts.FACTS.values():
        value = getattr(card, fact.name, None)
        if card.kind in fact.shown_on and value is not None and value != "":
            found.add(of_fact(fact, value))
    found.discard("")
    found.update(cited(card.text or ""))
    return [slug for slug in TERMS if slug in found]
