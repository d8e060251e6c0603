"""Pages for proposing card facts and reviewing them. Thin: the rules are in services."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.http import FileResponse, Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from catalog import facts
from catalog import scans as readings
from catalog.images import IMAGE
from catalog.models import Card, Scan
from catalog.scan_pages import progress_answer
from contributions import services
from contributions.context import CONTRIBUTOR
from contributions.forms import ProposalForm, RulingForm
from contributions.models import MAX_OPEN, Proposal, ProposalPhoto
from rules_check.codes import normalize_code
from scanning.facts import PREFILL
from webutil.bounds import accepts
from webutil.confirm import unless_confirmed
from webutil.numbers import whole_number
from webutil.requests import HtmxHttpRequest


def _card(code: str) -> Card:
    card = Card.objects.by_code(code) if normalize_code(code) else None
    if card is None:
        raise Http404(_("No card with this code."))
    return card


def _visible(request: HtmxHttpRequest, pk: int) -> Proposal:
    """The author's own proposal, or any for a curator; others get a 404 (it is not theirs)."""
    proposal = (
        Proposal.objects.select_related("card", "card__set", "author", "reviewer", "change").filter(pk=pk).first()
    )
    if proposal is None or not (proposal.author_id == request.user.pk or facts.is_curator(request.user)):
        raise Http404(_("No such proposal."))
    return proposal


def _save_form(
    request: HtmxHttpRequest, form: ProposalForm, proposal: Proposal | None, reading: Scan | None = None
) -> Proposal | None:
    """Proposal and photos in one transaction: a refused photo leaves nothing behind."""
    try:
        if proposal is None:
            return services.propose_with_photos(
                request.user, form.card, form.proposed(), form.cleaned_data["note"], form.uploads(), reading
            )
        with transaction.atomic():
            uploads = form.uploads()
            saved = services.edit(
                proposal.pk, request.user, form.proposed(), form.cleaned_data["note"], photos=bool(uploads)
            )
            for side, upload in uploads.items():
                services.add_photo(saved.pk, request.user, side, upload)
            return saved
    except services.ContributionError as exc:
        form.add_error(exc.fact if exc.fact in form.fields else None, exc.message)
        return None


def _my_reading(request: HtmxHttpRequest, card: Card, scan_id: str | None) -> Scan | None:
    """The photo of this card the contributor sent to be read (`?scan=`), or None."""
    if not scan_id:
        return None
    number = whole_number(scan_id)
    if number is None:
        raise Http404(_("No such scan."))
    try:
        return services.reading_of(request.user, card, number)
    except services.ContributionError as exc:
        raise Http404(exc.message) from None


def _read_values(scan: Scan | None, form_fields: Any) -> tuple[dict[str, str], dict[str, str]]:
    """What the photo gave: the values sure enough to fill the form, and the others, shown as
    hints beside their empty fields."""
    if scan is None or scan.status != Scan.Status.DONE:
        return {}, {}
    read = scan.result.get("facts", {})
    sure = {k: v["value"] for k, v in read.items() if k in form_fields and v["confidence"] >= PREFILL}
    unsure = {k: v["value"] for k, v in read.items() if k in form_fields and k not in sure}
    return sure, unsure


@accepts((IMAGE, 2))
@login_required
def propose(request: HtmxHttpRequest, code: str) -> HttpResponse:
    card = _card(code)
    reading = _my_reading(request, card, request.POST.get("scan") or request.GET.get("scan"))
    polled = progress_answer(request, reading) if reading is not None else None
    if polled is not None:
        return polled
    posted = request.method == "POST"
    form = ProposalForm(card, request.POST if posted else None, request.FILES if posted else None)
    prefilled, hints = _read_values(reading, form.fields)
    if not posted:
        form.initial.update(prefilled)
    if posted and form.is_valid():
        proposal = _save_form(request, form, None, reading)
        if proposal is not None:
            request.session[CONTRIBUTOR] = True
            messages.success(request, _("Thank you: a curator will review your proposal."))
            return redirect(proposal)
    status = 400 if form.errors else 200
    context = {
        "card": card,
        "form": form,
        "max_open": MAX_OPEN,
        "reading": reading,
        "waiting": reading is not None and reading.is_waiting,
        "read_fields": set(prefilled),
        "read_hints": hints,
    }
    return render(request, "contributions/propose.html", context, status=status)


@accepts(IMAGE)
@login_required
@require_POST
def read_photo(request: HtmxHttpRequest, code: str) -> HttpResponse:
    """ "Read it from a photo": the photo of the card's face is read in the background; the form
    comes back filled with what was read surely enough, the photo attached as evidence."""
    card = _card(code)
    photo = request.FILES.get("photo")
    if photo is None:
        return render(request, "error.html", {"message": _("Choose a photo of the card's face.")}, status=400)
    try:
        scan = readings.start(request.user, photo, Scan.Purpose.PROPOSAL, card)
    except readings.ScanError as exc:
        return render(request, "error.html", {"message": exc.message}, status=exc.status)
    return redirect(f"{reverse('contributions:propose', args=[card.code])}?scan={scan.pk}")


@login_required
def propose_ruling(request: HtmxHttpRequest, code: str) -> HttpResponse:
    """A ruling on this card, for curators to approve."""
    return _ruling_form(request, _card(code), None)


