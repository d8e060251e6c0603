"""Sign-up and the account page (API token, sharing). Log in, log out and password changes are
Django's own views, with the site's templates under templates/registration/."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.contrib.auth.forms import UserCreationForm
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST
from rest_framework.authtoken.models import Token

from collection.models import ShareLink
from collection.services import set_sharing


def signup(request: HttpRequest) -> HttpResponse:
    if request.user.is_authenticated:
        return redirect("account")
    form = UserCreationForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        user = form.save()
        login(request, user, backend="django.contrib.auth.backends.ModelBackend")
        messages.success(request, _("Welcome! Your account is ready."))
        return redirect("collection:mine")
    return render(request, "registration/signup.html", {"form": form}, status=400 if form.errors else 200)


@login_required
def account(request: HttpRequest) -> HttpResponse:
    token = Token.objects.filter(user=request.user).first()
    share = ShareLink.objects.filter(user=request.user).first()
    return render(request, "collection/account.html", {"token": token, "share": share})


@login_required
@require_POST
def token_create(request: HttpRequest) -> HttpResponse:
    # A new token replaces the old one: a leaked token is revoked by making a new one.
    Token.objects.filter(user=request.user).delete()
    Token.objects.create(user=request.user)
    messages.success(request, _("A new API token was made; the old one no longer works."))
    return redirect("account")


@login_required
@require_POST
def token_revoke(request: HttpRequest) -> HttpResponse:
    Token.objects.filter(user=request.user).delete()
    messages.success(request, _("Your API token was revoked."))
    return redirect("account")


@login_required
@require_POST
def sharing(request: HttpRequest) -> HttpResponse:
    action = request.POST.get("action")
    if action not in ("on", "off", "new"):
        messages.error(request, _("Unknown sharing action."))
        return redirect("account")
    set_sharing(request.user, enabled=action != "off", new_link=action == "new")
    messages.success(request, _("Sharing updated."))
    return redirect((request.POST.get("next") == "trade" and "collection:trade") or "account")
