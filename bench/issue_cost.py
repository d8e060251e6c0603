"""What an issue added to the pages everyone uses: the builder, the collection and the deck lists,
one request at a time, at a commit before the issue and now.

    .venv/bin/python bench/issue_cost.py [--before 15c5a1b] [--after HEAD] [--requests 300]

Each commit is checked out in a worktree of its own and given a database of its own on the
PostgreSQL of BENCH_COST_URL (by default 127.0.0.1, databases zongheng_bench_cost_before and
_after), migrated and loaded with its catalogue. The same data is then written through each
commit's own code (tests.support.deck_helpers.make_deck, which both sides have): a reader with a
collection of 200 cards and 30 decks, and 300 public decks of others. Each page is asked
`--requests` times in-process through Django's test client (production settings), its queries
counted once. Prints JSON: p50 and p99 per page and side, the queries, and their ratios; the goal
is judged on the medians (a p99 of 300 requests is their third slowest, moved by any pause).

#51's goal: the builder, the collection and the deck list cost at most 1.5x what they cost before
it (15c5a1b is the last commit before its first, "Decks keep their card set"). #52's: the builder,
the deck page and the card list, marking terms, at most 1.5x (45d86ef is the last before it).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[0] = str(ROOT)  # the project, not bench/ (whose http.py would shadow the standard library)

from bench.server import environment, fresh_postgres  # noqa: E402

BASE_URL = os.environ.get("BENCH_COST_URL", "postgres://postgres@127.0.0.1:5432/zongheng_bench_cost")
GOAL_RATIO = 1.5

# Run inside each worktree by its own code: it must use only what both commits have.
CHILD = r"""
import io, json, os, sys, time
sys.path[0] = os.getcwd()
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "zongheng.settings")
import django
django.setup()
from django.core.management import call_command
for command in (("migrate", "--noinput"), ("loadcatalog",), ("collectstatic", "--noinput"), ("translations",)):
    call_command(*command, verbosity=0, stdout=io.StringIO())
from django.contrib.auth import get_user_model
from django.db import connection
from django.test import Client
from catalog.models import Card
from collection.models import CollectionEntry
from tests.support.deck_helpers import make_deck

requests = int(sys.argv[1])
users = get_user_model().objects
reader = users.create_user("reader", password="pw-bench-reader-1")
cards = list(Card.objects.order_by("pk")[:200])
CollectionEntry.objects.bulk_create(
    CollectionEntry(user=reader, card=card, quantity=1 + i % 3, foil_quantity=i % 2) for i, card in enumerate(cards)
)
mine = [make_deck(reader, name=f"我的牌庫{i}", public=i % 2 == 0) for i in range(30)]
for u in range(30):
    other = users.create_user(f"builder{u}", password="pw-bench-builder-1")
    for i in range(10):
        make_deck(other, name=f"公開{u}-{i}", public=True)
pages = {
    "builder": f"/decks/{mine[0].pk}/build/",
    "collection": "/collection/",
    "my decks": "/decks/mine/",
    "public decks": "/decks/",
    "deck page": f"/decks/{mine[0].pk}/",
    "card list": "/cards/",
    "card page": "/cards/WJ-001/",
}
client = Client()
client.force_login(reader)
out = {}
for name, path in pages.items():
    queries = []
    with connection.execute_wrapper(lambda run, sql, *rest: queries.append(sql) or run(sql, *rest)):
        answer = client.get(path)
    assert answer.status_code == 200, (name, answer.status_code)
    for _ in range(20):  # warm: templates compiled, caches filled
        client.get(path)
    times = []
    for _ in range(requests):
        started = time.perf_counter()
        client.get(path)
        times.append((time.perf_counter() - started) * 1000)
    times.sort()
    # Judged on the median: one request at a time, what a page costs; a p99 of a few hundred
    # requests is the third slowest, moved by any pause of the machine.
    out[name] = {
        "p50_ms": round(times[len(times) // 2], 2),
        "p99_ms": round(times[min(len(times) - 1, int(len(times) * 0.99))], 2),
        "queries": len(queries),
    }
print(json.dumps(out))
"""


def run(commit: str, label: str, requests: int) -> dict[str, dict[str, float]]:
    url = f"{BASE_URL}_{label}"
    if not fresh_postgres(url):
        sys.exit("bench/issue_cost.py needs PostgreSQL (BENCH_COST_URL)")
    with tempfile.TemporaryDirectory(prefix=f"cost-{label}-") as folder:
        tree = Path(folder) / "tree"
        add = ["git", "worktree", "add", "--detach", str(tree), commit]
        subprocess.run(add, cwd=ROOT, check=True, capture_output=True)
        try:
            (tree / "bench_cost_child.py").write_text(CHILD, encoding="utf-8")
            done = subprocess.run(
                [sys.executable, "bench_cost_child.py", str(requests)],
                cwd=tree,
                env=environment(url),
                check=True,
                capture_output=True,
                text=True,
            )
        finally:
            subprocess.run(["git", "worktree", "remove", "--force", str(tree)], cwd=ROOT, check=False)
    return json.loads(done.stdout.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--before", default="15c5a1b", help="the last commit before the issue")
    parser.add_argument("--after", default="HEAD")
    parser.add_argument("--requests", type=int, default=300)
    args = parser.parse_args()
    before = run(args.before, "before", args.requests)
    after = run(args.after, "after", args.requests)
    ratios = {name: round(after[name]["p50_ms"] / before[name]["p50_ms"], 2) for name in before}
    report = {
        "before": {"commit": args.before, **before},
        "after": {"commit": args.after, **after},
        "p50_ratio": ratios,
        "p99_ratio": {name: round(after[name]["p99_ms"] / before[name]["p99_ms"], 2) for name in before},
        "over_goal": {name: r for name, r in ratios.items() if r > GOAL_RATIO},
    }
    print(json.dumps(report, ensure_ascii=False, indent=2))


if __name__ == "__main__":
    main()
