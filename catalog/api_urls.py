"""The API's URLs for the catalogue: cards, their history, sets, the rules and terms (under /api/, namespace `api`)."""

from django.urls import path

from catalog import api as catalog_api

urlpatterns = [
    path("cards/", catalog_api.CardListView.as_view(), name="card-list"),
    path("cards/<str:code>/", catalog_api.CardDetailView.as_view(), name="card-detail"),
    path("cards/<str:code>/history/", catalog_api.CardHistoryView.as_view(), name="card-history"),
    path("sets/", catalog_api.SetListView.as_view(), name="set-list"),
    path("sets/<str:code>/", catalog_api.SetDetailView.as_view(), name="set-detail"),
    path("rules/", catalog_api.RulesView.as_view(), name="rules"),
    path("terms/", catalog_api.TermListView.as_view(), name="terms"),
]
