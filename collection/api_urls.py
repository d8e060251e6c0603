"""The API's URLs for my collection (under /api/, namespace `api`)."""

from django.urls import path

from collection import api as collection_api

urlpatterns = [
    path("collection/", collection_api.CollectionListView.as_view(), name="collection-list"),
    path("collection/stats/", collection_api.CollectionStatsView.as_view(), name="collection-stats"),
    path("collection/<str:code>/", collection_api.CollectionEntryView.as_view(), name="collection-entry"),
    path("scans/", collection_api.ScanListView.as_view(), name="scan-list"),
    path("scans/<int:scan_id>/", collection_api.ScanDetailView.as_view(), name="scan-detail"),
    path("scans/<int:scan_id>/apply/", collection_api.ScanApplyView.as_view(), name="scan-apply"),
]
