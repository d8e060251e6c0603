"""The drawing package's adapter: a saved deck and a choice of cards (a card's name, or a query
over the deck) become the numbers `drawing` works on, and its answers become a table and a chart."""

from __future__ import annotations

from dataclasses import dataclass

from django.template.loader import render_to_string
from django.utils.safestring import SafeString
from django.utils.translation import gettext as _

from catalog import query as card_query
from catalog.lookup import catalog_index
from catalog.models import Card
from decks import services
from decks.models import Deck
from drawing import TURNS, OddsTable, odds_table

MAX_K = 60


class OddsError(ValueError):
    pass


@dataclass
class Choice:
    deck_size: int
    matching: int
    label: str  # what was chosen, as the reader should see it
    cards: list[str]  # codes of the deck's cards that match


def choose(deck: Deck, *, card: str = "", q: str = "") -> Choice:
    """The main deck's size and how many of its cards match: every card of the named card's name
    (the rules count copies by name), or every card the query matches (a card of unknown cost
    never matches `cost<=N`)."""
    data = services.snapshot_of(deck)
    size = sum(data.main.values())
    index = catalog_index()
    if card and q:
        raise OddsError(_("Choose a card or a query, not both."))
    if card:
        facts = index.lookup(card)
        if facts is None:
            raise OddsError(_("No card “%(code)s”.") % {"code": card[:40]})
        codes = [c for c in data.main if index.by_code[c].name_key == facts.name_key]
        label = facts.name
    elif q:
        try:
            node = card_query.parse(q)
        except card_query.QueryError as exc:
            raise OddsError(str(exc)) from None
        pks = [index.pk_by_code[c] for c in data.main]
        found = card_query.apply(Card.objects.filter(pk__in=pks), node).values_list("code", flat=True)
        codes = sorted(set(found), key=list(data.main).index)
        label = q
    else:
        raise OddsError(_("Choose a card or write a query."))
    return Choice(size, sum(data.main[c] for c in codes), label, codes)


def table_for(choice: Choice, k: int) -> OddsTable:
    if not 1 <= k <= MAX_K:
        raise OddsError(_("k must be from 1 to %(max)d.") % {"max": MAX_K})
    return odds_table(choice.deck_size, choice.matching, k)


def rows(table: OddsTable) -> list[tuple[str, list[int]]]:
    """The table's rows as whole percentages, for the page."""
    named = [
        (_("First player"), table.first),
        (_("Second player"), table.second),
        (_("First player, with a mulligan"), table.first_mulligan),
        (_("Second player, with a mulligan"), table.second_mulligan),
    ]
    return [(label, [round(float(p) * 100) for p in values]) for label, values in named]


def chart_svg(table: OddsTable, width: int = 320, height: int = 160) -> SafeString:
    """The four rows as lines over hand, turn 1 … turn 6: geometry here, drawing in the template."""
    left, top, bottom = 30, 10, height - 22
    step = (width - left - 10) / TURNS
    lines = []
    for css, values in (
        ("first", table.first),
        ("second", table.second),
        ("first-mulligan", table.first_mulligan),
        ("second-mulligan", table.second_mulligan),
    ):
        points = " ".join(
            f"{left + i * step:.1f},{bottom - float(p) * (bottom - top):.1f}" for i, p in enumerate(values)
        )
        lines.append({"css": css, "points": points})
    ticks = [{"x": round(left + i * step, 1), "label": str(i) if i else _("hand")} for i in range(TURNS + 1)]
    grid = [{"y": round(bottom - f * (bottom - top), 1), "label": f"{round(f * 100)}%"} for f in (0, 0.5, 1)]
    context = {"lines": lines, "ticks": ticks, "grid": grid, "width": width, "height": height, "left": left}
    return render_to_string("decks/_odds_chart.svg", context | {"label_y": height - 6, "right": width - 10})
