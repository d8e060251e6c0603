from django.urls import path

from events.views import day as day_views
from events.views import directory as directory_views
from events.views import event_decks as event_deck_views
from events.views import lists as views
from events.views import paper as paper_views
from events.views import player as player_views
from events.views import venue as venue_views

app_name = "events"
urlpatterns = [
    path("events/", directory_views.directory_page, name="directory"),
    path("events/mine/", views.my_events, name="mine"),
    path("events/new/", views.new_event, name="new"),
    path("events/calendar.ics", directory_views.calendar_ics, name="calendar"),
    path("events/feed/", directory_views.EventsFeed(), name="feed"),
    path("events/from-files/", views.save_files, name="from-files"),
    path("events/meta/", venue_views.meta_page, name="meta"),
    path("events/decks/", event_deck_views.search_page, name="event-decks"),
    path("events/decks/<int:deck_id>/", event_deck_views.detail, name="event-deck"),
    path("ratings/", venue_views.ratings_page, name="ratings"),
    path("events/<int:event_id>/", views.detail, name="detail"),
    path("events/<int:event_id>/lock/", views.lock, name="lock"),
    path("events/<int:event_id>/registration/", directory_views.register, name="register"),
    path("events/<int:event_id>/link/", views.new_link, name="new-link"),
    path("events/<int:event_id>/export.csv", views.export_csv, name="export"),
    path("events/<int:event_id>/sheets/", views.sheets, name="sheets"),
    path("events/<int:event_id>/paper/", paper_views.paper_lists, name="paper"),
    path("events/<int:event_id>/paper/<int:paper_id>/", paper_views.paper_detail, name="paper-detail"),
    path(
        "events/<int:event_id>/paper/<int:paper_id>/lines/<int:number>.webp",
        paper_views.paper_crop,
        name="paper-crop",
    ),
    path("events/<int:event_id>/submissions/<int:submission_id>/remove/", views.remove, name="remove"),
    path("events/<int:event_id>/delete/", views.delete, name="delete"),
    path("events/<int:event_id>/day/", day_views.day_page, name="day"),
    path("events/<int:event_id>/day/settings/", day_views.day_settings, name="day-settings"),
    path("events/<int:event_id>/day/judges/", day_views.add_judge, name="day-judges"),
    path("events/<int:event_id>/day/seating/", day_views.seating, name="day-seating"),
    path("events/<int:event_id>/day/check-in/", day_views.check_in_everyone, name="day-check-in-all"),
    path("events/<int:event_id>/day/lists/", day_views.fix_list, name="day-fix-list"),
    path("events/<int:event_id>/day/players/add/", day_views.add_late_player, name="day-add-player"),
    path("events/<int:event_id>/day/players/link/", day_views.link_player, name="day-link-player"),
    path("events/claims/<int:claim_id>/", player_views.claim, name="claim"),
    path("events/<int:event_id>/day/players/<int:player_id>/", day_views.player_action, name="day-player"),
    path("events/<int:event_id>/day/pair/", day_views.pair, name="day-pair"),
    path("events/<int:event_id>/day/swap/", day_views.swap, name="day-swap"),
    path("events/<int:event_id>/day/results/<int:match_id>/", day_views.enter_result, name="day-result"),
    path("events/<int:event_id>/day/rounds/<int:number>/clock/", day_views.round_clock, name="day-clock"),
    path("events/<int:event_id>/day/rounds/<int:number>/tables/", day_views.edit_table, name="day-table"),
    path("events/<int:event_id>/day/rounds/<int:number>/publish/", day_views.publish_round, name="day-publish"),
    path("events/<int:event_id>/day/rounds/<int:number>/delete/", day_views.delete_round, name="day-delete-round"),
    path("events/<int:event_id>/day/penalties/", day_views.give_penalty, name="day-penalty"),
    path(
        "events/<int:event_id>/day/rounds/<int:number>/deck-checks/", day_views.new_deck_check, name="day-deck-checks"
    ),
    path("events/<int:event_id>/day/deck-checks/<int:check_id>/", day_views.deck_check_page, name="day-deck-check"),
    path("events/<int:event_id>/standings.csv", day_views.standings_csv, name="standings-csv"),
    path("events/<int:event_id>/pairings/", day_views.pairings_print, name="pairings"),
    path("t/<str:token>/", venue_views.public_page, name="public"),
    path("t/<str:token>/image.png", venue_views.public_image, name="public-image"),
    path("t/<str:token>/clock/", venue_views.clock_page, name="clock"),
    path("e/<str:token>/check-in/", player_views.player_check_in, name="check-in"),
    path("e/<str:token>/drop/", player_views.player_drop, name="drop"),
    path("e/<str:token>/report/", player_views.player_report, name="report"),
    path("e/<str:token>/", views.submit, name="submit"),
    path("e/<str:token>/withdraw/", views.withdraw, name="withdraw"),
    path("e/<str:token>/registration/", directory_views.register_by_link, name="register-by-link"),
]
