from django.urls import path

from collection import scan_views, views

app_name = "collection"
urlpatterns = [
    path("collection/", views.mine, name="mine"),
    path("collection/cards/<str:code>/", views.change, name="change"),
    path("collection/completion/", views.completion, name="completion"),
    path("collection/missing/<str:code>/", views.missing, name="missing"),
    path("collection/trade/", views.trade, name="trade"),
    path("collection/wanted/<str:code>/", views.wanted, name="wanted"),
    path("collection/history/", views.history, name="history"),
    path("collection/history/<int:change_id>/undo/", views.undo, name="undo"),
    path("collection/export.csv", views.export, name="export"),
    path("collection/import/", views.import_csv, name="import"),
    path("collection/scan/", scan_views.scan_page, name="scan"),
    path("collection/scan/<int:scan_id>/", scan_views.scan_detail, name="scan-detail"),
    path("collection/scan/<int:scan_id>/crop/<int:number>.webp", scan_views.scan_crop, name="scan-crop"),
    path("share/<str:token>/", views.shared, name="shared"),
]
