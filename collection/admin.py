from django.contrib import admin

from collection.models import CollectionChange, CollectionEntry, ShareLink, WishlistEntry


@admin.register(CollectionEntry)
class CollectionEntryAdmin(admin.ModelAdmin):
    list_display = ["user", "card", "quantity", "foil_quantity"]
    list_select_related = ["user", "card"]
    search_fields = ["user__username", "card__code", "card__name"]
    raw_id_fields = ["user", "card"]


@admin.register(CollectionChange)
class CollectionChangeAdmin(admin.ModelAdmin):
    list_display = ["at", "user", "card", "quantity_before", "quantity_after", "foil_before", "foil_after", "source"]
    list_select_related = ["user", "card"]
    list_filter = ["source", "undone"]
    raw_id_fields = ["user", "card"]


admin.site.register(WishlistEntry)
admin.site.register(ShareLink)
