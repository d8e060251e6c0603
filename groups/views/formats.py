"""A play group's house formats on its pages: every member reads their rules and checks a deck in
them; the owner adds, changes and deletes them (groups.services holds the rules)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from events import services as event_services
from groups import services
from groups.forms import HouseFormatForm, shown_rules
from groups.models import Group, HouseFormat
from groups.views.groups import member_group
from webutil.confirm import unless_confirmed
from webutil.requests import AuthedRequest


def _owned(request: AuthedRequest, group: Group) -> None:
    if group.owner_id != request.user.pk:
        raise PermissionDenied(_("Only the group's owner may do this."))


def _save(request: AuthedRequest, form: HouseFormatForm, group: Group, house: HouseFormat | None) -> HouseFormat | None:
    """The form's rules through the service; None, with the errors on the form, when refused."""
    try:
        if house is None:
            return services.create_format(group, request.user, form.rules())
        return services.update_format(house, request.user, form.rules())
    except ValidationError as exc:
        form.add_error(None, exc)
    except services.GroupError as exc:
        form.add_error(None, str(exc))
    return None


@login_required
def new_format(request: AuthedRequest, group_id: int) -> HttpResponse:
    group = member_group(request, group_id)
    _owned(request, group)
    form = HouseFormatForm(request.POST or None, initial={"min_cards": 40, "max_cards": 60, "copy_limit": 3})
    if request.method == "POST" and form.is_valid():
        house = _save(request, form, group, None)
        if house is not None:
            messages.success(request, _("Format added. Members can now choose it for their decks."))
            return redirect("groups:format", group_id=group.pk, format_id=house.pk)
    context = {"group": group, "form": form, "house": None}
    return render(request, "groups/format.html", context, status=400 if form.errors else 200)


@login_required
def format_page(request: AuthedRequest, group_id: int, format_id: int) -> HttpResponse:
    """A house format's rules, for every member; the owner changes them here."""
    group = member_group(request, group_id)
    house = get_object_or_404(HouseFormat.objects.filter(group=group), pk=format_id)
    owner = group.owner_id == request.user.pk
    if request.method == "POST":
        _owned(request, group)
    form = HouseFormatForm(request.POST or None, instance=house) if owner else None
    if form is not None and request.method == "POST" and form.is_valid():
        if _save(request, form, group, house) is not None:
            messages.success(request, _("Saved. The decks in this format are being checked again."))
            return redirect("groups:format", group_id=group.pk, format_id=house.pk)
        house.refresh_from_db()
    frozen = event_services.event_freezing_format(house.key) if owner else None
    context = {"group": group, "house": house, "form": form, "rules": shown_rules(house), "frozen": frozen}
    return render(request, "groups/format.html", context, status=400 if form is not None and form.errors else 200)


@login_required
@require_POST
def delete_format(request: AuthedRequest, group_id: int, format_id: int) -> HttpResponse:
    group = member_group(request, group_id)
    house = get_object_or_404(HouseFormat.objects.filter(group=group), pk=format_id)
    _owned(request, group)
    asked = unless_confirmed(
        request,
        title=_("Delete the format “%(name)s”?") % {"name": house.name},
        message=_("Decks in this format move to the standard format."),
        button=_("Delete the format"),
        back=reverse("groups:format", args=[group.pk, house.pk]),
    )
    if asked:
        return asked
    try:
        services.delete_format(house, request.user)
    except services.GroupError as exc:
        messages.error(request, str(exc))
        return redirect("groups:format", group_id=group.pk, format_id=house.pk)
    messages.success(request, _("Format deleted."))
    return redirect("groups:group", group_id=group.pk)
