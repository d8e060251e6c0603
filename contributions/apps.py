from typing import Any

from django.apps import AppConfig
from django.contrib.auth.signals import user_logged_in

# The imports of models and services sit inside the functions below: Django reads an apps.py
# before its app registry is ready, when no model may be imported yet.


def _remember_contributor(sender: Any, request: Any, user: Any, **kwargs: Any) -> None:
    """At log-in, a contributor's header starts counting their reviewed proposals, and a
    curator's links to the review queue (a query each at log-in; no page asks again)."""
    from catalog import facts
    from contributions.context import CONTRIBUTOR, CURATOR
    from contributions.models import Proposal

    if request is None or not hasattr(request, "session"):
        return
    if Proposal.objects.of(user).exists():
        request.session[CONTRIBUTOR] = True
    if facts.is_curator(user):
        request.session[CURATOR] = True


class ContributionsConfig(AppConfig):
    name = "contributions"
    verbose_name = "Contributions"

    def ready(self) -> None:
        from contributions import reviews, tasks  # noqa: F401  (reviews: writing moderation sees)
        from webutil import leases

        leases.recovers("proposal photos", tasks.recover_lost)
        user_logged_in.connect(_remember_contributor, dispatch_uid="contributions-remember-contributor")
