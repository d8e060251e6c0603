"""Lighthouse on the main pages: `make audit`.

    .venv/bin/python bench/audit.py

A fresh SQLite database is migrated and loaded, a player (alice) with one deck is made, and
gunicorn serves the site with the production settings (DEBUG off, hashed and compressed static
files) on loopback. Lighthouse (npm `lighthouse` 12.2.3, installed under audit/ by `make audit`)
then runs each page in Debian's chromium, headless, with its mobile profile and simulated
throttling; nothing leaves the machine. The builder is audited as alice, through her session
cookie. Prints JSON: each page's scores (0–100) and the goals (accessibility 100, best practices
and performance at least 95); the full reports are written to audit/reports/.
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[0] = str(ROOT)  # the project, not bench/ (whose http.py would shadow the standard library)

import io  # noqa: E402
import json  # noqa: E402
import os  # noqa: E402
import subprocess  # noqa: E402
import tempfile  # noqa: E402

from bench.server import environment, gunicorn  # noqa: E402

LIGHTHOUSE = ROOT / "audit" / "node_modules" / ".bin" / "lighthouse"
REPORTS = ROOT / "audit" / "reports"
CHROMIUM = os.environ.get("CHROME_PATH", "/usr/bin/chromium")
CATEGORIES = ("performance", "accessibility", "best-practices")
GOALS = {"performance": 95, "accessibility": 100, "best-practices": 95}


def prepare(database_url: str) -> tuple[int, str]:
    """The database, static files and alice's deck; returns the deck's id and her cookie."""
    os.environ.update(environment(database_url))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "zongheng.settings")
    import django

    django.setup()
    from django.contrib.auth import get_user_model
    from django.core.management import call_command

    from bench.scale import session_cookie
    from decks.data import DeckData
    from decks.models import Deck
    from decks.services import save_deck

    for command in (("migrate", "--noinput"), ("loadcatalog",), ("collectstatic", "--noinput"), ("translations",)):
        call_command(*command, verbosity=0, stdout=io.StringIO())
    alice = get_user_model().objects.create_user("alice", password="audit-password-long-1")
    main = {f"YXJQ-{n:03d}": 3 for n in range(1, 15)}
    deck = save_deck(Deck(owner=alice), DeckData("蜀國速攻", "standard", "WJ-001", main, {}), note="created")
    return deck.pk, session_cookie(alice.pk)


def lighthouse(url: str, name: str, cookie: str | None) -> dict[str, int]:
    REPORTS.mkdir(parents=True, exist_ok=True)
    report = REPORTS / f"{name}.json"
    command = [
        str(LIGHTHOUSE),
        url,
        "--quiet",
        "--output=json",
        f"--output-path={report}",
        f"--only-categories={','.join(CATEGORIES)}",
        "--chrome-flags=--headless=new --no-sandbox --disable-gpu",
    ]
    if cookie:
        command.append("--extra-headers=" + json.dumps({"Cookie": cookie}))
    for attempt in (1, 2):  # chromium now and then fails to start on a busy machine: once more
        run = subprocess.run(command, env=os.environ | {"CHROME_PATH": CHROMIUM}, capture_output=True, text=True)
        if run.returncode == 0:
            break
        print(f"lighthouse {url} (attempt {attempt}): {run.stderr[-2000:]}", file=sys.stderr)
    else:
        raise RuntimeError(f"lighthouse failed on {url}")
    result = json.loads(report.read_text())
    return {c: round(result["categories"][c]["score"] * 100) for c in CATEGORIES}


def main() -> None:
    if not LIGHTHOUSE.exists():
        sys.exit("Lighthouse is not installed: run `make audit` (npm install under audit/)")
    with tempfile.TemporaryDirectory() as tmp:
        url = f"sqlite:///{tmp}/audit.sqlite3"
        deck, cookie = prepare(url)
        pages = [
            ("home", "/", None),
            ("cards", "/cards/", None),
            ("card", "/cards/YXJQ-003/", None),
            ("builder", f"/decks/{deck}/build/", cookie),
            ("check", "/check/", None),
        ]
        with gunicorn(environment(url), workers=2) as port:
            scores = {path: lighthouse(f"http://127.0.0.1:{port}{path}", name, c) for name, path, c in pages}
    missed = {
        path: {c: s for c, s in got.items() if s < GOALS[c]}
        for path, got in scores.items()
        if any(s < GOALS[c] for c, s in got.items())
    }
    print(json.dumps({"profile": "mobile", "scores": scores, "goals": GOALS, "below_goal": missed}, indent=2))


if __name__ == "__main__":
    main()
