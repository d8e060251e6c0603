from typing import Any

from django.apps import AppConfig

# The imports of models and services sit inside the functions below: Django reads an apps.py
# before its app registry is ready, when no model may be imported yet.
#
# Why these few writes hang on signals, not on explicit calls: each answers a row of a lower app
# (a group's membership or house format, a collection's allocation) going away however it goes:
# deleted alone, or in a cascade Django runs when a group or an account is deleted, which no
# service of ours sees row by row. The lower app may not import this one (the layers), so this
# one listens; each handler only routes to the service that holds the write (decks.services,
# decks.tasks).


def _register_sqlite_functions(sender: Any, connection: Any, **kwargs: Any) -> None:
    if connection.vendor == "sqlite":
        from decks.needs import sqlite_missing_copies, sqlite_shared_bits

        connection.connection.create_function("zh_missing_copies", 2, sqlite_missing_copies, deterministic=True)
        connection.connection.create_function("zh_shared_bits", 2, sqlite_shared_bits, deterministic=True)


class DecksConfig(AppConfig):
    name = "decks"

    def ready(self) -> None:
        from django.contrib.auth import get_user_model
        from django.db.backends.signals import connection_created
        from django.db.models.signals import post_delete, pre_delete

        from catalog import cache_version
        from decks import comments  # noqa: F401  (registers comments as writing moderation sees)
        from decks.models import Deck, DeckLike
        from decks.services import refresh_after_commit
        from groups.models import HouseFormat, Membership
        from groups.services import format_changed

        connection_created.connect(_register_sqlite_functions, dispatch_uid="decks-sqlite-functions")
        post_delete.connect(_release_allocation, sender=Deck, dispatch_uid="decks-release-allocation")
        post_delete.connect(_unshare, sender=Membership, dispatch_uid="decks-unshare-on-leave")
        cache_version.changed.connect(refresh_after_commit, dispatch_uid="decks-refresh-verdicts")
        format_changed.connect(_recheck_format, dispatch_uid="decks-recheck-house-format")
        post_delete.connect(_house_format_gone, sender=HouseFormat, dispatch_uid="decks-house-format-gone")
        post_delete.connect(_like_gone, sender=DeckLike, dispatch_uid="decks-like-gone")
        pre_delete.connect(_author_gone, sender=get_user_model(), dispatch_uid="decks-comment-author-gone")


def _release_allocation(sender: Any, instance: Any, **kwargs: Any) -> None:
    """However the deck was deleted: one deck, a list of them, or its owner's account."""
    from decks.services import release_allocation

    release_allocation(instance.allocation_id)


def _unshare(sender: Any, instance: Any, **kwargs: Any) -> None:
    from decks.services import unshare_on_leave

    unshare_on_leave(instance.group_id, instance.user_id)


def _recheck_format(sender: Any, key: str, **kwargs: Any) -> None:
    """A house format's rules changed (sent after the commit): its decks are checked again."""
    from decks.tasks import recheck_format

    recheck_format.enqueue(key)


def _house_format_gone(sender: Any, instance: Any, **kwargs: Any) -> None:
    """A house format deleted (alone, or with its group, or with its owner's account): once that
    is committed, its decks move to the default format and are checked in it."""
    from django.db import transaction

    from decks.tasks import recheck_format

    key = instance.key
    transaction.on_commit(lambda: recheck_format.enqueue(key))


def _like_gone(sender: Any, instance: Any, **kwargs: Any) -> None:
    """A like gone: taken back, or with its account (a cascade no service sees row by row)."""
    from decks.likes import forget_like

    forget_like(instance.deck_id, instance.at)


def _author_gone(sender: Any, instance: Any, **kwargs: Any) -> None:
    """An account deleted (by its owner or by staff): its comments say "deleted", replies stay."""
    from decks.comments import forget_author

    forget_author(instance.pk)
