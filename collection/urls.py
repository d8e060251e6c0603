from django.urls import path

from collection import views

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
    path("share/<str:token>/", views.shared, name="shared"),
]
