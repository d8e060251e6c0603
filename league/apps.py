from django.apps import AppConfig

# The imports of models and services sit inside the functions below: Django reads an apps.py
# before its app registry is ready, when no model may be imported yet.


class LeagueConfig(AppConfig):
    name = "league"
    verbose_name = "Play groups' league"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from django.db.models.signals import post_delete

        from groups.models import Membership
        from league.services import void_unconfirmed

        # However a member goes (leaves, is removed, deletes their account), the games they
        # played that were not yet confirmed are void: nobody can confirm them into the league.
        post_delete.connect(void_unconfirmed, sender=Membership, dispatch_uid="league-void-on-leave")
