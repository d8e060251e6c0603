from django.urls import path

from decks import views

app_name = "decks"
urlpatterns = [
    path("check/", views.check_deck, name="check"),
]
