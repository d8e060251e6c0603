"""What a repeated row costs: sixty of each row the pages repeat (webutil.rows), drawn as the
site draws them, on the real catalogue. Prints JSON: microseconds a row (the best of 50 pages).

    .venv/bin/python bench/rows.py      (DATABASE_URL picks the database)
"""

from __future__ import annotations

import json
import os
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path[0] = str(ROOT)  # the project, not bench/ (whose http.py would shadow the standard library)
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "zongheng.settings")

import django  # noqa: E402

django.setup()

from django.test.utils import get_runner, setup_test_environment  # noqa: E402

ROWS = 60
ROUNDS = 50
# Each row as a page writes it: the lists in one tag, the counter and the face alone (the card
# list and a deck's face grid call them in a loop of the template language).
TAGS = {
    "counter": "{% for card in cards %}{% counter card compact=True %}{% endfor %}",
    "own_rows": "{% own_rows cards %}",
    "search_results": "{% search_results cards change %}",
    "deck_lines": '{% deck_lines lines "main" True None True change %}',
    "face_image": "{% for card in cards %}{% face_image card %}{% endfor %}",
}


def measure() -> dict[str, Any]:
    from django.contrib.auth import get_user_model
    from django.core.signals import request_started
    from django.middleware.csrf import get_token
    from django.template import engines
    from django.template.context_processors import csrf
    from django.test import RequestFactory
    from django.utils import translation

    from catalog.loading import load_catalog
    from catalog.models import Card
    from collection import queries
    from collection.models import CollectionEntry

    load_catalog()
    user = get_user_model().objects.create_user("reader")
    cards = list(Card.objects.all()[:ROWS])
    CollectionEntry.objects.bulk_create([CollectionEntry(user=user, card=card, quantity=2) for card in cards])
    cards = list(queries.with_counts(Card.objects.filter(pk__in=[c.pk for c in cards]), user))
    request = RequestFactory().get("/collection/")
    request.user, request.session = user, {}
    get_token(request)

    class Line:  # what a deck line reads of a deck's line
        def __init__(self, card: Any) -> None:
            self.card, self.owned, self.missing, self.held, self.over_committed = card, 1, 1, [], False
            self.entry = type("Entry", (), {"count": 2})()

    lines = [Line(card) for card in cards]
    request_started.send(sender=None)  # what a request remembers (the catalogue version), it remembers
    result: dict[str, Any] = {"rows": ROWS}
    for language in ("zh-hant", "en"):
        translation.activate(language)
        for name, tag in TAGS.items():
            template = engines["django"].from_string("{% load counters deck_rows cards %}" + tag)
            context = {"cards": cards, "lines": lines, "user": user, "request": request, "change": "/decks/1/change/"}
            context |= csrf(request)
            for _ in range(3):
                template.render(context, request)
            # The best of several rounds: a shared machine's pauses only ever add time.
            times = []
            for _ in range(ROUNDS):
                started = time.perf_counter()
                template.render(context, request)
                times.append(time.perf_counter() - started)
            seconds = min(times)
            result[f"{name} ({language}), µs a row"] = round(seconds / ROWS * 1e6, 1)
    return result


def main() -> int:
    setup_test_environment()
    runner = get_runner(django.conf.settings)(verbosity=0, interactive=False)
    old = runner.setup_databases()
    try:
        report = measure()
    finally:
        runner.teardown_databases(old)
    print(json.dumps(report, ensure_ascii=False, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
