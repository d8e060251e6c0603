"""A player's groups, a group's page (members, shared decks, the league) and membership: joining
by the invite link, the owner adding and removing, leaving, deleting. A group is a 404 to anyone
who is not a member."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.views import redirect_to_login
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from decks.i18n import label_formats
from decks.models import Deck
from decks.views.decks import deck_table
from groups import services
from groups.forms import AddMemberForm, GameForm, GroupForm, SeasonForm
from groups.models import Group, Membership
from league.models import Game
from league.queries import league
from league.services import GameError, chosen_season
from webutil.confirm import unless_confirmed
from webutil.invitations import GROUP, invitation
from webutil.requests import AuthedRequest

RECENT_GAMES = 30


def member_group(request: AuthedRequest, group_id: int) -> Group:
    # Not a member: a 404, never a 403; a group's existence is its members' business.
    return get_object_or_404(Group.objects.of(request.user).select_related("owner"), pk=group_id)


@login_required
def my_groups(request: AuthedRequest) -> HttpResponse:
    """The groups I belong to, and a form for a new one."""
    form = GroupForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            group = services.create_group(request.user, form.cleaned_data["name"])
        except services.GroupError as exc:
            form.add_error("name", str(exc))
        else:
            messages.success(request, _("Group created. Send its invite link to the players."))
            return redirect("groups:group", group_id=group.pk)
    context = {
        "form": form,
        "groups": Group.objects.of(request.user).with_member_count().select_related("owner"),
    }
    return render(request, "groups/my_groups.html", context, status=400 if form.errors else 200)


def game_form(request: AuthedRequest, group: Group, members: list[Membership], data: object = None) -> GameForm:
    opponents = [(m.user.username, m.user.username) for m in members if m.user_id != request.user.pk]
    shared = Deck.objects.shared_with(group).exclude(owner=request.user).select_related("owner").order_by("name", "pk")
    mine = Deck.objects.owned_by(request.user).filter(archived=False).order_by("name", "pk")
    return GameForm(data, members=opponents, mine=mine, shared=shared)


@login_required
def group_page(
    request: AuthedRequest, group_id: int, form: GameForm | None = None, season_form: SeasonForm | None = None
) -> HttpResponse:
    group = member_group(request, group_id)
    try:
        season, seasons = chosen_season(group, request.GET.get("season"))
    except GameError:
        raise Http404(_("No such season in this group.")) from None
    members = list(Membership.objects.filter(group=group).select_related("user").order_by("-role", "user__username"))
    owner = group.owner_id == request.user.pk
    decks, valid = deck_table(request, Deck.objects.shared_with(group))
    games = Game.objects.filter(group=group).select_related(
        "player_a", "player_b", "deck_a", "deck_b", "general_a", "general_b"
    )
    recent = list(games[:RECENT_GAMES])
    # Every game waiting for my confirmation, however old: the reason I open the page.
    waiting = list(games.waiting_for(request.user)[:RECENT_GAMES])
    for game in recent:
        # What this reader may do with it, as league.services decides.
        game.can_delete = owner or (game.confirmed is None and request.user.pk in (game.player_a_id, game.player_b_id))  # type: ignore[attr-defined]
    events = list(group.events.order_by("-deadline", "-pk")[:RECENT_GAMES])
    label_formats(events)
    played = {g.deck_a_id for g in recent + waiting} | {g.deck_b_id for g in recent + waiting}
    context = {
        "group": group,
        "owner": owner,
        "members": members,
        "invite_url": request.build_absolute_uri(reverse("groups:join", args=[group.invite])) if owner else "",
        "add_form": AddMemberForm() if owner else None,
        "game_form": form or game_form(request, group, members),
        "waiting": waiting,
        "recent": recent,
        "readable": set(
            Deck.objects.visible_to(request.user).filter(pk__in=played - {None}).values_list("pk", flat=True)
        ),
        "league": league(group, {m.user_id: m.user.username for m in members}, request.user, season),
        "season": season,
        "seasons": seasons,
        "season_form": season_form or (SeasonForm() if owner else None),
        "house_formats": list(group.formats.all()),
        "events": events,
        **decks,
    }
    refused = (form is not None and form.errors) or (season_form is not None and season_form.errors)
    status = 400 if refused or not valid else 200
    return render(request, "groups/group.html", context, status=status)


def join(request: AuthedRequest, invite: str) -> HttpResponse:
    """The invite link: GET says which group it is and asks; POST joins. To a visitor not logged
    in, it says which group and whose, and offers both ways in."""
    group = Group.objects.filter(invite=invite[:32]).select_related("owner").first()
    if group is None:
        raise Http404(
            _("This invite link is not valid: it may have been replaced. Ask the group's owner for the new one.")
        )
    if not request.user.is_authenticated:
        if request.method != "GET":
            return redirect_to_login(request.get_full_path())
        return invitation(request, GROUP, group.name, group.owner.get_username())
    if request.method == "POST":
        try:
            group, new = services.join(request.user, invite)
        except services.GroupError as exc:
            messages.error(request, str(exc))
            return redirect("groups:groups")
        if new:
            messages.success(request, _("You joined “%(name)s”.") % {"name": group.name})
        return redirect("groups:group", group_id=group.pk)
    member = Membership.objects.filter(group=group, user=request.user).exists()
    count = Membership.objects.filter(group=group).count()
    return render(request, "groups/join.html", {"group": group, "member": member, "count": count})


@login_required
@require_POST
def add_member(request: AuthedRequest, group_id: int) -> HttpResponse:
    group = member_group(request, group_id)
    form = AddMemberForm(request.POST)
    if form.is_valid():
        try:
            user = services.add_member(group, request.user, form.cleaned_data["username"])
        except services.GroupError as exc:
            messages.error(request, str(exc))
        else:
            messages.success(request, _("%(name)s is now a member.") % {"name": user.username})
    else:
        messages.error(request, _("Give the player's username."))
    return redirect("groups:group", group_id=group.pk)


@login_required
@require_POST
def remove_member(request: AuthedRequest, group_id: int, username: str) -> HttpResponse:
    group = member_group(request, group_id)
    leaving = username == request.user.username
    if leaving:
        title = _("Leave “%(name)s”?") % {"name": group.name}
        message = _(
            "Your decks stop being shared with the group; the games you played stay in its league, "
            "except those not yet confirmed, which are void."
        )
        button = _("Leave the group")
        option = None
    else:
        title = _("Remove %(player)s from “%(name)s”?") % {"player": username[:40], "name": group.name}
        message = _(
            "Their decks stop being shared with the group; the games they played stay in its league, "
            "except those not yet confirmed, which are void."
        )
        button = _("Remove the member")
        option = ("new_invite", _("Also replace the invite link, so that the old one no longer lets them join again"))
    try:
        if not Membership.objects.filter(group=group, user__username=username[:150]).exists():
            raise services.NotFound(_("No such member."))
        if not leaving and group.owner_id != request.user.pk:
            raise services.GroupError(_("Only the group's owner may do this."))
        asked = unless_confirmed(
            request, title=title, message=message, button=button, back=group_url(group), option=option
        )
        if asked:
            return asked
        renew = not leaving and request.POST.get("new_invite") == "1"
        services.remove_member(group, request.user, username, replace_invite=renew)
    except services.NotFound as exc:
        raise Http404(str(exc)) from None
    except services.GroupError as exc:
        messages.error(request, str(exc))
        return redirect(group_url(group))
    if leaving:
        messages.success(request, _("You left “%(name)s”.") % {"name": group.name})
        return redirect("groups:groups")
    messages.success(request, _("%(name)s is no longer a member.") % {"name": username[:40]})
    return redirect(group_url(group))


def group_url(group: Group) -> str:
    return reverse("groups:group", args=[group.pk])


@login_required
@require_POST
def new_invite(request: AuthedRequest, group_id: int) -> HttpResponse:
    group = member_group(request, group_id)
    try:
        services.replace_invite(group, request.user)
    except services.GroupError as exc:
        messages.error(request, str(exc))
    else:
        messages.success(request, _("A new invite link is made; the old one no longer works."))
    return redirect(group_url(group))


@login_required
@require_POST
def delete(request: AuthedRequest, group_id: int) -> HttpResponse:
    group = member_group(request, group_id)
    if group.owner_id != request.user.pk:
        messages.error(request, _("Only the group's owner may do this."))
        return redirect(group_url(group))
    asked = unless_confirmed(
        request,
        title=_("Delete “%(name)s”?") % {"name": group.name},
        message=_(
            "The group, its members' places in it and its league's games are deleted; the decks shared with it "
            "stay with their owners. This cannot be undone."
        ),
        button=_("Delete the group"),
        back=group_url(group),
    )
    if asked:
        return asked
    services.delete_group(group, request.user)
    messages.success(request, _("The group “%(name)s” is deleted.") % {"name": group.name})
    return redirect("groups:groups")
