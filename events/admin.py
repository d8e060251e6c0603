from django.contrib import admin

from events.models import Event, Submission


class SubmissionInline(admin.TabularInline):
    model = Submission
    extra = 0
    fields = readonly_fields = ("player_name", "player", "file_name", "submitted_at")


@admin.register(Event)
class EventAdmin(admin.ModelAdmin):
    list_display = ["name", "organiser", "format", "deadline", "locked_at"]
    list_select_related = ["organiser"]
    search_fields = ["name", "organiser__username"]
    inlines = [SubmissionInline]
