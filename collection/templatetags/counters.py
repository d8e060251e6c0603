"""A card's counter (my copies: − count + for copies and for foils, and the counts typed in),
drawn in Python. A list shows sixty of them: as a template include each cost about half a
millisecond, half of the time of my collection's page and of the signed-in catalogue. Here the
words are translated and escaped once per language, and a row is one str.format."""

from __future__ import annotations

from html import escape
from typing import Any

from django import template
from django.utils.html import conditional_escape
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext, ngettext, pgettext

from catalog.templatetags.cards import card_name, code, label, rarity
from webutil.rows import csrf_value, words_per_language
from webutil.urls import reverse_memo

register = template.Library()

_FORM = (
    '<div class="counter{compact}" id="counter-{pk}">'
    '<form method="post" action="{change}" hx-post="{change}" hx-target="#counter-{pk}" hx-swap="outerHTML">'
    '<input type="hidden" name="csrfmiddlewaretoken" value="{csrf}">'
    '<input type="hidden" name="next" value="{next}">{compact_field}\n'
    '<span class="stepper"><span class="count-label">{w[copies]}</span>'
    '<button name="action" value="dec" class="step" aria-label="{w[less]}"{no_less}>−</button>'
    '<span class="count"><span class="n" data-owned="{owned}">{owned}</span></span>'
    '<button name="action" value="inc" class="step" aria-label="{w[more]}">+</button></span>\n'
    '<span class="stepper foil"><span class="count-label">✦ {w[foil]}</span>'
    '<button name="action" value="dec_foil" class="step" aria-label="{w[foil_less]}"{no_foil_less}>−</button>'
    '<span class="count foil"><span class="n" data-foil="{foils}">{foils}</span></span>'
    '<button name="action" value="inc_foil" class="step" aria-label="{w[foil_more]}">+</button></span>\n'
    "{open_typed}"
    '<span class="set-counts"><label>{w[copies]} <input type="number" name="quantity" min="0" max="9999" '
    'value="{owned}" inputmode="numeric"></label>\n'
    '<label>{w[foil_copies]} <input type="number" name="foil_quantity" min="0" max="9999" value="{foils}" '
    'inputmode="numeric"></label>\n<button name="action" value="set">{w[set]}</button></span>'
    "{close_typed}\n</form>\n"
)


_words = words_per_language(
    lambda: {
        "copies": gettext("Copies"),
        "less": gettext("One copy less"),
        "more": gettext("One copy more"),
        "foil": gettext("Foil"),
        "foil_less": gettext("One foil less"),
        "foil_more": gettext("One foil more"),
        "foil_copies": gettext("Foil copies"),
        "set": pgettext("button: set the counts", "Set"),
        "set_counts": gettext("Set the counts"),
        "over": gettext("over-committed"),
    }
)


@register.simple_tag(takes_context=True)
def counter(context: Any, card: Any, compact: bool = False, error: str | None = None) -> SafeString:
    """One form a card: the steppers, and the typed counts (behind ✎ when compact). A stepper
    ignores the typed fields; Set reads them (collection.forms.ChangeForm)."""
    user = context.get("user")
    if user is None or not user.is_authenticated:
        empty = f'<div class="counter{" compact" if compact else ""}" id="counter-{int(card.pk)}">\n</div>'
        return mark_safe(empty)  # noqa: S308 (a number and fixed text)
    words = _words()
    owned = int(getattr(card, "owned", 0) or 0)
    foils = int(getattr(card, "owned_foil", 0) or 0)
    request = context.get("request")
    html = _FORM.format(
        w=words,
        compact=" compact" if compact else "",
        pk=int(card.pk),
        change=escape(reverse_memo("collection:change", card.code)),
        csrf=csrf_value(context),
        next=escape(request.get_full_path() if request is not None else ""),
        compact_field='<input type="hidden" name="compact" value="1">' if compact else "",
        owned=owned,
        foils=foils,
        no_less="" if owned else " disabled",
        no_foil_less="" if foils else " disabled",
        open_typed=f'<details class="set-compact"><summary aria-label="{words["set_counts"]}">✎</summary>'
        if compact
        else "",
        close_typed="</details>" if compact else "",
    )
    in_built = int(getattr(card, "in_built", 0) or 0)
    if in_built:
        held = ngettext("%(counter)s copy in built decks", "%(counter)s copies in built decks", in_built) % {
            "counter": in_built
        }
        over = f' <strong class="over-committed">{words["over"]}</strong>' if in_built > owned + foils else ""
        html += f'<p class="in-built" data-in-built="{in_built}">{escape(held)}{over}</p>\n'
    if error:
        html += f'<p class="error" role="alert">{escape(str(error))}</p>\n'
    return mark_safe(html + "</div>")  # noqa: S308 (every value above is escaped or a number)


@register.simple_tag(takes_context=True)
def own_row(context: Any, card: Any) -> SafeString:
    """A row of my collection: the card (name, code, kind, rarity), then its compact counter.
    Sixty a page, drawn here for the same reason as the counter."""
    html = (
        f'<li id="card-{int(card.pk)}"><span class="own-card"><a href="{escape(card.get_absolute_url())}">'
        f"{conditional_escape(card_name(card.name))}</a> "
        f'<span class="code">{conditional_escape(code(card.code))}</span> '
        f'<span class="own-meta">{conditional_escape(label(card.kind))} {escape(rarity(card))}</span></span>\n  '
        f"{counter(context, card, compact=True)}</li>"
    )
    return mark_safe(html)  # noqa: S308 (every value above is escaped or a number)
