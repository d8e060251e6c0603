"""Templates are written one element a line where they are dense, as healthchecks keeps its own
(under 1% of its template lines over 200 characters): a long line is a page nobody can review.
Sentences to translate wrap with {% blocktranslate trimmed %}, which keeps their msgid."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
LONG = 200
# Lines of text inside an SVG <text> or a whole sentence's markup cannot always wrap; none is
# longer than this.
LONGEST = 320
# The pages that were the densest: none of their lines is long now.
REWRITTEN = ("templates/events/_standings.html", "templates/events/day.html", "templates/catalog/card_detail.html")


def _lines() -> list[tuple[str, int, str]]:
    files = sorted([*(ROOT / "templates").rglob("*.*"), *(ROOT / "jinja2").rglob("*.*")])
    return [
        (str(path.relative_to(ROOT)), number, line)
        for path in files
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1)
    ]


def test_few_template_lines_are_long_and_none_very_long() -> None:
    lines = _lines()
    long = [f"{path}:{number} ({len(line)})" for path, number, line in lines if len(line) > LONG]
    assert len(long) <= len(lines) // 100, long
    assert [entry for entry in long if int(entry.rsplit("(", 1)[1][:-1]) > LONGEST] == []


def test_the_densest_pages_have_no_long_line() -> None:
    for path in REWRITTEN:
        assert (ROOT / path).exists(), path
    assert [f"{p}:{n}" for p, n, line in _lines() if p in REWRITTEN and len(line) > LONG] == []
