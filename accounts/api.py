"""The profiles, follows and notifications API: the same reads and rules as the pages
(accounts.profiles, people)."""

from __future__ import annotations

from typing import Any

from django.http import Http404
from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import serializers
from rest_framework.exceptions import NotFound, ValidationError
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.profiles import _person, profile_context
from people import notices, profiles

ERROR = OpenApiResponse(description="{detail: message}")


class ProfileDeckSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    general = serializers.CharField(allow_null=True, help_text="The general's card code")
    likes = serializers.IntegerField()
    comments = serializers.IntegerField()
    updated = serializers.DateTimeField()


class ProfileEventSerializer(serializers.Serializer):
    name = serializers.CharField()
    page = serializers.CharField(help_text="The event's public page")
    place = serializers.IntegerField(allow_null=True)
    of = serializers.IntegerField()


class ProfileSerializer(serializers.Serializer):
    username = serializers.CharField()
    display_name = serializers.CharField(help_text='"" when none, or hidden by staff')
    bio = serializers.CharField()
    public_decks = serializers.IntegerField()
    likes_received = serializers.IntegerField()
    followers = serializers.IntegerField()
    following = serializers.BooleanField(help_text="Whether the caller follows them")
    decks = ProfileDeckSerializer(many=True, help_text="The newest public decks, at most 20")
    events = ProfileEventSerializer(many=True, help_text="Finished events with public lists, at most 5")


def profile_json(context: dict[str, Any]) -> dict[str, Any]:
    return {
        "username": context["person"].username,
        "display_name": context["display_name"],
        "bio": context["bio"],
        "public_decks": context["deck_count"],
        "likes_received": context["likes_received"],
        "followers": context["followers"],
        "following": context["following"],
        "decks": [
            {
                "id": d.pk,
                "name": d.name,
                "general": d.general.code if d.general_id else None,
                "likes": d.like_count,
                "comments": d.comment_count,
                "updated": d.updated,
            }
            for d in context["decks"]
        ],
        "events": [
            {
                "name": e["event"].name,
                "page": f"/t/{e['event'].public_token}/",
                "place": e["place"],
                "of": e["of"],
            }
            for e in context["events"]
        ],
    }


def _found(request: Request, username: str) -> tuple[Any, Any]:
    try:
        return _person(request, username)
    except Http404:
        raise NotFound(_("No such user.")) from None


class UserProfileView(APIView):
    """A user's profile as its page shows it (a hidden profile: 404 to others)."""

    permission_classes = [AllowAny]

    @extend_schema(responses={200: ProfileSerializer, 404: ERROR})
    def get(self, request: Request, username: str) -> Response:
        user, profile = _found(request, username)
        return Response(profile_json(profile_context(request, user, profile)))


class FollowAnswerSerializer(serializers.Serializer):
    following = serializers.BooleanField()


class FollowView(APIView):
    """Follow a builder (POST), or stop (DELETE): their new public decks reach the bell."""

    permission_classes = [IsAuthenticated]

    @extend_schema(request=None, responses={200: FollowAnswerSerializer, 400: ERROR, 401: ERROR, 404: ERROR})
    def post(self, request: Request, username: str) -> Response:
        user, _profile = _found(request, username)
        try:
            return Response({"following": profiles.follow(request.user, user)})
        except profiles.ProfileError as exc:
            raise ValidationError({"detail": str(exc)}) from None

    @extend_schema(request=None, responses={200: FollowAnswerSerializer, 401: ERROR, 404: ERROR})
    def delete(self, request: Request, username: str) -> Response:
        user, _profile = _found(request, username)
        return Response({"following": profiles.unfollow(request.user, user)})


class NotificationSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    kind = serializers.ChoiceField(choices=list(notices.KINDS))
    text = serializers.CharField(help_text="In the caller's language")
    actor = serializers.CharField(allow_null=True)
    subject = serializers.CharField(help_text="The deck's name")
    url = serializers.CharField()
    count = serializers.IntegerField(help_text="Likes gathered in one notification")
    read = serializers.BooleanField()
    updated = serializers.DateTimeField()


class NotificationPageSerializer(serializers.Serializer):
    unread = serializers.IntegerField()
    results = NotificationSerializer(many=True, help_text="The newest 50")


class UnreadSerializer(serializers.Serializer):
    unread = serializers.IntegerField()


class NotificationsView(APIView):
    """My newest notifications and how many are unread (reading them marks nothing)."""

    permission_classes = [IsAuthenticated]

    @extend_schema(responses={200: NotificationPageSerializer, 401: ERROR})
    def get(self, request: Request) -> Response:
        results = [
            {
                "id": n.pk,
                "kind": n.kind,
                "text": notices.text(n),
                "actor": n.actor.username if n.actor else None,
                "subject": n.subject,
                "url": n.url,
                "count": n.count,
                "read": n.read,
                "updated": n.updated,
            }
            for n in notices.newest(request.user)
        ]
        return Response({"unread": notices.unread(request.user), "results": results})


class NotificationsReadView(APIView):
    """Mark all my notifications read."""

    permission_classes = [IsAuthenticated]

    @extend_schema(request=None, responses={200: UnreadSerializer, 401: ERROR})
    def post(self, request: Request) -> Response:
        notices.read_all(request.user)
        return Response({"unread": 0})
