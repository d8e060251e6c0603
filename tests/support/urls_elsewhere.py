"""The site's URLs under another prefix: for tests of URLs remembered per configuration."""

from django.urls import include, path

urlpatterns = [path("elsewhere/", include("zongheng.urls"))]
