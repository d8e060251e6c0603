"""Organiser pages (an event, its lists and verdicts, lock, CSV, sheets) and the player's
submission page reached through the event's link. An organiser's event is a 404 to everyone else."""

from __future__ import annotations

from typing import Any, cast

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.views import redirect_to_login
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from decks import batch
from decks.batch import BATCH, DECK_LIST
from decks.forms import BatchCheckForm
from decks.i18n import label_formats, pick
from decks.sheets import sheet_for_list
from events import directory, presenters, services
from events.forms import EventForm, SubmissionForm
from events.models import Event, Registration, Submission, new_token
from events.views import directory as directory_views
from rules_check import DeckListError
from webutil.bounds import accepts
from webutil.confirm import unless_confirmed
from webutil.invitations import EVENT, invitation
from webutil.requests import AuthedRequest, HtmxHttpRequest


def _organised(request: HtmxHttpRequest, event_id: int) -> Event:
    return get_object_or_404(Event.objects.organised_by(request.user), pk=event_id)


@login_required
def my_events(request: AuthedRequest) -> HttpResponse:
    """The events I organise, and the events I sent a list to or registered for."""
    events = list(Event.objects.organised_by(request.user).with_counts())
    label_formats(events)  # the names of their house formats, in one query
    context = {
        "events": events,
        "now": timezone.now(),
        "entered": Submission.objects.filter(player=request.user).select_related("event").order_by("-submitted_at"),
        "registered": Registration.objects.filter(user=request.user)
        .exclude(event__submissions__player=request.user)
        .select_related("event")
        .order_by("-created")[:50],
    }
    return render(request, "events/my_events.html", context)


@login_required
def new_event(request: AuthedRequest) -> HttpResponse:
    """A new event: its name, format, deadline, and where, when and for whom it is."""
    form = EventForm(request.POST or None, user=request.user)
    if request.method == "POST" and form.is_valid():
        form.instance.organiser = request.user
        event = form.save()
        messages.success(request, _("Event created. Share its link with the players."))
        return redirect(event)
    return render(request, "events/new.html", {"form": form}, status=400 if form.errors else 200)


def detail(request: HtmxHttpRequest, event_id: int) -> HttpResponse:
    """The organiser's page of their event; a listed event's page to anyone else."""
    if request.user.is_authenticated:
        mine = Event.objects.organised_by(request.user).filter(pk=event_id).first()
        if mine is not None and not (mine.listed and request.GET.get("as") == "public"):
            return _organiser_page(cast(AuthedRequest, request), mine)
    listed = Event.objects.listed().select_related("organiser").filter(pk=event_id).first()
    if listed is not None:
        if request.method != "GET":
            return HttpResponse(status=405)
        return directory_views.event_page(request, listed)
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    raise Http404


def _organiser_page(request: AuthedRequest, event: Event) -> HttpResponse:
    form = EventForm(request.POST or None, instance=event, user=request.user)
    if request.method == "POST":
        if event.locked:
            return _closed(request, event, services.closed_reason(event))
        if form.is_valid():
            services.change_settings(event, {name: form.cleaned_data[name] for name in form.Meta.fields})
            messages.success(request, _("Event settings saved."))
            return redirect(event)
    rows = services.checked(event, list(event.submissions.for_table()))
    registrations = list(event.registrations.in_order().select_related("user"))
    context = {
        "event": event,
        "registrations": registrations,
        "taken": sum(1 for r in registrations if not r.waiting),
        "form": form,
        "rows": rows,
        "legal_count": sum(1 for r in rows if r.legal),
        "submit_url": request.build_absolute_uri(event.get_submit_url()),
        "closed": not event.open_at(),
    }
    return render(request, "events/detail.html", context, status=400 if form.errors else 200)


