from django.apps import AppConfig


class CollectionConfig(AppConfig):
    name = "collection"
