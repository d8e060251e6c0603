"""The API's URLs for profiles, follows and notifications (under /api/, namespace `api`)."""

from django.urls import path

from accounts import api

urlpatterns = [
    path("users/<str:username>/", api.UserProfileView.as_view(), name="user"),
    path("users/<str:username>/follow/", api.FollowView.as_view(), name="user-follow"),
    path("notifications/", api.NotificationsView.as_view(), name="notifications"),
    path("notifications/read/", api.NotificationsReadView.as_view(), name="notifications-read"),
]
