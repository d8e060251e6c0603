"""The query-count report: each main page and endpoint with its number of SQL queries at 10 and
at 200 cards shown (they must be equal). Prints JSON; exits 1 if any differ.

    .venv/bin/python bench/queries.py      (DATABASE_URL picks the database)
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[0] = str(ROOT)  # the project, not bench/ (whose http.py would shadow the standard library)
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "zongheng.settings")

import django  # noqa: E402

django.setup()

from django.db import connection  # noqa: E402
from django.test.utils import get_runner, setup_test_environment  # noqa: E402


def main() -> int:
    setup_test_environment()
    runner = get_runner(django.conf.settings)(verbosity=0, interactive=False)
    old = runner.setup_databases()
    try:
        from catalog.loading import load_catalog
        from tests.support.query_counts import report

        load_catalog()
        rows = report()
    finally:
        runner.teardown_databases(old)
    equal = all(r["10"] == r["200"] for r in rows.values())
    print(
        json.dumps({"database": connection.vendor, "queries": rows, "all_equal": equal}, ensure_ascii=False, indent=2)
    )
    return 0 if equal else 1


if __name__ == "__main__":
    sys.exit(main())
