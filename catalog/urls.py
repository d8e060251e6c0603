from django.urls import path

from catalog import views

app_name = "catalog"
urlpatterns = [
    path("cards/", views.card_list, name="card-list"),
    path("cards/syntax/", views.syntax, name="syntax"),
    path("cards/<str:code>/", views.card_detail, name="card-detail"),
    path("cards/<str:code>/face.svg", views.card_face, name="card-face"),
    path("sets/", views.set_list, name="set-list"),
    path("sets/<str:code>/", views.set_detail, name="set-detail"),
]
