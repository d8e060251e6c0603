from django.apps import AppConfig


class GroupsConfig(AppConfig):
    name = "groups"
    verbose_name = "Play groups"
    default_auto_field = "django.db.models.BigAutoField"
