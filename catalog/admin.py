from django.contrib import admin
from django.db import transaction

from catalog import cache_version
from catalog.models import Card, CardSet, rebuild_search_keys


@admin.register(CardSet)
class CardSetAdmin(admin.ModelAdmin):
    list_display = ["code", "name", "order"]
    ordering = ["order"]


@admin.register(Card)
class CardAdmin(admin.ModelAdmin):
    list_display = ["code", "name", "set", "kind", "cost", "power", "health", "life", "tier", "stars"]
    list_filter = ["set", "kind", "troop_class", "faction", "tier", "stars", "speed", "element"]
    search_fields = ["code", "name", "name_simplified", "pinyin_key", "text"]
    readonly_fields = Card.DERIVED_FIELDS
    list_select_related = ["set"]

    def save_model(self, request, obj, form, change):  # type: ignore[no-untyped-def]
        # A maintainer's correction must refresh the search keys and every cached answer.
        obj.compute_derived()
        super().save_model(request, obj, form, change)
        rebuild_search_keys([obj])
        transaction.on_commit(cache_version.bump)  # once the correction is visible to every reader
