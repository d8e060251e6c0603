from __future__ import annotations

from collections import Counter
from typing import Any

from django import forms
from django.conf import settings
from django.core.cache import cache
from django.core.paginator import Paginator
from django.db.models import QuerySet
from django.http import HttpResponse, HttpResponsePermanentRedirect
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import translation
from django.utils.translation import gettext as _

from catalog import cache_version, query, rules, rulings, terms, textkeys
from catalog.faces import colours
from catalog.filters import TIDY_DEFAULTS, CardFilter
from catalog.models import Card, CardSet, Ruling
from catalog.preview import card_png
from catalog.vocab import Kind, Tier
from rules_check.codes import normalize_code
from webutil.i18n import wants_english, wants_simplified
from webutil.pagination import per_page
from webutil.querystring import tidy_get
from webutil.requests import HtmxHttpRequest


def home_context() -> dict[str, Any]:
    """The catalogue's part of the home page (decks.views.home adds the decks')."""
    return {"sets": CardSet.objects.all(), "card_count": Card.objects.count()}


def _card_view(request: HtmxHttpRequest) -> str:
    """List or grid: the reader's last choice, kept in the session."""
    chosen = request.GET.get("view")
    if chosen in ("list", "grid"):
        request.session["card_view"] = chosen
        return chosen
    return str(request.session.get("card_view", "list"))


@tidy_get(TIDY_DEFAULTS)
def card_list(request: HtmxHttpRequest, cards: QuerySet[Card] | None = None) -> HttpResponse:
    """The catalogue, filtered. A higher layer may pass the rows with more on them (the reader's
    own copies: collection.catalog_pages); the catalogue itself knows nothing of collections."""
    base = Card.objects.with_set() if cards is None else cards
    card_filter = CardFilter(request.GET, queryset=base)
    status = 200
    if card_filter.is_valid():
        cards = card_filter.qs
    else:
        cards = Card.objects.none()
        status = 400
    page = Paginator(cards, per_page(request)).get_page(request.GET.get("page"))
    context = {
        "filter": card_filter,
        "page": page,
        "cards": page.object_list,
        "card_view": _card_view(request),
    }
    template = "catalog/_card_results.html" if request.htmx and not request.htmx.boosted else "catalog/card_list.html"
    return render(request, template, context, status=status)


def card_detail(request: HtmxHttpRequest, code: str, cards: QuerySet[Card] | None = None) -> HttpResponse:
    canonical = normalize_code(code)
    if canonical is None:
        message = _("“%(code)s” is not a card code.") % {"code": code[:40]}
        return render(request, "404.html", {"message": message}, status=404)
    if canonical != code:
        return HttpResponsePermanentRedirect(Card(code=canonical).get_absolute_url())
    card = get_object_or_404(Card.objects.with_set() if cards is None else cards, code=canonical)
    context = {
        "card": card,
        "same_name": Card.objects.with_set().same_name_as(card),
        "related": Card.objects.with_set().related_to(card)[:24],
    }
    return render(request, "catalog/card_detail.html", context)


def set_list(request: HtmxHttpRequest) -> HttpResponse:
    return render(request, "catalog/set_list.html", {"sets": CardSet.objects.all()})


def set_detail(request: HtmxHttpRequest, code: str) -> HttpResponse:
    if code.upper() != code and CardSet.objects.filter(code=code.upper()).exists():
        return redirect("catalog:set-detail", code.upper(), permanent=True)
    card_set = get_object_or_404(CardSet, code=code)
    cards = list(card_set.cards.all())
    groups = [(kind, [c for c in cards if c.kind == kind]) for kind in Kind.values]
    tiers = Counter(c.tier for c in cards)
    tier_counts = [(tier, tiers[tier]) for tier in Tier.values if tiers[tier]]
    context = {
        "set": card_set,
        "groups": [(kind, group) for kind, group in groups if group],
        "tier_counts": tier_counts,
        "unknown_rarity": tiers[None],
        "total": len(cards),
    }
    return render(request, "catalog/set_detail.html", context)


def _script(text: str) -> str:
    return textkeys.to_simplified(text) if wants_simplified() else text


def syntax(request: HtmxHttpRequest) -> HttpResponse:
    """Help for the query language: every keyword, its aliases, its values, with examples."""
    keywords = [
        {"keyword": kw, "values": sorted(set(kw.values.values())) if kw.values else []} for kw in query.KEYWORDS
    ]
    examples = [
        ("liubei", _("full pinyin")),
        ("lb", _("initials")),
        ("刘备", _("Simplified")),
        ("yxjq3", _("a card code")),
        # in the reader's own words: 騎兵 on a Traditional page, 骑兵 on a Simplified one
        (("class:cavalry" if wants_english() else f"class:{_script('騎兵')}") + " cost<=3", _("keywords together")),
        ("faction:wei or faction:wu", _("either")),
        ("set:yxjq -kind:general", _("minus")),
        ("(s:yxjq or s:lshj) c:cavalry", _("groups")),
        ('t:"造成2點傷害"', _("a phrase of skills text")),
        ("stars>=4 tier:silver", _("rarity")),
        ("is:incomplete set:wd", _("cards still lacking a fact")),
        ("missing:cost", _("cards whose cost is not yet recorded")),
    ]
    return render(request, "catalog/syntax.html", {"keywords": keywords, "examples": examples})


