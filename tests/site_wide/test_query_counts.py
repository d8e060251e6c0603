"""Every main page and endpoint costs the same number of queries with 10 cards as with 200."""

from __future__ import annotations

import pytest

from tests.support.query_counts import report


@pytest.mark.django_db
def test_query_counts_do_not_grow_with_the_cards_shown() -> None:
    rows = report()
    unequal = {name: counts for name, counts in rows.items() if counts["10"] != counts["200"]}
    assert unequal == {}, unequal
