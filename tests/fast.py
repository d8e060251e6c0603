"""What `make test-fast` runs: the tests of the apps changed against main (committed or not, and
the test files changed themselves), and the fast tests (the pure packages' and the parsers',
FAST), for the edit-test loop. CI runs the whole suite.

    .venv/bin/python tests/fast.py        # prints the test paths, one a line
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# Always run: seconds each, and the core every feature rests on.
FAST = (
    "tests/rules_check",
    "tests/tournament",
    "tests/drawing",
    "tests/scanning/test_matching.py",
    "tests/scanning/test_sheet.py",
    "tests/catalog/test_data_file.py",
)


def _git(*args: str) -> list[str]:
    done = subprocess.run(["git", *args], cwd=ROOT, capture_output=True, text=True, check=False)
    return done.stdout.split() if done.returncode == 0 else []


def changed_files() -> set[str]:
    """Files changed since this branch left main (the remote's when there is one), committed or
    not, and new files git does not ignore."""
    for main in ("origin/main", "main"):
        base = _git("merge-base", "HEAD", main)
        if base:
            break
    files = set(_git("diff", "--name-only", base[0])) if base else set()
    return files | set(_git("ls-files", "--others", "--exclude-standard"))


def selected(changed: set[str]) -> list[str]:
    paths = set(FAST)
    for name in changed:
        top = name.split("/", 1)[0]
        if name.startswith("tests/") and Path(name).name.startswith("test_") and (ROOT / name).exists():
            paths.add(name)
        elif (ROOT / "tests" / top).is_dir() and top not in ("support", "site_wide"):
            paths.add(f"tests/{top}")
    # A folder covers the files inside it.
    folders = {p for p in paths if (ROOT / p).is_dir()}
    return sorted(p for p in paths if not any(p != f and p.startswith(f + "/") for f in folders))


if __name__ == "__main__":
    sys.stdout.write("\n".join(selected(changed_files())) + "\n")
