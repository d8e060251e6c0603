"""Show game data in the reader's script and language.

Card data is stored as printed (Traditional). Simplified readers get it through opencc; English
readers keep the Chinese card names, with pinyin beside them, and English labels for the slugs.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache
from typing import Any
from urllib.parse import urlencode

from django import template
from django.template.loader import render_to_string
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from catalog import cache_version, facts, images, rules, terms, textkeys, vocab
from catalog.faces import colours
from webutil import rows
from webutil.i18n import wants_english, wants_simplified
from webutil.mainland import interface_simplified
from webutil.text import CJK
from webutil.urls import reverse_memo

register = template.Library()

# Every choice's printed label, by slug (the slugs of the facts' choices are all distinct).
_LABELS: dict[str, str] = {
    value: str(text) for fact in facts.CHOICE_FACTS if fact.choices for value, text in fact.choices.choices
}


@register.filter
def script(text: str | None) -> str:
    """Printed text in the reader's Chinese script."""
    if not text:
        return ""
    return textkeys.to_simplified(text) if wants_simplified() else text


def _mark(text: str, lang: str = "zh-Hant") -> str:
    """On a page not in Chinese, Chinese text goes in an element that says so (screen readers,
    font fallback); on Chinese pages the page's own language already does."""
    if not text or not wants_english():
        return text
    return format_html('<span lang="{}">{}</span>', lang, text)


@register.filter
def zh(text: str | None) -> str:
    """Printed text (card data, set names) in the reader's script, marked as Chinese where the
    page is not. For element content; attributes take `script`."""
    return _mark(script(text), "zh-Hans" if wants_simplified() else "zh-Hant")


@register.filter
def said(text: str | None) -> str:
    """A message of the rules (rules_check's, written in Traditional): interface text, so on a
    Simplified page in mainland wording phrase by phrase (預設 → 默认), not character by
    character as card data is; marked as Chinese where the page is not."""
    if not text:
        return ""
    if wants_simplified():
        return _mark(interface_simplified(text), "zh-Hans")
    return _mark(text, "zh-Hant")


@register.filter
def code(text: str | None) -> str:
    """A card code as printed; 五道·001 is marked as Chinese on an English page."""
    if not text:
        return ""
    return _mark(text, "zh-Hant") if CJK.search(text) else text


@register.filter
def user_text(text: str | None) -> str:
    """Text a user wrote (deck, event and player names): marked as Chinese on an English page
    when it holds Chinese characters."""
    if not text:
        return ""
    return _mark(text, "zh") if CJK.search(text) else text


@register.filter
def has_chinese(text: str | None) -> bool:
    """Whether text a user wrote holds Chinese (its element is then marked lang="zh")."""
    return bool(text and CJK.search(text))


@register.filter
def names(values: Iterable[str]) -> str:
    """Names users wrote, as one list in the reader's language: 甲、乙、丙 or A, B, C."""
    return format_html_join("、" if not wants_english() else ", ", "{}", ((user_text(v),) for v in values))


@register.filter
def label(slug: str | None) -> str:
    """A glossary slug as the reader should see it: 騎兵 / 骑兵 / Cavalry."""
    if not slug:
        return ""
    if wants_english():
        return vocab.ENGLISH.get(slug, slug)
    return script(_LABELS.get(slug, slug))


@register.filter
def tier_label(slug: str | None) -> str:
    """A rarity tier as the reader should see it; a card whose tier is not known counts under
    "unknown" (the completion page's last row)."""
    return _("rarity unknown") if not slug or slug == "unknown" else label(slug)


@register.filter
def card_name(name: str | None) -> str:
    """A card's name in the reader's script; English readers get the pinyin beside it."""
    if not name:
        return ""
    if wants_english():
        return format_html('<span lang="zh-Hant">{}</span> <small class="pinyin">{}</small>', name, pinyin(name))
    return script(name)


@register.filter
def lines(text: str | None) -> list[str]:
    return text.splitlines() if text else []


@register.filter
def pinyin(name: str | None) -> str:
    return textkeys.shown_pinyin(name) if name else ""


@register.filter
def stars(count: int | None) -> str:
    return "★" * count if count else ""


