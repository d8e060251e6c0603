"""Account forms: log-in throttled per account and per address, sign-up and reset throttled per
address, and the confirmation for deleting an account."""

from __future__ import annotations

import hashlib
from typing import Any

from django import forms
from django.contrib.admin.forms import AdminAuthenticationForm
from django.contrib.auth import get_user_model
from django.contrib.auth.forms import AuthenticationForm
from django.utils.translation import gettext_lazy as _

from webutil.throttling import Limit, blocked, client_ip, hit, minutes

# Failed log-ins: a person mistyping gets ten tries a quarter hour; a guesser gets nowhere.
LOGIN_PER_ACCOUNT = Limit(10, 15 * 60)
LOGIN_PER_ADDRESS = Limit(30, 15 * 60)
SIGNUP_PER_ADDRESS = Limit(10, 60 * 60)
RESET_PER_ADDRESS = Limit(5, 60 * 60)
RESET_PER_EMAIL = Limit(3, 60 * 60)


def wait_message(seconds: float) -> str:
    return str(_("Too many attempts. Try again in %(n)d minutes.") % {"n": minutes(seconds)})


class ThrottledLoginMixin:
    """Failed log-ins are counted per account and per address; past either limit the form is
    refused, even with the right password, until the window ends."""

    request: Any
    cleaned_data: dict[str, Any]

    def clean(self) -> dict[str, Any]:
        username = str(self.cleaned_data.get("username") or "").strip().lower()
        # Hashed: a name as typed may be megabytes of anything, and a cache key should be short.
        account = hashlib.sha256(username.encode("utf-8", "surrogatepass")).hexdigest()[:32]
        keys = [
            (f"login:user:{account}", LOGIN_PER_ACCOUNT),
            (f"login:ip:{client_ip(self.request)}", LOGIN_PER_ADDRESS),
        ]
        waits = [w for key, limit in keys if (w := blocked(key, limit)) is not None]
        if waits:
            raise forms.ValidationError(wait_message(max(waits)), code="throttled")
        try:
            return super().clean()  # type: ignore[misc]  # the mixin's base is the form it is mixed into
        except forms.ValidationError:
            for key, limit in keys:
                hit(key, limit)
            raise


class ThrottledAuthenticationForm(ThrottledLoginMixin, AuthenticationForm):
    pass


class ThrottledAdminAuthenticationForm(ThrottledLoginMixin, AdminAuthenticationForm):
    pass


class DeleteAccountForm(forms.Form):
    password = forms.CharField(label=_("Your password"), strip=False, widget=forms.PasswordInput)
    events = forms.ChoiceField(
        label=_("Events you organise"),
        choices=[("delete", _("Delete them")), ("hand_over", _("Hand them over to another user"))],
        initial="delete",
        widget=forms.RadioSelect,
    )
    new_organiser = forms.CharField(label=_("Username to hand them over to"), required=False, max_length=150)

    def __init__(self, *args: Any, user: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.user = user

    def clean_password(self) -> str:
        password = str(self.cleaned_data["password"])
        if not self.user.check_password(password):
            raise forms.ValidationError(_("That is not your password."))
        return password

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if data.get("events") == "hand_over":
            name = (data.get("new_organiser") or "").strip()
            heir = get_user_model().objects.filter(username=name).exclude(pk=self.user.pk).first()
            if heir is None:
                self.add_error("new_organiser", _("No other user is called “%(name)s”.") % {"name": name[:40]})
            data["heir"] = heir
        return data
