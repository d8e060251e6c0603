"""A user's profile (/u/<username>/), its Atom feed of public decks, following, the profile's
settings, and the notifications (the bell). Here, at the top, because a profile shows what
lower apps keep: decks, likes, events."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import messages
from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.contrib.syndication.views import Feed
from django.db.models import Count, Sum
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.feedgenerator import Atom1Feed
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_POST

from catalog.lookup import catalog_index
from catalog.templatetags.cards import user_text
from decks.models import Deck
from events import presenters, ratings
from events.models import PlayerRating
from people import notices, profiles, regions
from people.models import MAX_BIO, MAX_DISPLAY_NAME, Follow, Profile
from webutil.charts import polyline
from webutil.requests import AuthedRequest, HtmxHttpRequest
from webutil.text import CJK

# A profile lists the newest public decks and events; the rest are a search away.
DECKS_SHOWN = 20
EVENTS_SHOWN = 5


def _person(request: HttpRequest, username: str) -> tuple[Any, Profile]:
    """The user and profile the reader may see: a hidden profile is its owner's alone."""
    user = get_object_or_404(get_user_model(), username=username, is_active=True)
    profile = profiles.profile_of(user)
    if profile.hidden and request.user.pk != user.pk:
        raise Http404
    return user, profile


def _events(user: Any) -> list[dict[str, Any]]:
    """The user's newest finished events (events.presenters.played), with their generals' cards."""
    shown = presenters.played(user, EVENTS_SHOWN)
    for row in shown:
        row["general_card"] = catalog_index().by_code.get(row["general"])
    return shown


# The rating's chart: its last CHART_POINTS values, a line in a box of this many units.
CHART_POINTS = 100
CHART_WIDTH, CHART_HEIGHT = 240, 60


def _rating(user: Any) -> dict[str, Any] | None:
    """The player's rating now and a line of its history (two queries), or None if unrated."""
    current = PlayerRating.objects.filter(user=user).first()
    if current is None:
        return None
    values = [entry.ordinal for entry in ratings.history(user, last=CHART_POINTS)]
    low, high = min(*values, 0.0), max(*values, 0.0)
    points = polyline(values, CHART_WIDTH, CHART_HEIGHT, low, high)
    return {
        "now": current,
        "points": points,
        "width": CHART_WIDTH,
        "height": CHART_HEIGHT,
        "first": values[0],
        "low": low,
        "high": high,
    }


def _totals(public: Any) -> dict[str, int]:
    """The public decks' number and their likes, in one query."""
    totals = public.aggregate(decks=Count("pk"), likes=Sum("like_count"))
    return {"deck_count": totals["decks"], "likes_received": totals["likes"] or 0}


def profile_context(request: HttpRequest, user: Any, profile: Profile) -> dict[str, Any]:
    public = Deck.objects.listed().filter(owner=user)
    name, bio = profiles.shown(profile)
    return {
        "person": user,
        "profile": profile,
        "display_name": name,
        "bio": bio,
        "decks": list(public.select_related("general").order_by("-updated", "-id")[:DECKS_SHOWN]),
        **_totals(public),
        "followers": Follow.objects.filter(followed=user).count(),
        "following": profiles.follows(request.user, user),
        "events": _events(user) if profile.show_events else [],
        "rating": _rating(user) if profile.show_events else None,
        "is_me": request.user.pk == user.pk,
    }


def profile(request: HtmxHttpRequest, username: str) -> HttpResponse:
    user, found = _person(request, username)
    return render(request, "accounts/profile.html", profile_context(request, user, found))


@login_required
@require_POST
def follow(request: AuthedRequest, username: str) -> HttpResponse:
    user, _profile = _person(request, username)
    try:
        if request.POST.get("action") == "unfollow":
            profiles.unfollow(request.user, user)
        else:
            profiles.follow(request.user, user)
    except profiles.ProfileError as exc:
        return render(request, "error.html", {"message": str(exc), "back": f"/u/{user.username}/"}, status=400)
    return redirect("profile", user.username)


@login_required
@require_POST
def report(request: AuthedRequest, username: str) -> HttpResponse:
    user, _profile = _person(request, username)
    try:
        profiles.report(user, request.user, str(request.POST.get("reason", "")))
    except profiles.ProfileError as exc:
        return render(request, "error.html", {"message": str(exc), "back": f"/u/{user.username}/"}, status=exc.status)
    messages.success(request, _("Thank you: a moderator will look at it."))
    return redirect("profile", user.username)


