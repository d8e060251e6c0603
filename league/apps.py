from django.apps import AppConfig


class LeagueConfig(AppConfig):
    name = "league"
    verbose_name = "Play groups' pages and league"
    default_auto_field = "django.db.models.BigAutoField"
