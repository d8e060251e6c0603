from __future__ import annotations

from django.contrib import admin

from contributions.models import Proposal


@admin.register(Proposal)
class ProposalAdmin(admin.ModelAdmin):
    """For looking things up; reviews happen at /review/, where the rules (locks, no self-review,
    the three values) are kept."""

    list_display = ["pk", "card", "author", "status", "created_at", "reviewer"]
    list_filter = ["status"]
    list_select_related = ["card", "author", "reviewer"]
    search_fields = ["card__code", "card__name", "author__username", "note"]
    readonly_fields = [f.name for f in Proposal._meta.fields]

    def has_add_permission(self, request: object) -> bool:
        return False