def _ruling_form(request: HtmxHttpRequest, card: Card, proposal: Proposal | None) -> HttpResponse:
    initial = {k: v for k, v in proposal.ruling.items() if k != "cards"} if proposal else {}
    if proposal:
        initial["cards"] = " ".join(code for code in proposal.ruling["cards"] if code != card.code)
    form = RulingForm(card, request.POST or None, initial=initial)
    if request.method == "POST" and form.is_valid():
        try:
            if proposal is None:
                saved = services.propose_ruling(request.user, card, form.proposed())
            else:
                saved = services.edit_ruling(proposal.pk, request.user, form.proposed())
        except services.ContributionError as exc:
            if exc.status == 404:
                raise Http404(exc.message) from None
            form.add_error(exc.fact if exc.fact in form.fields else None, exc.message)
        else:
            request.session[CONTRIBUTOR] = True
            messages.success(request, _("Thank you: a curator will review your proposal."))
            return redirect(saved)
    status = 400 if form.errors else 200
    context = {"card": card, "form": form, "proposal": proposal, "max_open": MAX_OPEN}
    return render(request, "contributions/propose_ruling.html", context, status=status)


@accepts((IMAGE, 2))
@login_required
def edit(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    proposal = _visible(request, pk)
    if proposal.author_id != request.user.pk or not proposal.is_open:
        raise Http404(_("No such proposal."))
    if proposal.is_ruling:
        return _ruling_form(request, proposal.card, proposal)
    initial = {"note": proposal.note, **{k: v for k, v in proposal.facts.items()}}
    form = ProposalForm(proposal.card, request.POST or None, request.FILES or None, initial=initial)
    if request.method == "POST" and form.is_valid() and _save_form(request, form, proposal) is not None:
        messages.success(request, _("Proposal updated."))
        return redirect(proposal)
    status = 400 if form.errors else 200
    return render(
        request,
        "contributions/propose.html",
        {"card": proposal.card, "form": form, "proposal": proposal},
        status=status,
    )


@login_required
def mine(request: HtmxHttpRequest) -> HttpResponse:
    proposals = list(Proposal.objects.of(request.user).for_lists()[:200])
    if proposals:
        request.session[CONTRIBUTOR] = True
    services.mark_seen(request.user)
    return render(request, "contributions/mine.html", {"proposals": proposals, "max_open": MAX_OPEN})


@login_required
def detail(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    proposal = _visible(request, pk)
    if proposal.author_id == request.user.pk and not proposal.seen:
        services.mark_seen(request.user)
    return render(request, "contributions/detail.html", _detail_context(request, proposal))


def _detail_context(request: HtmxHttpRequest, proposal: Proposal, **extra: object) -> dict[str, object]:
    curator = facts.is_curator(request.user)
    return {
        "proposal": proposal,
        "photos": list(proposal.photos.all()) if proposal.is_open else [],
        "can_review": curator and proposal.is_open and proposal.author_id != request.user.pk,
        "is_author": proposal.author_id == request.user.pk,
        "is_curator": curator,
        **extra,
    }


@login_required
@require_POST
def withdraw(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    proposal = _visible(request, pk)
    if proposal.author_id != request.user.pk:
        raise Http404(_("No such proposal."))
    asked = unless_confirmed(
        request,
        title=_("Withdraw this proposal?"),
        message=_("Curators will no longer see it, and its photos are deleted."),
        button=_("Withdraw"),
        back=proposal.get_absolute_url(),
    )
    if asked is not None:
        return asked
    try:
        services.withdraw(pk, request.user)
    except services.ContributionError as exc:
        messages.error(request, exc.message)
    return redirect("contributions:mine")


@login_required
def photo(request: HtmxHttpRequest, pk: int, side: str) -> FileResponse:
    """A photo of an open proposal, for its author and curators only; never cached by others."""
    proposal = _visible(request, pk)
    found = get_object_or_404(ProposalPhoto, proposal=proposal, side=side)
    storage = found.image.storage
    if not proposal.is_open or not found.ready or not storage.exists(found.image.name):
        raise Http404(_("No such photo."))
    response = FileResponse(storage.open(found.image.name, "rb"), content_type="image/webp")
    response["Cache-Control"] = "private, no-store"
    return response


@login_required
def queue(request: HtmxHttpRequest) -> HttpResponse:
    if not facts.is_curator(request.user):
        raise PermissionDenied(_("Only curators review proposals."))
    proposals = list(Proposal.objects.open().for_lists().order_by("created_at")[:200])
    return render(request, "contributions/queue.html", {"proposals": proposals})


def _review_refused(request: HtmxHttpRequest, proposal: Proposal, exc: services.ContributionError) -> HttpResponse:
    """A review that changed nothing: the proposal's page again, saying why."""
    if exc.status == 403:
        raise PermissionDenied(exc.message)
    if exc.status == 404:
        raise Http404(exc.message)
    context = _detail_context(request, proposal, error=exc.message)
    return render(request, "contributions/detail.html", context, status=exc.status)


@login_required
@require_POST
def approve(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    proposal = _visible(request, pk)
    edited = {
        name: request.POST[f"fact-{name}"]
        for name in facts.PROPOSABLE
        if f"fact-{name}" in request.POST and request.POST[f"fact-{name}"].strip()
    }
    edited_or_none = edited if request.POST.get("edited") == "yes" else None
    try:
        services.approve(pk, request.user, edited_or_none, confirm=request.POST.get("confirm") == "yes")
    except services.StaleProposal as exc:
        context = _detail_context(request, proposal, stale=exc.rows, error=exc.message)
        return render(request, "contributions/detail.html", context, status=409)
    except services.ContributionError as exc:
        return _review_refused(request, proposal, exc)
    messages.success(request, _("Approved: the card shows it now."))
    return redirect("contributions:queue")


@login_required
@require_POST
def reject(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    proposal = _visible(request, pk)
    try:
        services.reject(pk, request.user, request.POST.get("reason", ""))
    except services.ContributionError as exc:
        return _review_refused(request, proposal, exc)
    messages.success(request, _("Rejected; the author sees your reason."))
    return redirect("contributions:queue")
