"""Rows the deck pages repeat, drawn in Python: the builder's thirty search results and a deck's
forty to sixty lines (each with a form), the public deck list's rows and the owned badge. As
templates they were half of the builder's time (about 8 µs a variable, and a row has twenty);
here the words are translated and escaped once per language, and a row is one string. The markup
is the templates' own, unchanged."""

from __future__ import annotations

from html import escape
from typing import Any

from django import template
from django.utils.html import conditional_escape
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext, pgettext

from catalog.templatetags.cards import card_name, code, face_image, label, user_text
from webutil.rows import csrf_value, words_per_language

register = template.Library()

# A form that changes the deck and redraws its panel: a search result's and a deck line's.
_PANEL_FORM = (
    '<form method="post" action="{change}" hx-post="{change}" hx-target="#deck-panel" hx-swap="outerHTML" '
    'class="inline"><input type="hidden" name="csrfmiddlewaretoken" value="{csrf}">\n'
)

_RESULT = (
    '<li><a href="{url}" class="face-thumb" tabindex="-1" aria-hidden="true">{face}</a><div class="result-body">'
    + _PANEL_FORM
    + '    <input type="hidden" name="card" value="{code}">\n    {button}\n  </form>\n'
    '  <a href="{url}">{name}</a> <span class="code">{code_html}</span> <small>{facts}</small></div></li>'
)


_words = words_per_language(
    lambda: {
        "general": gettext("General"),
        "choose_general": gettext("Choose as general"),
        "add": gettext("Add to the deck"),
        "owned": gettext("owned"),
        "less": gettext("One copy less"),
        "more": gettext("One copy more"),
        "line_cost": pgettext("a deck line's figure", "cost"),
        "line_owned": pgettext("a deck line's figure", "owned"),
        "owned_needed": gettext("owned / needed"),
        "unknown": gettext("unknown"),
        "over": gettext("over-committed"),
        "owned_title": gettext("Copies you have of the copies it takes (general and reinforcements included)"),
    }
)


@register.simple_tag(takes_context=True)
def search_result(context: Any, card: Any, change: str) -> SafeString:
    """One search result: the card's face, its name and facts, and the button that adds it (or
    chooses it as the general). `change`: the deck's change address."""
    words = _words()
    if card.can_lead:
        button = f'<button name="action" value="general" class="add" aria-label="{words["choose_general"]}">'
        button += f"{words['general']}</button>"
    else:
        button = f'<button name="action" value="inc" class="add" aria-label="{words["add"]}">+</button>'
    facts = str(conditional_escape(label(card.kind)))
    if card.cost is not None:
        facts += f" · {int(card.cost)}"
    owned = int(getattr(card, "owned", 0) or 0) + int(getattr(card, "owned_foil", 0) or 0)
    if getattr(card, "owned", 0):
        facts += f" · {words['owned']} {owned}"
    html = _RESULT.format(
        url=escape(card.get_absolute_url()),
        face=face_image(context, card),
        change=escape(change),
        csrf=csrf_value(context),
        code=escape(card.code),
        button=button,
        name=conditional_escape(card_name(card.name)),
        code_html=conditional_escape(code(card.code)),
        facts=facts,
    )
    return mark_safe(html)  # noqa: S308 (every value above is escaped, a number or fixed markup)


_STEPS = _PANEL_FORM + (
    '      <input type="hidden" name="card" value="{code}"><input type="hidden" name="section" value="{section}">\n'
    '      <button name="action" value="dec" class="step" aria-label="{less}">−</button>'
    '<span class="n"{data_count}>{count}</span>'
    '<button name="action" value="inc" class="step" aria-label="{more}">+</button>\n    </form>'
)


