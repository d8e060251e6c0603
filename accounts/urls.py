"""The accounts' pages: Django's own views with our templates, and ours (sign-up, the account
page and its API token, sharing, deleting an account)."""

from django.contrib.auth import views as auth_views
from django.urls import path

from accounts import profiles
from accounts import views as accounts

urlpatterns = [
    path("accounts/signup/", accounts.signup, name="signup"),
    path("accounts/", accounts.account, name="account"),
    path("accounts/token/", accounts.token_create, name="token-create"),
    path("accounts/token/revoke/", accounts.token_revoke, name="token-revoke"),
    path("accounts/sharing/", accounts.sharing, name="sharing"),
    path("accounts/login/", accounts.LoginView.as_view(), name="login"),
    path("accounts/delete/", accounts.delete_account, name="account-delete"),
    path("accounts/profile/", profiles.edit_profile, name="profile-edit"),
    path("u/<str:username>/", profiles.profile, name="profile"),
    path("u/<str:username>/feed/", profiles.DecksFeed(), name="profile-feed"),
    path("u/<str:username>/follow/", profiles.follow, name="follow"),
    path("u/<str:username>/report/", profiles.report, name="profile-report"),
    path("notifications/", profiles.notifications, name="notifications"),
    path("notifications/read/", profiles.notifications_read, name="notifications-read"),
    path("accounts/password/reset/", accounts.PasswordResetView.as_view(), name="password_reset"),
    path("accounts/password/reset/done/", auth_views.PasswordResetDoneView.as_view(), name="password_reset_done"),
    path(
        "accounts/password/reset/<uidb64>/<token>/",
        auth_views.PasswordResetConfirmView.as_view(),
        name="password_reset_confirm",
    ),
    path(
        "accounts/password/reset/complete/",
        auth_views.PasswordResetCompleteView.as_view(),
        name="password_reset_complete",
    ),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("accounts/password/", auth_views.PasswordChangeView.as_view(), name="password_change"),
    path("accounts/password/done/", auth_views.PasswordChangeDoneView.as_view(), name="password_change_done"),
]
