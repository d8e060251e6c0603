"""The catalogue's public record: every change to a card (contributions, the admin, loads of
the data file, reverts), per card and across the catalogue, as pages and Atom feeds; the cards
still incomplete; and a curator's revert."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.decorators import login_required
from django.contrib.syndication.views import Feed
from django.core.exceptions import PermissionDenied
from django.core.paginator import Paginator
from django.db.models import Count, Q
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.feedgenerator import Atom1Feed
from django.utils.html import escape
from django.utils.translation import gettext as _
from django.utils.translation import pgettext
from django.views.decorators.http import require_POST

from catalog import facts, rulings
from catalog.changes import revert as revert_change
from catalog.models import Card, CardChange, CardSet
from rules_check.codes import normalize_code
from webutil.confirm import unless_confirmed
from webutil.i18n import colon

PER_PAGE = 50


def _card(code: str) -> Card:
    canonical = normalize_code(code)
    card = Card.objects.with_set().filter(code=canonical).first() if canonical else None
    if card is None:
        raise Http404(_("No card with this code."))
    return card


def changes_for(request: HttpRequest, card: Card | None = None) -> tuple[Any, dict[str, str]]:
    """Changes newest first, narrowed by the card or by ?set= and ?field=; bad filters are ignored."""
    rows = CardChange.objects.for_history()
    chosen: dict[str, str] = {}
    if card is not None:
        rows = rows.filter(card=card)
    set_code = request.GET.get("set", "")
    if set_code and CardSet.objects.filter(code=set_code).exists():
        rows = rows.filter(card__set__code=set_code)
        chosen["set"] = set_code
    field = request.GET.get("field", "")
    if field in facts.FACTS:
        rows = rows.filter(changes__has_key=field)
        chosen["field"] = field
    return rows, chosen


def card_history(request: HttpRequest, code: str) -> HttpResponse:
    card = _card(code)
    rows, chosen = changes_for(request, card)
    page = Paginator(rows, PER_PAGE).get_page(request.GET.get("page"))
    context = {"card": card, "page": page, "chosen": chosen, "curator": facts.is_curator(request.user)}
    return render(request, "catalog/history.html", context)


def changes(request: HttpRequest) -> HttpResponse:
    rows, chosen = changes_for(request)
    page = Paginator(rows, PER_PAGE).get_page(request.GET.get("page"))
    context = {
        "page": page,
        "chosen": chosen,
        "sets": CardSet.objects.all(),
        "fields": list(facts.FACTS.values()),
        "curator": facts.is_curator(request.user),
    }
    return render(request, "catalog/history.html", context)


class ChangesFeed(Feed):
    """Atom: the newest changes across the catalogue (?set=, ?field=) or of one card."""

    feed_type = Atom1Feed

    def get_object(self, request: HttpRequest, code: str | None = None) -> dict[str, Any]:
        card = _card(code) if code else None
        rows, _chosen = changes_for(request, card)
        return {"card": card, "rows": rows[:PER_PAGE]}

    def title(self, obj: dict[str, Any]) -> str:
        card = obj["card"]
        return _("Changes to %(card)s") % {"card": f"{card.code} {card.name}"} if card else _("Catalogue changes")

    def link(self, obj: dict[str, Any]) -> str:
        card = obj["card"]
        return reverse("catalog:card-history", args=[card.code]) if card else reverse("catalog:changes")

    def subtitle(self, obj: dict[str, Any]) -> str:
        return _("Every change to the card facts of Zongheng Deckbox, newest first.")

    def items(self, obj: dict[str, Any]) -> Any:
        return obj["rows"]

    def item_title(self, item: CardChange) -> str:
        if item.ruling_id:
            named = _("Ruling #%(id)d") % {"id": item.ruling_id}
            return f"{item.card.code} {item.card.name}{colon()}{named}"
        names = pgettext("between the items of a list", ", ").join(
            str(facts.FACTS[n].label) if n in facts.FACTS else n for n in item.changes
        )
        return f"{item.card.code} {item.card.name}{colon()}{names}"

    def item_description(self, item: CardChange) -> str:
        """The change as HTML (Atom's summary type="html"): every value and note is user text,
        escaped here so that a feed reader shows `<script>` as text, never runs it."""
        if item.ruling is not None:
            _before, after = item.changes["ruling"]
            state = _("withdrawn") if after == rulings.WITHDRAWN else _("in force")
            shown = [f"{state}{colon()}{item.ruling.question}", item.ruling.answer, item.ruling.source]
            return "<br>".join(escape(line) for line in shown)
        after_label = colon()
        lines = [
            f"{name}{after_label}{before if before is not None else '—'} → {after if after is not None else '—'}"
            for name, before, after in item.rows()
        ]
        if item.note:
            lines.append(item.note)
        return "<br>".join(escape(line) for line in lines)

    def item_link(self, item: CardChange) -> str:
        return item.get_absolute_url()

    def item_pubdate(self, item: CardChange) -> Any:
        return item.created_at

    def item_author_name(self, item: CardChange) -> str | None:
        return item.proposer.username if item.proposer else None

    def item_guid(self, item: CardChange) -> str:
        return f"zongheng-change-{item.pk}"


def incomplete(request: HttpRequest) -> HttpResponse:
    """Per set and per fact, how many cards lack it; then the cards to complete."""
    expected = [fact for fact in facts.FACTS.values() if fact.expected]
    counts = {
        row["set__code"]: row
        for row in Card.objects.values("set__code").annotate(
            total=Count("pk"),
            **{f"applies_{f.name}": Count("pk", filter=Q(kind__in=sorted(f.expected))) for f in expected},
            **{f"missing_{f.name}": Count("pk", filter=f.missing()) for f in expected},
        )
    }
    sets = list(CardSet.objects.all())
    table = []
    for card_set in [*sets, None]:
        row = counts.get(card_set.code if card_set else None)
        if row is None:
            continue
        cells = []
        for fact in expected:
            applies, missing = row[f"applies_{fact.name}"], row[f"missing_{fact.name}"]
            cells.append(
                {
                    "fact": fact,
                    "applies": applies,
                    "missing": missing,
                    "known": applies - missing,
                    "known_pct": round(100 * (applies - missing) / applies) if applies else None,
                }
            )
        table.append({"set": card_set, "total": row["total"], "cells": cells})
    cards = Card.objects.with_set().filter(facts.incomplete())
    page = Paginator(cards, PER_PAGE).get_page(request.GET.get("page"))
    rows = [(card, facts.missing_facts(card)) for card in page.object_list]
    return render(
        request,
        "catalog/incomplete.html",
        {"table": table, "facts": expected, "page": page, "rows": rows, "incomplete_total": page.paginator.count},
    )


@login_required
@require_POST
def revert(request: HttpRequest, pk: int) -> HttpResponse:
    if not facts.is_curator(request.user):
        raise PermissionDenied(_("Only curators revert changes."))
    change = get_object_or_404(CardChange.objects.select_related("card"), pk=pk)
    asked = unless_confirmed(
        request,
        title=_("Revert change #%(id)d?") % {"id": change.pk},
        message=_(
            "What it changed goes back as it was before (a ruling it made is withdrawn); the revert is itself a change "
            "in the history."
        ),
        button=_("Revert"),
        back=change.get_absolute_url(),
    )
    if asked is not None:
        return asked
    if change.ruling_id:
        rulings.revert(change, request.user)
    else:
        revert_change(change, request.user)
    return redirect("catalog:card-history", change.card.code)
