"""Rendering user Markdown (webutil.markup) on pathological input: time linear in its size.

    .venv/bin/python bench/markup.py

Prints JSON: for each input of tests/support/markup_inputs.py, the best of five renders at 10 KB
and 80 KB, their ratio, and 20 KB of it against 20 KB of ordinary prose.
Goals: 80 KB within 32× of 10 KB (linear is 8×, quadratic 64×; caches, not the algorithm, make
up the rest), and 20 KB within 60× of ordinary prose of the same size.
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[0] = str(ROOT)  # the project, not bench/ (whose http.py would shadow the standard library)

from tests.support.markup_inputs import PATHOLOGICAL, PLAIN  # noqa: E402
from webutil.markup import render_markdown  # noqa: E402

GOALS = {"growth_80_over_10": 32, "over_plain": 60}
# Timer noise decides nothing below this.
FLOOR = 5e-5


def best(text: str) -> float:
    fastest = float("inf")
    for _ in range(5):
        start = time.perf_counter()
        render_markdown(text)
        fastest = min(fastest, time.perf_counter() - start)
    return max(fastest, FLOOR)


def main() -> None:
    plain = best(PLAIN(20_000))
    rows = {}
    for name, make in PATHOLOGICAL.items():
        small, medium, large = best(make(10_000)), best(make(20_000)), best(make(80_000))
        rows[name] = {
            "ms_10kb": round(small * 1e3, 3),
            "ms_80kb": round(large * 1e3, 3),
            "growth_80_over_10": round(large / small, 1),
            "over_plain": round(medium / plain, 1),
        }
    met = all(r["growth_80_over_10"] <= GOALS["growth_80_over_10"] for r in rows.values()) and all(
        r["over_plain"] <= GOALS["over_plain"] for r in rows.values()
    )
    print(json.dumps({"inputs": rows, "goals": GOALS, "met": met}, ensure_ascii=False, indent=1))


if __name__ == "__main__":
    main()
