from django.apps import AppConfig
from django.db.models.signals import post_delete

# The imports of models and services sit inside the functions below: Django reads an apps.py
# before its app registry is ready, when no model may be imported yet.


class CatalogConfig(AppConfig):
    name = "catalog"
    verbose_name = "Catalogue"

    def ready(self) -> None:
        from catalog import images, scans, tasks
        from catalog.models import CardImage, Scan
        from webutil import leases

        leases.recovers("scans", tasks.recover_lost)

        # However a picture goes (admin, bulk action, a card deleted), its files go with it.
        post_delete.connect(images.forget, sender=CardImage, dispatch_uid="card-image-files")
        # And a scan's (its owner deleted, a sheet discarded): the photo read, and the file sent
        # once no other page of it is left.
        post_delete.connect(scans.forget, sender=Scan, dispatch_uid="scan-files")