def card_face(request: HtmxHttpRequest, code: str) -> HttpResponse:
    """The face alone, as an SVG file (for sharing or embedding), cached by browsers."""
    card = Card.objects.by_code(code)
    if card is None:
        return HttpResponse(status=404)
    # Pages link the face with their language in the address (?lang=): the answer is then the
    # same for everyone who asks for that address, as a shared cache assumes.
    asked = request.GET.get("lang", "")
    language = asked if asked in dict(settings.LANGUAGES) else translation.get_language()
    with translation.override(language):
        response = render(
            request,
            "catalog/face.svg",
            {"card": card, "face": colours(card.kind, card.tier), "standalone": True},
            content_type="image/svg+xml",
        )
    response["Cache-Control"] = "public, max-age=86400"
    # A picture with no script: its own rules (for the skill text's size) are its only style.
    response["Content-Security-Policy"] = "default-src 'none'; style-src 'unsafe-inline'; img-src 'self' data:"
    return response


# A preview picture changes with the catalogue; kept this long per card, version and language.
PREVIEW_SECONDS = 24 * 3600
RULINGS_PER_PAGE = 50


def card_image(request: HtmxHttpRequest, code: str) -> HttpResponse:
    """The card as a PNG link preview (catalog.preview), drawn once per catalogue version and
    language and then served from the cache."""
    card = Card.objects.by_code(code)
    if card is None:
        return HttpResponse(status=404)
    # As the face: the language is in the address (?lang=), so a shared cache keeps one per language.
    asked = request.GET.get("lang", "")
    language = asked if asked in dict(settings.LANGUAGES) else translation.get_language()
    key = f"card-preview:{card.pk}:{cache_version.current()}:{language}"
    png = cache.get(key)
    if png is None:
        with translation.override(language):
            png = card_png(Card.objects.select_related("set").get(pk=card.pk))
        cache.set(key, png, PREVIEW_SECONDS)
    response = HttpResponse(png, content_type="image/png")
    response["Cache-Control"] = "public, max-age=86400"
    return response


class RulesSearchForm(forms.Form):
    q = forms.CharField(required=False, max_length=rules.MAX_QUERY)


def rules_page(request: HtmxHttpRequest) -> HttpResponse:
    """The printed rules in the reader's script: contents, sections with stable anchors, the
    game's terms, a search within them, and the older text, superseded."""
    form = RulesSearchForm(request.GET)
    valid = form.is_valid()
    wanted = form.cleaned_data.get("q", "") if valid else ""
    script = rules.reader_script()
    lang = "zh-Hans" if script == "zh_hans" else "zh-Hant"  # the printed words' own language
    sections = rules.shown(script, wanted)
    found = [s for s in _flat(sections) if s.matched] if wanted else None
    cited = rulings.citing_counts()
    return render(
        request,
        "catalog/rules.html",
        {
            "form": form,
            "sections": sections,
            "found": found,
            "wanted": wanted,
            "english": script == "en",
            "older": rules.book().older,
            "terms": [
                {
                    "term": t,
                    "word": t.word_in(script),
                    "definition": t.definition(script),
                    "lang": lang,
                    "rulings": cited.get(t.slug, 0),
                }
                for t in terms.TERMS.values()
            ],
        },
        status=200 if valid else 400,
    )


def rulings_page(request: HtmxHttpRequest) -> HttpResponse:
    """Every ruling in the record, newest first, superseded ones too; `?term=` those naming a
    term (the rules page links each term here)."""
    shown = Ruling.objects.shown()
    term = terms.TERMS.get(request.GET.get("term", ""))
    if term is not None:
        shown = shown.citing(term.slug)
    page = Paginator(shown.for_lists(), RULINGS_PER_PAGE).get_page(request.GET.get("page"))
    script = rules.reader_script()
    context = {"page": page, "term": term, "word": term.word_in(script) if term else "", "terms": terms.TERMS}
    return render(request, "catalog/rulings.html", context)


def ruling_page(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    """One ruling, also one withdrawn (the history links here): its cards, source and date."""
    ruling = get_object_or_404(Ruling.objects.for_lists(), pk=pk)
    return render(request, "catalog/ruling.html", {"ruling": ruling})


def _flat(sections: list[rules.Shown]) -> list[rules.Shown]:
    return [x for s in sections for x in (s, *_flat(s.children))]
