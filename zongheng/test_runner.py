"""Django's test runner, which the benchmarks use to make their throw-away databases."""

from __future__ import annotations

from typing import Any

from django.test.runner import DiscoverRunner

from catalog import cache_version


class Runner(DiscoverRunner):
    def teardown_databases(self, old_config: Any, **kwargs: Any) -> None:
        # PostgreSQL drops no database while a session is open on it: the catalogue version's
        # listening connection (catalog.cache_version) goes first.
        cache_version.stop_listening()
        super().teardown_databases(old_config, **kwargs)
