from django.urls import path

from moderation import views

app_name = "moderation"
urlpatterns = [
    path("moderation/", views.queue, name="queue"),
    path("moderation/<slug:kind>/<int:item>/", views.decide, name="decide"),
]