class ProfileForm(forms.Form):
    display_name = forms.CharField(label=gettext_lazy("Display name"), max_length=MAX_DISPLAY_NAME, required=False)
    bio = forms.CharField(
        label=gettext_lazy("About me"),
        max_length=MAX_BIO,
        required=False,
        widget=forms.Textarea(attrs={"rows": 4}),
    )
    hidden = forms.BooleanField(label=gettext_lazy("Hide my profile from others"), required=False)
    show_events = forms.BooleanField(label=gettext_lazy("Show the events I played"), required=False)
    on_leaderboard = forms.BooleanField(label=gettext_lazy("List me on the ratings leaderboard"), required=False)
    region = forms.ChoiceField(
        label=gettext_lazy("Where I play"),
        required=False,
        choices=regions.form_choices(gettext_lazy("— not said —")),
        help_text=gettext_lazy("The events near you, and your region's leaderboard."),
    )
    in_site = forms.MultipleChoiceField(
        label=gettext_lazy("Tell me in the site of"),
        choices=[(k.slug, k.label) for k in notices.KINDS.values()],
        widget=forms.CheckboxSelectMultiple,
        required=False,
    )
    emailed = forms.MultipleChoiceField(
        label=gettext_lazy("Also by e-mail"),
        choices=[(k.slug, k.label) for k in notices.KINDS.values()],
        widget=forms.CheckboxSelectMultiple,
        required=False,
    )


@login_required
def edit_profile(request: AuthedRequest) -> HttpResponse:
    current = profiles.profile_of(request.user)
    form = ProfileForm(
        request.POST or None,
        initial={
            "display_name": current.display_name,
            "bio": current.bio,
            "hidden": current.hidden,
            "show_events": current.show_events,
            "on_leaderboard": current.on_leaderboard,
            "region": current.region,
            "in_site": [k for k in notices.KINDS if k not in current.muted],
            "emailed": current.emailed,
        },
    )
    for name in ("display_name", "bio"):  # what the user wrote, marked as Chinese where it is
        if CJK.search(str(form[name].value() or "")):
            form.fields[name].widget.attrs["lang"] = "zh"
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        given = {
            "display_name": data["display_name"],
            "bio": data["bio"],
            "hidden": data["hidden"],
            "show_events": data["show_events"],
            "on_leaderboard": data["on_leaderboard"],
            "region": data["region"],
            "muted": [k for k in notices.KINDS if k not in data["in_site"]],
            "emailed": list(data["emailed"]),
        }
        try:
            profiles.update(request.user, given)
        except profiles.ProfileError as exc:
            form.add_error(None, str(exc))
            return render(request, "accounts/profile_edit.html", {"form": form}, status=exc.status)
        messages.success(request, _("Saved."))
        return redirect("profile", request.user.username)
    return render(request, "accounts/profile_edit.html", {"form": form}, status=400 if form.errors else 200)


@login_required
def notifications(request: AuthedRequest) -> HttpResponse:
    shown = [(n, notices.text(n, mark=user_text)) for n in notices.newest(request.user)]
    return render(request, "accounts/notifications.html", {"notifications": shown})


@login_required
@require_POST
def notifications_read(request: AuthedRequest) -> HttpResponse:
    notices.read_all(request.user)
    return redirect("notifications")


class DecksFeed(Feed):
    """A user's public decks, newest first, as an Atom feed (a feed reader follows a builder)."""

    feed_type = Atom1Feed

    def get_object(self, request: HttpRequest, username: str) -> Any:
        user, _profile = _person(request, username)
        return user

    def title(self, obj: Any) -> str:
        return _("Decks by %(name)s") % {"name": obj.username}

    def link(self, obj: Any) -> str:
        return f"/u/{obj.username}/"

    def items(self, obj: Any) -> list[Deck]:
        return list(Deck.objects.listed().filter(owner=obj).order_by("-updated", "-id")[:DECKS_SHOWN])

    def item_title(self, item: Deck) -> str:
        return item.name

    def item_description(self, item: Deck) -> str:
        return item.description_html or item.format_label

    def item_updateddate(self, item: Deck) -> Any:
        return item.updated

    def item_pubdate(self, item: Deck) -> Any:
        return item.created