@login_required
@require_POST
def lock(request: AuthedRequest, event_id: int) -> HttpResponse:
    event = _organised(request, event_id)
    asked = unless_confirmed(
        request,
        title=_("Lock “%(name)s”?") % {"name": event.name},
        message=_("After the lock no list can be sent, changed or removed, for good."),
        button=_("Lock the event"),
        back=event.get_absolute_url(),
    )
    if asked:
        return asked
    if services.lock(event):
        messages.success(request, _("Locked: the lists can no longer be changed."))
    return redirect(event)


@login_required
@require_POST
def new_link(request: AuthedRequest, event_id: int) -> HttpResponse:
    event = _organised(request, event_id)
    event.token = new_token()
    event.save(update_fields=["token"])
    messages.success(request, _("A new link is made; the old one no longer works."))
    return redirect(event)


@login_required
@require_POST
def remove(request: AuthedRequest, event_id: int, submission_id: int) -> HttpResponse:
    event = _organised(request, event_id)
    submission = get_object_or_404(Submission, event=event, pk=submission_id)
    asked = unless_confirmed(
        request,
        title=_("Remove the list of %(player)s?") % {"player": submission.player_name},
        message=_("The list is deleted from the event; the player can send it again until the deadline."),
        button=_("Remove the list"),
        back=event.get_absolute_url(),
    )
    if asked:
        return asked
    try:
        services.remove_submission(event, submission_id)
    except services.EventClosed as exc:
        return _closed(request, event, str(exc))
    messages.success(request, _("The list is removed."))
    return redirect(event)


@login_required
@require_POST
def delete(request: AuthedRequest, event_id: int) -> HttpResponse:
    event = _organised(request, event_id)
    asked = unless_confirmed(
        request,
        title=_("Delete “%(name)s”?") % {"name": event.name},
        message=_("The event and every list sent to it are deleted. This cannot be undone."),
        button=_("Delete the event"),
        back=event.get_absolute_url(),
    )
    if asked:
        return asked
    event.delete()
    messages.success(request, _("The event “%(name)s” and its lists are deleted.") % {"name": event.name})
    return redirect("events:mine")