@register.simple_tag
def rarity(card: Any) -> str:
    """銀★★★ in Chinese, Silver ★★★ in English; empty when unknown."""
    if not card.tier or not card.stars:
        return ""
    separator = " " if wants_english() else ""
    return f"{label(card.tier)}{separator}{'★' * card.stars}"


@register.inclusion_tag("catalog/_face.html", takes_context=True)
def card_face(context, card, sizes="(max-width: 40rem) 45vw, 10rem"):  # type: ignore[no-untyped-def]
    """A card's face as inline SVG drawn from its data; with an uploaded picture on top when
    the card has one. The SVG stays underneath: it shows while the picture loads, and when the
    picture fails (site.js then removes the broken image)."""
    return {
        "card": card,
        "face": colours(card.kind, card.tier),
        "picture": images.pictures_for(context.get("request")).get((card.pk, "front")),
        "sizes": sizes,
        "LANGUAGE_CODE": context.get("LANGUAGE_CODE"),
    }


@register.simple_tag(takes_context=True)
def face_image(context: Any, card: Any, sizes: str = "4rem", labelled: bool = False) -> SafeString:
    """A card's face as one image (jinja2/catalog/face_image.html)."""
    return rows.render("catalog/face_image.html", {"face": face_values(context.get("request"), card, sizes, labelled)})


def face_values(request: Any, card: Any, sizes: str = "4rem", labelled: bool = False) -> dict[str, Any]:
    """A card's face as one image: its uploaded picture, else the drawn face as an SVG file. A
    list of thirty faces is then thirty elements, not thirty drawings of forty (the builder's
    search and a deck's grid were slow to lay out on a phone), and the browser keeps each. The
    drawn face's address carries the catalogue version and the language it is written in.
    `labelled`: the image names the card (when it is all a link holds), in card data's language."""
    picture = images.pictures_for(request).get((card.pk, "front"))
    if picture is not None:
        src, srcset = picture.src, picture.srcset
    else:
        query = _face_query(cache_version.current(), get_language() or "")
        src, srcset = f"{reverse_memo('catalog:card-face', card.code)}?{query}", ""
    return {
        "src": src,
        "srcset": srcset,
        "sizes": sizes,
        "alt": f"{script(card.name)} {card.code}" if labelled else "",
        "lang": zh_lang() if labelled else "",
    }


@lru_cache(maxsize=64)
def _face_query(version: str, language: str) -> str:
    """The drawn face's query string (catalogue version and language)."""
    return urlencode({"v": version, "lang": language})


@register.simple_tag(takes_context=True)
def card_picture(context, card, side="front"):  # type: ignore[no-untyped-def]
    """One side's uploaded picture (catalog.images.Picture) or None."""
    return images.pictures_for(context.get("request")).get((card.pk, side))


@register.filter
def card_total(entries: dict[str, int] | None) -> int:
    """How many cards a {code: count} mapping holds (a deck version's main deck)."""
    return sum(entries.values()) if entries else 0


@register.simple_tag
def zh_lang() -> str:
    """The language tag of card data as this reader sees it (for a `lang` attribute)."""
    return "zh-Hans" if wants_simplified() else "zh-Hant"


@register.filter
def example(text: str | None) -> str:
    """An example of what to type, as <code>; marked as Chinese when it holds Chinese."""
    if not text:
        return ""
    if CJK.search(text):
        return format_html(
            '<code lang="{}">{}</code>', "zh-Hans" if text != textkeys.to_traditional(text) else "zh-Hant", text
        )
    return format_html("<code>{}</code>", text)


@register.filter
def lang_of(text: str | None) -> str:
    """The `lang` an element of user text needs when it holds Chinese ("" otherwise), for places
    that take no markup inside (an <option>): `<option lang="{{ name|lang_of }}">`."""
    return "zh" if text and CJK.search(text) else ""


@register.filter
def fact_value(value: object, name: str) -> str:
    """A card fact as shown in a diff or history: labels for slugs, card text in the reader's
    script (marked as Chinese), numbers as they are; unknown when there is none."""
    if value is None or value == "":
        return format_html('<span class="unknown">{}</span>', _("unknown"))
    fact = facts.FACTS.get(name)
    if fact is not None and fact.kind == facts.CHOICE:
        return label(str(value))
    if isinstance(value, str):
        return zh(value) if CJK.search(value) else value
    return str(value)


