from django.urls import path

from catalog import history, views

app_name = "catalog"
# /cards/ and /cards/<code>/ are added by the root URL file, from the collection's pages (they
# show the reader's copies); these are the catalogue's own.
urlpatterns = [
    path("cards/syntax/", views.syntax, name="syntax"),
    path("rules/", views.rules_page, name="rules"),
    path("rulings/", views.rulings_page, name="rulings"),
    path("rulings/<int:pk>/", views.ruling_page, name="ruling"),
    path("cards/incomplete/", history.incomplete, name="incomplete"),
    path("cards/<str:code>/history/", history.card_history, name="card-history"),
    path("cards/<str:code>/history/feed/", history.ChangesFeed(), name="card-history-feed"),
    path("changes/", history.changes, name="changes"),
    path("changes/feed/", history.ChangesFeed(), name="changes-feed"),
    path("changes/<int:pk>/revert/", history.revert, name="revert"),
    path("cards/<str:code>/face.svg", views.card_face, name="card-face"),
    path("cards/<str:code>/image.png", views.card_image, name="card-image"),
    path("sets/", views.set_list, name="set-list"),
    path("sets/<str:code>/", views.set_detail, name="set-detail"),
]
