from django.apps import AppConfig


class PeopleConfig(AppConfig):
    name = "people"
    verbose_name = "People"

    def ready(self) -> None:
        from people import profiles  # noqa: F401  (registers profiles as writing moderation sees)
