from typing import Any

from django.apps import AppConfig
from django.contrib.auth.signals import user_logged_in


def _remember_contributor(sender: Any, request: Any, user: Any, **kwargs: Any) -> None:
    """At log-in, a contributor's header starts counting their reviewed proposals (one query;
    everyone else's pages never ask)."""
    from contributions.context import CONTRIBUTOR
    from contributions.models import Proposal

    if request is not None and hasattr(request, "session") and Proposal.objects.of(user).exists():
        request.session[CONTRIBUTOR] = True


class ContributionsConfig(AppConfig):
    name = "contributions"
    verbose_name = "Contributions"

    def ready(self) -> None:
        user_logged_in.connect(_remember_contributor, dispatch_uid="contributions-remember-contributor")
