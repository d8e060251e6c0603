"""The API's URLs for play groups and their league (under /api/, namespace `api`)."""

from django.urls import path

from groups import api

urlpatterns = [
    path("groups/", api.GroupListView.as_view(), name="group-list"),
    path("groups/join/", api.JoinView.as_view(), name="group-join"),
    path("groups/<int:group_id>/", api.GroupDetailView.as_view(), name="group-detail"),
    path("groups/<int:group_id>/invite/", api.InviteView.as_view(), name="group-invite"),
    path("groups/<int:group_id>/members/", api.MemberListView.as_view(), name="group-members"),
    path("groups/<int:group_id>/members/<str:username>/", api.MemberDetailView.as_view(), name="group-member"),
    path("groups/<int:group_id>/formats/", api.HouseFormatListView.as_view(), name="group-formats"),
    path("groups/<int:group_id>/formats/<int:format_id>/", api.HouseFormatDetailView.as_view(), name="group-format"),
    path("groups/<int:group_id>/decks/", api.GroupDeckListView.as_view(), name="group-decks"),
    path("groups/<int:group_id>/games/", api.GameListView.as_view(), name="group-games"),
    path("groups/<int:group_id>/games/<int:game_id>/", api.GameDetailView.as_view(), name="group-game"),
    path("groups/<int:group_id>/games/<int:game_id>/confirm/", api.ConfirmView.as_view(), name="group-game-confirm"),
    path("groups/<int:group_id>/league/", api.LeagueView.as_view(), name="group-league"),
    path("groups/<int:group_id>/seasons/", api.SeasonListView.as_view(), name="group-seasons"),
]
