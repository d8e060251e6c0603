from django.urls import path

from events import views

app_name = "events"
urlpatterns = [
    path("events/", views.my_events, name="mine"),
    path("events/from-files/", views.save_files, name="from-files"),
    path("events/<int:event_id>/", views.detail, name="detail"),
    path("events/<int:event_id>/lock/", views.lock, name="lock"),
    path("events/<int:event_id>/link/", views.new_link, name="new-link"),
    path("events/<int:event_id>/export.csv", views.export_csv, name="export"),
    path("events/<int:event_id>/sheets/", views.sheets, name="sheets"),
    path("events/<int:event_id>/submissions/<int:submission_id>/remove/", views.remove, name="remove"),
    path("events/<int:event_id>/delete/", views.delete, name="delete"),
    path("e/<str:token>/", views.submit, name="submit"),
    path("e/<str:token>/withdraw/", views.withdraw, name="withdraw"),
]