@login_required
def export_csv(request: AuthedRequest, event_id: int) -> HttpResponse:
    event = _organised(request, event_id)
    rows = services.checked(event, list(event.submissions.for_table()))
    response = HttpResponse(services.to_csv(rows), content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="event-{event.pk}.csv"'
    return response


@login_required
def sheets(request: AuthedRequest, event_id: int) -> HttpResponse:
    """Every registration sheet of the event, one printed page each."""
    event = _organised(request, event_id)
    date = event.day.isoformat() if event.starts_at else ""
    pages, unreadable = [], []
    for submission in event.submissions.for_table():
        try:
            pages.append(
                sheet_for_list(
                    submission.text,
                    event.format,
                    event.format_label,
                    player=submission.player_name,
                    event=event.name,
                    date=date,
                )
            )
        except DeckListError:
            unreadable.append(submission)
    return render(request, "events/sheets.html", {"event": event, "sheets": pages, "unreadable": unreadable})


@accepts(DECK_LIST)
def submit(request: AuthedRequest, token: str) -> HttpResponse:
    """The player's page behind the event's link: send a list, or replace it, until the deadline.
    To a visitor not logged in, the link says which event it is and offers both ways in."""
    event = get_object_or_404(Event.objects.select_related("organiser"), token=token)
    if not request.user.is_authenticated:
        if request.method != "GET":
            return redirect_to_login(request.get_full_path())
        about = directory.shown([event])[0] if event.takes_registrations else None
        return invitation(request, EVENT, event.name, event.organiser.get_username(), about)
    mine = Submission.objects.filter(event=event, player=request.user).first()
    initial = {"player_name": mine.player_name if mine else request.user.get_username()}
    form = SubmissionForm(request.POST or None, request.FILES or None, user=request.user, initial=initial)
    reason = services.closed_reason(event) or services.frozen_reason(event, request.user)
    status = 200
    if request.method == "POST":
        if reason:
            return _closed(request, event, reason)
        if form.is_valid():
            try:
                services.submit(
                    event,
                    request.user,
                    form.cleaned_data["player_name"],
                    form.cleaned_data["text"],
                    deck=form.cleaned_data.get("deck"),
                )
            except services.EventClosed as exc:  # locked between the page and the click
                return _closed(request, event, str(exc))
            except DeckListError as exc:  # not a deck list at all: nothing stored
                form.add_error(None, pick(exc.message, exc.message_en))
            else:
                messages.success(request, _("Your list is registered. You can change it until the deadline."))
                return redirect("events:submit", token=token)
        status = 400
    return player_page(request, event, form, mine=mine, closed=reason, status=status)


def player_page(
    request: AuthedRequest,
    event: Event,
    form: SubmissionForm | None = None,
    *,
    mine: Submission | None = None,
    closed: str | None = None,
    status: int = 200,
    **more: Any,
) -> HttpResponse:
    """The player's page behind the event's link: their list, their match and what they may do.
    `more`: what an action refused puts beside its form (the reason, what was typed)."""
    if form is None:
        mine = Submission.objects.filter(event=event, player=request.user).first()
        initial = {"player_name": mine.player_name if mine else request.user.get_username()}
        form = SubmissionForm(user=request.user, initial=initial)
        closed = services.closed_reason(event) or services.frozen_reason(event, request.user)
    row = services.checked(event, [mine])[0] if mine else None
    context = {"event": event, "form": form, "mine": mine, "row": row, "closed": closed, "now": timezone.now()}
    if event.takes_registrations:  # its details, and the player's place or turn on the waiting list
        directory.shown([event])
        context["place"], context["queue"] = services.place_of(event, request.user)
        context["open"] = event.open_at()
    context.update(presenters.player_context(event, request.user))
    context.update(more)
    return render(request, "events/submit.html", context, status=status)


@login_required
@require_POST
def withdraw(request: AuthedRequest, token: str) -> HttpResponse:
    event = get_object_or_404(Event, token=token)
    try:
        services.withdraw(event, request.user)
    except services.EventClosed as exc:
        return _closed(request, event, str(exc))
    messages.success(request, _("Your list is withdrawn."))
    return redirect("events:submit", token=token)


def _closed(request: HtmxHttpRequest, event: Event, reason: str | None) -> HttpResponse:
    return render(request, "events/closed.html", {"event": event, "message": reason}, status=403)


@accepts(*BATCH)
@require_POST
def save_files(request: HtmxHttpRequest) -> HttpResponse:
    """The batch check's lists saved as an event (its "save as" field), for a logged-in organiser.
    Unreadable files are listed, not saved."""
    form = BatchCheckForm(request.POST, request.FILES)
    if not request.user.is_authenticated:
        form.is_valid()
        form.add_error("save_as", _("Log in to save the lists as an event."))
        return render(request, "decks/check_many.html", {"form": form}, status=403)
    if not form.is_valid() or not form.cleaned_data["save_as"]:
        if form.is_valid():
            form.add_error("save_as", _("Name the event."))
        return render(request, "decks/check_many.html", {"form": form}, status=400)
    try:
        rows = batch.check_uploads(form.cleaned_data["files"], form.cleaned_data["format"], batch.SIGNED_IN)
    except batch.BatchError as exc:
        form.add_error("files", str(exc))
        return render(request, "decks/check_many.html", {"form": form}, status=exc.status)
    readable = [(r.file, r.text, r.player) for r in rows if r.error is None and r.text is not None]
    event = services.save_batch(request.user, form.cleaned_data["save_as"], form.cleaned_data["format"], readable)
    skipped = [r.file for r in rows if r.error is not None]
    messages.success(request, _("Saved as an event with %(n)d lists.") % {"n": len(readable)})
    if skipped:
        messages.warning(request, _("Not saved, unreadable: %(files)s") % {"files": ", ".join(skipped)})
    return redirect(event)
