"""User text the site renders costs time linear in its size (issue: 10,000 `[` took 8.5 s a view).

Ratios measured in one run, never absolute times: 80 KB of each pathological input must take
under 32× what 10 KB takes (linear is 8×, quadratic 64×; a ratio of two sizes only twice apart
was at the mercy of one cache miss), and 20 KB stays within a small multiple of ordinary text
of the same size.
"""

from __future__ import annotations

import time
from collections.abc import Callable

import pytest
from django.test import Client

from tests.support.deck_helpers import make_deck
from webutil import markup
from webutil.markup import render_markdown


def _fit(unit: str, size: int) -> str:
    return (unit * (size // len(unit) + 1))[:size]


def _nested_lists(size: int) -> str:
    lines, total, i = [], 0, 0
    while total < size:
        line = "  " * (i % 60) + "- x\n"
        lines.append(line)
        total += len(line)
        i += 1
    return "".join(lines)[:size]


PLAIN: Callable[[int], str] = lambda n: _fit("劉備率蜀漢步兵出征，每回合摸兩張牌。The general leads the troops.\n", n)  # noqa: E731
PATHOLOGICAL: dict[str, Callable[[int], str]] = {
    "open brackets": lambda n: "[" * n,
    "close brackets": lambda n: "]" * n,
    "unclosed links": lambda n: _fit("[a](", n),
    "images": lambda n: _fit("![", n),
    "emphasis runs": lambda n: _fit("*a_", n),
    "underscores": lambda n: _fit("_a ", n),
    "stars": lambda n: "*" * n,
    "backticks": lambda n: _fit("`a``", n),
    "nested lists": _nested_lists,
    "one-line lists": lambda n: _fit("- ", n),
    "nested quotes": lambda n: ">" * n,
    "quotes in lists": lambda n: _fit("> - ", n),
    "long line": lambda n: "a" * n,
    "angle brackets": lambda n: "<" * n,
    "entities": lambda n: _fit("&#", n),
    "reference definitions": lambda n: _fit("[a]: b\n", n),
    "raw html": lambda n: _fit("<div><script>", n),
}
# "A small multiple" of ordinary prose: measured here, the worst input is about 30×.
PLAIN_MULTIPLE = 60


def _seconds(text: str) -> float:
    best = float("inf")
    for _ in range(5):
        start = time.perf_counter()
        render_markdown(text)
        best = min(best, time.perf_counter() - start)
    return best


@pytest.mark.parametrize("name", PATHOLOGICAL)
def test_render_time_grows_linearly(name: str) -> None:
    make = PATHOLOGICAL[name]
    small, medium, large = _seconds(make(10_000)), _seconds(make(20_000)), _seconds(make(80_000))
    plain = _seconds(PLAIN(20_000))
    # A floor of 50 µs keeps timer noise on near-empty work from deciding the ratio. Measured
    # here, the steepest input grows 17.5× from 10 KB to 80 KB: caches, not the algorithm.
    assert max(large, 5e-5) < 32 * max(small, 5e-5), f"{name}: 10 KB {small * 1e3:.2f} ms, 80 KB {large * 1e3:.2f} ms"
    assert medium < PLAIN_MULTIPLE * max(plain, 5e-5), f"{name}: {medium * 1e3:.2f} ms vs plain {plain * 1e3:.2f} ms"


def test_deep_nesting_is_shown_as_text_not_dropped() -> None:
    html = render_markdown("> " * 100 + "深")
    assert "深" in html and "<blockquote>" not in html
    assert "<blockquote>" in render_markdown("> > 淺")


def test_rendering_is_safe() -> None:
    html = render_markdown(
        "**強**\n\n[a](javascript:alert(1)) <img src=x onerror=alert(1)>\n\n<script>alert(1)</script>"
    )
    assert "<strong>強</strong>" in html
    assert "<script" not in html and "javascript:" not in html and "onerror" not in html


def test_a_deck_page_never_renders_markdown(alice, monkeypatch) -> None:
    deck = make_deck(alice, public=True)
    client = Client()
    client.force_login(alice)
    client.post(
        f"/decks/{deck.pk}/build/", {"name": "x", "format": "standard", "description": "[" * 10_000, "public": "on"}
    )
    calls: list[str] = []
    monkeypatch.setattr(markup.cmarkgfm, "markdown_to_html", lambda *a, **k: calls.append("x") or "")
    for _ in range(3):
        response = Client().get(f"/decks/{deck.pk}/")
        assert response.status_code == 200 and "[" * 100 in response.content.decode()
    assert calls == []
