"""Accounts: sign-up, log-in (throttled), password reset by e-mail, the account page (API token,
sharing) and deleting an account. Log out and password changes are Django's own views, with the
site's templates under templates/registration/.

This app sits on top of the others: deleting an account reaches into events, decks and the
collection, so it is composed here and nowhere below."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth import login, logout
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.contrib.auth.forms import UserCreationForm
from django.contrib.auth.models import User
from django.db import transaction
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_POST
from rest_framework.authtoken.models import Token

from accounts.forms import (
    RESET_PER_ADDRESS,
    RESET_PER_EMAIL,
    SIGNUP_PER_ADDRESS,
    DeleteAccountForm,
    ThrottledAuthenticationForm,
    wait_message,
)
from collection.models import ShareLink
from collection.services import set_sharing
from events.services import release_user
from groups.models import Group
from webutil.requests import AuthedRequest, HtmxHttpRequest
from webutil.throttling import client_ip, hit


def signup(request: HtmxHttpRequest) -> HttpResponse:
    if request.user.is_authenticated:
        return redirect("account")
    form: UserCreationForm[User] = UserCreationForm(request.POST or None)
    next_page = _safe_next(request)
    if request.method == "POST" and (wait := hit(f"signup:ip:{client_ip(request)}", SIGNUP_PER_ADDRESS)) is not None:
        form.is_valid()
        form.add_error(None, wait_message(wait))
        return render(request, "registration/signup.html", {"form": form, "next": next_page}, status=429)
    if request.method == "POST" and form.is_valid():
        user = form.save()
        login(request, user, backend="django.contrib.auth.backends.ModelBackend")
        messages.success(request, _("Welcome! Your account is ready."))
        # Back where the visitor was going (an event's link, say), if that is on this site.
        return redirect(next_page or "collection:mine")
    context = {"form": form, "next": next_page}
    return render(request, "registration/signup.html", context, status=400 if form.errors else 200)


def _safe_next(request: HtmxHttpRequest) -> str:
    target = request.POST.get("next") or request.GET.get("next") or ""
    allowed = url_has_allowed_host_and_scheme(
        target, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    )
    return target if allowed else ""


@login_required
@never_cache  # the page shows the API token: no cache, shared or private, may keep it
def account(request: AuthedRequest) -> HttpResponse:
    token = Token.objects.filter(user=request.user).first()
    share = ShareLink.objects.filter(user=request.user).first()
    return render(request, "accounts/account.html", {"token": token, "share": share})


class LoginView(auth_views.LoginView):
    authentication_form = ThrottledAuthenticationForm

    def form_invalid(self, form: Any) -> HttpResponse:
        throttled = any(e.code == "throttled" for e in form.errors.as_data().get("__all__", []))
        return self.render_to_response(self.get_context_data(form=form), status=429 if throttled else 400)


class PasswordResetView(auth_views.PasswordResetView):
    """A reset link by e-mail (Django's signed tokens, which expire after PASSWORD_RESET_TIMEOUT).
    Throttled per address and per e-mail address; the answer never says whether the address
    has an account."""

    def form_valid(self, form: Any) -> HttpResponse:
        email = str(form.cleaned_data["email"]).strip().lower()
        waits = [
            hit(f"reset:ip:{client_ip(self.request)}", RESET_PER_ADDRESS),
            hit(f"reset:email:{email}", RESET_PER_EMAIL),
        ]
        wait = max((w for w in waits if w is not None), default=None)
        if wait is not None:
            form.add_error(None, wait_message(wait))
            return self.render_to_response(self.get_context_data(form=form), status=429)
        return super().form_valid(form)


@login_required
@never_cache
def delete_account(request: AuthedRequest) -> HttpResponse:
    """Delete my account after my password: my collection, decks, lists and tokens go; events I
    organised are deleted or handed over, as I choose."""
    form = DeleteAccountForm(request.POST or None, user=request.user)
    if request.method == "POST" and form.is_valid():
        user = request.user
        with transaction.atomic():
            release_user(user, heir=form.cleaned_data.get("heir"))
            logout(request)
            user.delete()
        messages.success(request, _("Your account and everything in it were deleted."))
        return redirect("home")
    # What goes with the account, listed before the password is asked: the groups it owns (with
    # their members' places and leagues) and the groups it leaves.
    groups = Group.objects.of(request.user).with_member_count().order_by("name", "pk")
    context = {
        "form": form,
        "owned_groups": [g for g in groups if g.owner_id == request.user.pk],
        "joined_groups": [g for g in groups if g.owner_id != request.user.pk],
    }
    return render(request, "accounts/delete.html", context, status=400 if form.errors else 200)


@login_required
@require_POST
def token_create(request: AuthedRequest) -> HttpResponse:
    # A new token replaces the old one: a leaked token is revoked by making a new one.
    Token.objects.filter(user=request.user).delete()
    Token.objects.create(user=request.user)
    messages.success(request, _("A new API token was made; the old one no longer works."))
    return redirect("account")


@login_required
@require_POST
def token_revoke(request: AuthedRequest) -> HttpResponse:
    Token.objects.filter(user=request.user).delete()
    messages.success(request, _("Your API token was revoked."))
    return redirect("account")


@login_required
@require_POST
def sharing(request: AuthedRequest) -> HttpResponse:
    action = request.POST.get("action")
    if action not in ("on", "off", "new"):
        messages.error(request, _("Unknown sharing action."))
        return redirect("account")
    set_sharing(request.user, enabled=action != "off", new_link=action == "new")
    messages.success(request, _("Sharing updated."))
    return redirect((request.POST.get("next") == "trade" and "collection:trade") or "account")
