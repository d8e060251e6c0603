from django.urls import path

from groups.views import formats, games
from groups.views import groups as views

app_name = "groups"
urlpatterns = [
    path("groups/", views.my_groups, name="groups"),
    path("groups/join/<str:invite>/", views.join, name="join"),
    path("groups/<int:group_id>/", views.group_page, name="group"),
    path("groups/<int:group_id>/members/", views.add_member, name="add-member"),
    path("groups/<int:group_id>/members/<str:username>/remove/", views.remove_member, name="remove-member"),
    path("groups/<int:group_id>/invite/", views.new_invite, name="new-invite"),
    path("groups/<int:group_id>/delete/", views.delete, name="delete"),
    path("groups/<int:group_id>/formats/new/", formats.new_format, name="new-format"),
    path("groups/<int:group_id>/formats/<int:format_id>/", formats.format_page, name="format"),
    path("groups/<int:group_id>/formats/<int:format_id>/delete/", formats.delete_format, name="delete-format"),
    path("groups/<int:group_id>/games/", games.log_game, name="log-game"),
    path("groups/<int:group_id>/seasons/", games.add_season, name="add-season"),
    path("groups/<int:group_id>/games/<int:game_id>/confirm/", games.confirm_game, name="confirm-game"),
    path("groups/<int:group_id>/games/<int:game_id>/delete/", games.delete_game, name="delete-game"),
]
