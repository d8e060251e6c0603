"""Staff's queue of what readers reported and what waits for approval, and their decisions:
hide, restore (or approve), ban the author. Others see no such page (404)."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db.models import Count, Max
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from moderation import registry, rules
from moderation.models import Ban, Report
from webutil.requests import AuthedRequest

# The queue shows this many reported items at once, most reported first; decided ones leave it.
QUEUE_SIZE = 100


def _staff(request: AuthedRequest) -> None:
    if not request.user.is_staff:
        raise Http404


def _refused(request: AuthedRequest, message: str) -> HttpResponse:
    context = {"message": message, "back": reverse("moderation:queue"), "back_label": _("Back")}
    return render(request, "error.html", context, status=400)


@login_required
def queue(request: AuthedRequest) -> HttpResponse:
    _staff(request)
    open_reports = (
        Report.objects.filter(outcome=Report.Outcome.OPEN)
        .values("kind", "item")
        .annotate(reports=Count("id"), last=Max("at"))
        .order_by("-reports", "-last")[:QUEUE_SIZE]
    )
    reasons: dict[tuple[str, int], list[str]] = {}
    wanted: dict[str, set[int]] = {}
    rows = list(open_reports)
    for row in rows:
        wanted.setdefault(row["kind"], set()).add(row["item"])
    for kind, item, reason in Report.objects.filter(
        outcome=Report.Outcome.OPEN, item__in={row["item"] for row in rows}
    ).values_list("kind", "item", "reason"):
        if reason:
            reasons.setdefault((kind, item), []).append(reason)
    pending: list[tuple[registry.Kind, registry.Item]] = []
    found: dict[tuple[str, int], registry.Item] = {}
    for kind in registry.kinds():
        waiting = kind.pending()
        items = kind.items(wanted.get(kind.slug, set()) | set(waiting))
        found.update({(kind.slug, i): item for i, item in items.items()})
        pending += [(kind, items[i]) for i in waiting if i in items]
    reported: list[dict[str, Any]] = []
    for row in rows:
        item = found.get((row["kind"], row["item"]))
        kind = registry.kind(row["kind"])
        if item is not None and kind is not None:
            reported.append(
                {
                    "kind": kind,
                    "item": item,
                    "reports": row["reports"],
                    "reasons": reasons.get((row["kind"], row["item"]), []),
                }
            )
    authors = {entry["item"].author_id for entry in reported} | {item.author_id for _kind, item in pending}
    banned = set(Ban.objects.filter(user_id__in=authors - {None}).values_list("user_id", flat=True))
    context = {"reported": reported, "pending": pending, "banned": banned}
    return render(request, "moderation/queue.html", context)


@login_required
@require_POST
def decide(request: AuthedRequest, kind: str, item: int) -> HttpResponse:
    _staff(request)
    found = registry.any_item(kind, item)
    if found is None:
        raise Http404
    action = request.POST.get("action")
    if action == "hide":
        rules.hide(kind, item, request.user)
        messages.success(request, _("Hidden."))
    elif action == "restore":
        rules.restore(kind, item, request.user)
        messages.success(request, _("Shown again."))
    elif action == "ban" and found.author_id is not None:
        if found.author_id == request.user.pk:
            return render(
                request, "error.html", {"message": _("You cannot ban yourself."), "back": "/moderation/"}, status=400
            )
        rules.ban(found.author_id, request.user, request.POST.get("reason", "")[:200])
        messages.success(request, _("The author is banned and their writing hidden."))
    else:
        return render(
            request, "error.html", {"message": _("Choose hide, restore or ban."), "back": "/moderation/"}, status=400
        )
    return redirect("moderation:queue")
