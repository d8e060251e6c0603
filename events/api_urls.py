"""The API's URLs for events and the tournament day (under /api/, namespace `api`)."""

from django.urls import path

from events import api as tournament_api
from events import directory_api, ratings_api

urlpatterns = [
    path("events/", tournament_api.EventListView.as_view(), name="event-list"),
    path("ratings/", ratings_api.RatingsView.as_view(), name="ratings"),
    path("regions/", directory_api.RegionsView.as_view(), name="regions"),
    path("users/<str:username>/events/", directory_api.UserEventsView.as_view(), name="user-events"),
    path(
        "events/<int:event_id>/registration/",
        directory_api.RegistrationView.as_view(),
        name="event-registration",
    ),
    path("events/<int:event_id>/", tournament_api.EventDetailView.as_view(), name="event-detail"),
    path("events/<int:event_id>/players/", tournament_api.PlayerListView.as_view(), name="event-players"),
    path(
        "events/<int:event_id>/players/<int:player_id>/",
        tournament_api.PlayerDetailView.as_view(),
        name="event-player",
    ),
    path("events/<int:event_id>/rounds/", tournament_api.RoundListView.as_view(), name="event-rounds"),
    path("events/<int:event_id>/rounds/<int:number>/", tournament_api.RoundDetailView.as_view(), name="event-round"),
    path(
        "events/<int:event_id>/rounds/<int:number>/tables/<int:table>/",
        tournament_api.TableView.as_view(),
        name="event-table",
    ),
    path(
        "events/<int:event_id>/rounds/<int:number>/deck-checks/",
        tournament_api.DeckCheckView.as_view(),
        name="event-deck-checks",
    ),
    path(
        "events/<int:event_id>/rounds/<int:number>/publish/",
        tournament_api.PublishView.as_view(),
        name="event-publish",
    ),
    path("events/<int:event_id>/penalties/", tournament_api.PenaltyListView.as_view(), name="event-penalties"),
    path(
        "events/<int:event_id>/rounds/<int:number>/results/",
        tournament_api.ResultView.as_view(),
        name="event-results",
    ),
    path(
        "events/<int:event_id>/rounds/<int:number>/clock/",
        tournament_api.ClockView.as_view(),
        name="event-clock",
    ),
    path("events/<int:event_id>/standings/", tournament_api.StandingsView.as_view(), name="event-standings"),
    path("events/<int:event_id>/export/", tournament_api.ExportView.as_view(), name="event-export"),
    path("events/<int:event_id>/top-cut/", tournament_api.TopCutView.as_view(), name="event-top-cut"),
]
