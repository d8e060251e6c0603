from django.urls import path

from contributions import review_views, views

app_name = "contributions"
urlpatterns = [
    path("cards/<str:code>/propose/", views.propose, name="propose"),
    path("cards/<str:code>/rulings/propose/", views.propose_ruling, name="propose-ruling"),
    path("cards/<str:code>/propose/read/", views.read_photo, name="read-photo"),
    path("contributions/", views.mine, name="mine"),
    path("contributions/<int:pk>/", views.detail, name="detail"),
    path("contributions/<int:pk>/edit/", views.edit, name="edit"),
    path("contributions/<int:pk>/withdraw/", views.withdraw, name="withdraw"),
    path("contributions/<int:pk>/photos/<str:side>/", views.photo, name="photo"),
    path("contributions/<int:pk>/approve/", views.approve, name="approve"),
    path("contributions/<int:pk>/reject/", views.reject, name="reject"),
    path("review/", views.queue, name="queue"),
    path("cards/<str:code>/reviews/mine/", review_views.write, name="review-write"),
    path("reviews/<int:review_id>/delete/", review_views.delete, name="review-delete"),
    path("reviews/<int:review_id>/helpful/", review_views.helpful, name="review-helpful"),
    path("reviews/<int:review_id>/report/", review_views.report, name="review-report"),
]
