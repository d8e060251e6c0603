"""The catalogue's URLs (namespace `catalog`): the catalogue's own pages, and the card list and
card pages, which the collection draws with the reader's copies laid over the catalogue (the
catalogue never imports the collection, so the two are joined here, a layer above it)."""

from django.urls import path

from catalog import urls as catalog_urls
from collection import catalog_pages

app_name = "catalog"
urlpatterns = [
    *catalog_urls.urlpatterns,
    path("cards/", catalog_pages.card_list, name="card-list"),
    path("cards/<str:code>/", catalog_pages.card_detail, name="card-detail"),
]
