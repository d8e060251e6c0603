from django.conf import settings
from django.contrib import admin
from django.urls import include, path
from drf_spectacular.views import SpectacularRedocView, SpectacularSwaggerView

from accounts import api_urls as accounts_api_urls
from catalog import api_urls as catalog_api_urls
from collection import api_urls as collection_api_urls
from contributions import api_urls as contributions_api_urls
from decks import api_urls as decks_api_urls
from decks.views import home as deck_home
from events import api_urls as events_api_urls
from groups import api_urls as groups_api_urls
from zongheng import views as zongheng_views

# Each app's API under /api/ (namespace `api`), and the schema and its documentation.
api_patterns = [
    *catalog_api_urls.urlpatterns,
    *contributions_api_urls.urlpatterns,
    *decks_api_urls.urlpatterns,
    *collection_api_urls.urlpatterns,
    *events_api_urls.urlpatterns,
    *groups_api_urls.urlpatterns,
    *accounts_api_urls.urlpatterns,
    path("schema/", zongheng_views.SchemaView.as_view(), name="schema"),
    path("docs/", SpectacularSwaggerView.as_view(url_name="api:schema"), name="docs"),
    path("redoc/", SpectacularRedocView.as_view(url_name="api:schema"), name="redoc"),
]

# Who owns each page prefix:
#   /cards/ /sets/            catalog (card list and card pages composed by collection)
#   /check/                   decks: the checker (views/checker, api/checker)
#   /decks/ /d/ /             decks: saved decks, unlisted ones by link, the home page (views/)
#   /collection/ /share/      collection
#   /contributions/ /review/ /cards/<code>/propose/   contributions
#   /events/ /e/              events
#   /groups/                  groups: play groups, their shared decks and league (views, api)
#   /accounts/ /u/ /notifications/   accounts: the account, profiles, follows, the bell
#   /comments/                decks: comments on public decks (views/comments, api/comments)
#   /moderation/              moderation: staff's queue of reports and writing to approve
#   /api/                     each app's API, listed above
#   /media/ /ping/ /healthz /readyz /metrics   zongheng
urlpatterns = [
    path("", deck_home.home, name="home"),
    path("ping/", zongheng_views.ping, name="ping"),
    path("healthz", zongheng_views.healthz, name="healthz"),
    path("readyz", zongheng_views.readyz, name="readyz"),
    path("metrics", zongheng_views.metrics, name="metrics"),
    # The API before the pages: its requests are the most, and each is resolved by trying the
    # patterns in order.
    path("api/", include((api_patterns, "api"))),
    path("", include("collection.catalog_urls")),
    path("", include("decks.urls")),
    path("", include("collection.urls")),
    path("", include("contributions.urls")),
    path("", include("events.urls")),
    path("", include("groups.urls")),
    path("", include("moderation.urls")),
    path("", include("accounts.urls")),
    path("i18n/", include("django.conf.urls.i18n")),
    path("admin/", admin.site.urls),
    # Card pictures are served here in every setting (no separate web server is assumed);
    # a front server may take /media/ over from MEDIA_ROOT with the same cache headers.
    path(f"{settings.MEDIA_URL.strip('/')}/<path:path>", zongheng_views.media, name="media"),
]

handler400 = "zongheng.views.bad_request"
handler404 = "zongheng.views.not_found"
handler500 = "zongheng.views.server_error"