@register.simple_tag
def held(line: Any) -> SafeString:
    """Where the reader's other copies are (decks built from them), and whether too many are."""
    html = ""
    if getattr(line, "held", None):
        parts = [gettext("%(n)s in %(name)s") % {"n": n, "name": name} for name, n in line.held]
        html = f'<small class="held">({escape(", ".join(parts))})</small>'
    if getattr(line, "over_committed", False):
        html += f' <strong class="over-committed">{_words()["over"]}</strong>'
    return mark_safe(html)  # noqa: S308 (escaped text and fixed markup)


@register.simple_tag(takes_context=True)
def deck_line(
    context: Any, line: Any, section: str, editable: bool, bad_cards: Any, with_collection: bool, change: str
) -> SafeString:
    """One line of a deck: its count (with − and + when `editable`), the card, its cost and what
    the reader owns of it (`with_collection`). `section`: main or reinforcements, which show the
    card alone."""
    words = _words()
    card, count = line.card, int(line.entry.count)
    main = section == "main"
    if editable:
        steps = _STEPS.format(
            change=escape(change),
            csrf=csrf_value(context),
            code=escape(card.code),
            section=section,
            less=words["less"],
            more=words["more"],
            data_count=f' data-count="{count}"' if main else "",
            count=count,
        )
    else:
        steps = f'<span class="n">{count}</span> ×' if main else f"{count} ×"
    name = conditional_escape(card_name(card.name))
    code_html = conditional_escape(code(card.code))
    bad = "bad" if bad_cards and card.code in bad_cards else ""
    html = f'<li class="{bad}" data-code="{escape(card.code)}">\n'
    if not main:
        html += f'  {steps}\n  {name} <span class="code">{code_html}</span></li>'
        return mark_safe(html)  # noqa: S308 (escaped values and fixed markup)
    html += f"    {steps}\n"
    html += f'    <a href="{escape(card.get_absolute_url())}">{name}</a> <span class="code">{code_html}</span>\n'
    if card.is_deck_card:
        cost = str(int(card.cost)) if card.cost is not None else f'<abbr title="{words["unknown"]}">?</abbr>'
        html += f'    <span class="cost"><span class="fig-label">{words["line_cost"]}</span> {cost}</span>\n'
    if with_collection:
        short = " short" if line.missing else ""
        html += (
            f'    <span class="owned{short}" title="{words["owned_needed"]}">'
            f'<span class="fig-label">{words["line_owned"]}</span> {int(line.owned)}/{count}</span>{held(line)}\n'
        )
    return mark_safe(html + "  </li>")  # noqa: S308 (escaped values, numbers and fixed markup)


@register.simple_tag
def owned_badge(deck: Any) -> SafeString:
    """What the reader has of a deck: copies they have / copies it takes; nothing for anonymous
    readers (`missing` is None)."""
    if getattr(deck, "missing", None) is None:
        return mark_safe("")
    complete = "" if deck.missing else " complete"
    title = _words()["owned_title"]
    html = f'<span class="own-share{complete}" title="{title}">{int(deck.owned)}/{int(deck.needs_total)}</span>'
    return mark_safe(html)  # noqa: S308 (numbers and escaped fixed text)


@register.simple_tag
def public_deck_row(deck: Any, signed_in: bool) -> SafeString:
    """A row of the public deck list: name, owner, general, format, cards, legal, and what the
    reader has of it (`signed_in`)."""
    general = conditional_escape(card_name(deck.general.name)) if deck.general_id else "—"
    html = (
        f'<tr><td><a href="{escape(deck.get_absolute_url())}">{conditional_escape(user_text(deck.name))}</a></td>'
        f"<td>{escape(deck.owner.username)}</td>\n  <td>{general}</td><td>{escape(str(deck.format_label))}</td>"
        f'<td class="num">{int(deck.main_count)}</td><td>{"✔" if deck.is_legal else "✘"}</td>'
    )
    if signed_in:
        html += f'<td class="num">{owned_badge(deck)}</td>'
    return mark_safe(html + "</tr>")  # noqa: S308 (every value above is escaped or a number)