@register.filter
def fact_label(name: str) -> str:
    """The name of a fact in the reader's language (catalog.facts defines them once)."""
    fact = facts.FACTS.get(name)
    return str(fact.label) if fact else name


@register.filter
def fact_of(card: object, name: str) -> str:
    """A card's current value of one fact, shown as fact_value shows it."""
    return fact_value(getattr(card, name, None), name)


def _change_of(card: Any, names: tuple[str, ...]) -> int | None:
    """The contribution's change that supplied the first of these facts; None for printed ones."""
    found = getattr(card, "provenance", None) or {}
    for name in names:
        source = found.get(name)
        if source and source.get("change"):
            return int(source["change"])
    return None


@register.inclusion_tag("catalog/_provenance.html")
def provenance(card: Any, *names: str) -> dict[str, Any]:
    """Beside a fact: a link to the contribution it came from; nothing for a fact as printed."""
    return {"card": card, "change": _change_of(card, names)}


# How a row shows a fact that is more than its value (catalog.facts `display`).
_DISPLAYS = {"rarity": rarity}


@register.inclusion_tag("catalog/_fact_rows.html")
def card_facts(card: Any) -> dict[str, Any]:
    """The card page's facts: each fact of catalog.facts its kind shows, in the registry's
    order, with a link to the cards that share it where the card list filters by it."""
    rows = []
    for fact in facts.FACTS.values():
        if not fact.row or card.kind not in fact.shown_on:
            continue
        value = getattr(card, fact.name)
        text: str | None
        if fact.display:
            text = _DISPLAYS[fact.display](card) or None
        elif value is not None and value != "":
            text = fact_value(value, fact.name)
        else:
            text = getattr(card, fact.fallback) if fact.fallback else None
        linked = fact.filter and fact.kind in (facts.CHOICE, facts.TEXT) and value
        link = f"{reverse_memo('catalog:card-list')}?{urlencode({fact.name: value})}" if linked else ""
        names = (fact.name, *fact.joins, *((fact.fallback,) if fact.fallback else ()))
        term = terms.of_fact(fact, value)
        rows.append({"fact": fact, "text": text, "link": link, "change": _change_of(card, names), "term": term})
    return {"card": card, "rows": rows}


@register.filter
def set_description(card_set: object) -> str:
    """A set's description in the reader's language; one the site has no words for is shown as
    the data file has it (Chinese, marked)."""
    known = vocab.SET_DESCRIPTIONS.get(getattr(card_set, "code", ""))
    return str(known) if known else zh(getattr(card_set, "description", ""))


@register.filter(name="terms")
def with_terms(text: str | None) -> SafeString:
    """Printed text already in the reader's script (`card.text|script|terms`), escaped, its lines
    kept, each game term marked where it first appears, with its definition."""
    if not text:
        return mark_safe("")
    script = rules.reader_script()
    url = reverse_memo("catalog:rules")
    return terms.mark(text.replace("\r\n", "\n"), script, url)


def _term_marker_context(slug: str | None) -> dict[str, Any]:
    term = terms.TERMS.get(slug or "")
    if term is None:
        return {"term": None}
    script = rules.reader_script()
    return {
        "term": term,
        "word": term.word_in(script),
        "english": script == "en",
        "definition": term.definition(script),
        "lang": "zh-Hans" if script == "zh_hans" else "zh-Hant",
        "href": f"{reverse_memo('catalog:rules')}#{term.anchor}",
    }


# The marker's HTML by term and language: the rules and their words do not change while the
# process lives, and pages repeat it (the builder's search on every row).
_MARKERS: dict[tuple[str, str], SafeString] = {}


@register.simple_tag(name="term_marker")
def term_marker_html(slug: str | None) -> SafeString:
    """A small "?" beside a label that is a game term (快速, 部隊, 覺醒值…): the term's definition
    on hover, focus or a tap, and a link to its rules section; nothing for other labels. The
    pages' tag and the Jinja2 rows' filter alike."""
    key = (slug or "", get_language() or "")
    if key not in _MARKERS:
        html = render_to_string("catalog/_term_marker.html", _term_marker_context(slug)).strip()
        _MARKERS[key] = mark_safe(html)  # noqa: S308 (a template's escaped output)
    return _MARKERS[key]
