from django.conf import settings
from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path
from drf_spectacular.views import SpectacularRedocView, SpectacularSwaggerView

from accounts import views as accounts
from catalog import api as catalog_api
from catalog import urls as catalog_urls
from catalog import views as catalog_views
from collection import api as collection_api
from collection import catalog_pages
from contributions import api as contributions_api
from decks import check_api, deck_api
from events import tournament_api
from zongheng import views as zongheng_views

api_patterns = [
    path("cards/", catalog_api.CardListView.as_view(), name="card-list"),
    path("cards/<str:code>/", catalog_api.CardDetailView.as_view(), name="card-detail"),
    path("cards/<str:code>/history/", catalog_api.CardHistoryView.as_view(), name="card-history"),
    path("cards/<str:code>/proposals/", contributions_api.CardProposalsView.as_view(), name="card-proposals"),
    path("proposals/", contributions_api.ProposalListView.as_view(), name="proposal-list"),
    path("proposals/<int:proposal_id>/", contributions_api.ProposalDetailView.as_view(), name="proposal-detail"),
    path("proposals/<int:proposal_id>/photos/", contributions_api.ProposalPhotoView.as_view(), name="proposal-photos"),
    path("proposals/<int:proposal_id>/approve/", contributions_api.ApproveView.as_view(), name="proposal-approve"),
    path("proposals/<int:proposal_id>/reject/", contributions_api.RejectView.as_view(), name="proposal-reject"),
    path("sets/", catalog_api.SetListView.as_view(), name="set-list"),
    path("sets/<str:code>/", catalog_api.SetDetailView.as_view(), name="set-detail"),
    path("legality/", check_api.LegalityView.as_view(), name="legality"),
    path("collection/", collection_api.CollectionListView.as_view(), name="collection-list"),
    path("collection/stats/", collection_api.CollectionStatsView.as_view(), name="collection-stats"),
    path("collection/<str:code>/", collection_api.CollectionEntryView.as_view(), name="collection-entry"),
    path("decks/", deck_api.DeckListView.as_view(), name="deck-list"),
    path("decks/<int:deck_id>/", deck_api.DeckDetailView.as_view(), name="deck-detail"),
    path("decks/<int:deck_id>/legality/", deck_api.DeckLegalityView.as_view(), name="deck-legality"),
    path("decks/<int:deck_id>/missing/", deck_api.DeckMissingView.as_view(), name="deck-missing"),
    path("decks/<int:deck_id>/export/", deck_api.DeckExportView.as_view(), name="deck-export"),
    path("decks/<int:deck_id>/odds/", deck_api.DeckOddsView.as_view(), name="deck-odds"),
    path("decks/compare/", deck_api.DeckCompareView.as_view(), name="deck-compare"),
    path("events/", tournament_api.EventListView.as_view(), name="event-list"),
    path("events/<int:event_id>/", tournament_api.EventDetailView.as_view(), name="event-detail"),
    path("events/<int:event_id>/players/", tournament_api.PlayerListView.as_view(), name="event-players"),
    path(
        "events/<int:event_id>/players/<int:player_id>/",
        tournament_api.PlayerDetailView.as_view(),
        name="event-player",
    ),
    path("events/<int:event_id>/rounds/", tournament_api.RoundListView.as_view(), name="event-rounds"),
    path(
        "events/<int:event_id>/rounds/<int:number>/results/",
        tournament_api.ResultView.as_view(),
        name="event-results",
    ),
    path("events/<int:event_id>/standings/", tournament_api.StandingsView.as_view(), name="event-standings"),
    path("events/<int:event_id>/top-cut/", tournament_api.TopCutView.as_view(), name="event-top-cut"),
    path("schema/", zongheng_views.SchemaView.as_view(), name="schema"),
    path("docs/", SpectacularSwaggerView.as_view(url_name="api:schema"), name="docs"),
    path("redoc/", SpectacularRedocView.as_view(url_name="api:schema"), name="redoc"),
]

# The catalogue's pages under its own URL names; the card list and card pages come from the
# collection, which lays the reader's copies over the catalogue (the catalogue never imports it).
catalog_patterns = [
    *catalog_urls.urlpatterns,
    path("cards/", catalog_pages.card_list, name="card-list"),
    path("cards/<str:code>/", catalog_pages.card_detail, name="card-detail"),
]

# Who owns each page prefix:
#   /cards/ /sets/            catalog (card list and card pages composed by collection)
#   /check/                   decks: the checker (check_views, check_api)
#   /decks/                   decks: saved decks (deck_views, deck_api)
#   /collection/ /share/      collection
#   /contributions/ /review/ /cards/<code>/propose/   contributions
#   /events/ /e/              events
#   /accounts/                accounts
#   /api/                     each app's API, listed above
#   /media/ /ping/ /healthz /readyz /metrics   zongheng
urlpatterns = [
    path("", catalog_views.home, name="home"),
    path("ping/", zongheng_views.ping, name="ping"),
    path("healthz", zongheng_views.healthz, name="healthz"),
    path("readyz", zongheng_views.readyz, name="readyz"),
    path("metrics", zongheng_views.metrics, name="metrics"),
    path("", include((catalog_patterns, "catalog"))),
    path("", include("decks.urls")),
    path("", include("collection.urls")),
    path("", include("contributions.urls")),
    path("", include("events.urls")),
    path("accounts/signup/", accounts.signup, name="signup"),
    path("accounts/", accounts.account, name="account"),
    path("accounts/token/", accounts.token_create, name="token-create"),
    path("accounts/token/revoke/", accounts.token_revoke, name="token-revoke"),
    path("accounts/sharing/", accounts.sharing, name="sharing"),
    path("accounts/login/", accounts.LoginView.as_view(), name="login"),
    path("accounts/delete/", accounts.delete_account, name="account-delete"),
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
    path("api/", include((api_patterns, "api"))),
    path("i18n/", include("django.conf.urls.i18n")),
    path("admin/", admin.site.urls),
    # Card pictures are served here in every setting (no separate web server is assumed);
    # a front server may take /media/ over from MEDIA_ROOT with the same cache headers.
    path(f"{settings.MEDIA_URL.strip('/')}/<path:path>", zongheng_views.media, name="media"),
]

handler400 = "zongheng.views.bad_request"
handler404 = "zongheng.views.not_found"
handler500 = "zongheng.views.server_error"
