"""The catalogue's version on PostgreSQL: heard through LISTEN/NOTIFY, read from its row only
after a change, inside a transaction, or when the listening connection is lost. Real commits
(transactional tests) and a real second process for the edit made elsewhere."""

from __future__ import annotations

import pytest
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext

from catalog import cache_version
from catalog.models import CatalogState
from tests.support.servers import manage, server_env

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def postgresql() -> None:
    if connection.vendor != "postgresql":
        pytest.skip("LISTEN/NOTIFY is PostgreSQL's; on SQLite the row is read on every request")


def _row() -> str | None:
    return cache_version._read()


def _bump_in_another_process() -> None:
    """As another worker or server does: its own process, its own connection, a real commit."""
    settings = connection.settings_dict
    url = f"postgres://{settings['USER']}@{settings['HOST']}:{settings['PORT']}/{settings['NAME']}"
    manage(server_env(url), "shell", "-c", "from catalog import cache_version; cache_version.bump()")


def test_the_version_is_heard_not_read_until_it_changes(postgresql: None) -> None:
    first = cache_version.current()
    with CaptureQueriesContext(connection) as queries:
        assert [cache_version.current() for _ in range(20)] == [first] * 20
    assert len(queries) == 0
    _bump_in_another_process()
    changed = _row()
    assert changed != first
    with CaptureQueriesContext(connection) as queries:
        assert cache_version.current() == changed  # at once, with no wait
        assert cache_version.current() == changed
    assert len(queries) == 1  # the row, read once after the notice


def test_a_row_made_by_the_first_read_is_not_read_again(postgresql: None) -> None:
    """A new or flushed database has no row: the first read makes it, and what it made is what
    the listener remembers (the next requests make no query until a change)."""
    CatalogState.objects.all().delete()
    cache_version._rewritten()  # as a flush says
    made = cache_version.current()
    assert _row() == made
    with CaptureQueriesContext(connection) as queries:
        assert [cache_version.current() for _ in range(20)] == [made] * 20
    assert len(queries) == 0


def test_a_bump_here_is_seen_here_at_once(postgresql: None) -> None:
    first = cache_version.current()
    cache_version.bump()
    assert cache_version.current() == _row() != first


def test_inside_a_transaction_the_row_is_read_and_a_rolled_back_bump_leaves_no_trace(postgresql: None) -> None:
    first = cache_version.current()

    class Undo(Exception):
        pass

    with pytest.raises(Undo), transaction.atomic():
        cache_version.bump()
        assert cache_version.current() == _row() != first  # the transaction's own bump
        raise Undo
    assert cache_version.current() == first == _row()


def test_a_lost_listening_connection_falls_back_to_the_row(postgresql: None) -> None:
    cache_version.current()
    listener = cache_version._listener
    assert listener.conn is not None
    with connection.cursor() as cursor:  # the server ends the listener's session, as a restart would
        cursor.execute("SELECT pg_terminate_backend(%s)", [listener.conn.info.backend_pid])
    _bump_in_another_process()
    assert cache_version.current() == _row()
    assert listener.conn is None  # dropped; tried again after RETRY_SECONDS, the row read meanwhile
    _bump_in_another_process()
    assert cache_version.current() == _row()
    listener.retry_at = 0.0
    assert cache_version.current() == _row()
    assert listener.conn is not None  # listening again
