from django.apps import AppConfig
from django.db.models.signals import post_delete


class CatalogConfig(AppConfig):
    name = "catalog"
    verbose_name = "Catalogue"

    def ready(self) -> None:
        from catalog import images
        from catalog.models import CardImage

        # However a picture goes (admin, bulk action, a card deleted), its files go with it.
        post_delete.connect(images.forget, sender=CardImage, dispatch_uid="card-image-files")
