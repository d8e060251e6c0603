"""User text the site renders costs work linear in its size (issue: 10,000 `[` took 8.5 s a view).

The time it takes is bench/markup.py's to print (10 KB against 80 KB of each pathological input);
here, what can be counted: the Python steps rendering takes grow at most linearly (a parser
written in Python, as Python-Markdown that was quadratic, shows its work here), and what is
stored grows at most 4× the text (an 80 KB description never turns into megabytes).
"""

from __future__ import annotations

import sys
from types import FrameType
from typing import Any

import pytest
from django.test import Client

from tests.support.deck_helpers import make_deck
from tests.support.markup_inputs import PATHOLOGICAL, PLAIN
from webutil import markup
from webutil.markup import render_markdown

# What rendering may store for each character written: `>` and `<` become `&gt;` and `&lt;`.
GROWTH = 4


def _steps(text: str) -> tuple[int, str]:
    """The Python lines and calls rendering `text` runs (cmark and nh3 count as one call each),
    and the HTML."""
    steps = 0

    def trace(frame: FrameType, event: str, arg: Any) -> Any:
        nonlocal steps
        steps += 1
        return trace

    sys.settrace(trace)
    try:
        html = render_markdown(text)
    finally:
        sys.settrace(None)
    return steps, html


@pytest.mark.parametrize("name", [*PATHOLOGICAL, "plain"])
def test_rendering_work_and_size_stay_linear(name: str) -> None:
    make = PATHOLOGICAL.get(name, PLAIN)
    small_steps, _ = _steps(make(10_000))
    large_steps, html = _steps(make(80_000))
    # The depth guard walks the tags of cmark's answer in C (re.finditer) a few steps a tag.
    assert large_steps <= 8 * small_steps + 64, f"{name}: {small_steps} steps at 10 KB, {large_steps} at 80 KB"
    assert len(html) <= GROWTH * 80_000 + 64, f"{name}: {len(html)} characters stored for 80 KB"


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
        f"/decks/{deck.pk}/build/",
        {"name": "x", "format": "standard", "description": "[" * 10_000, "visibility": "public"},
    )
    calls: list[str] = []
    monkeypatch.setattr(markup.cmarkgfm, "markdown_to_html", lambda *a, **k: calls.append("x") or "")
    for _ in range(3):
        response = Client().get(f"/decks/{deck.pk}/")
        assert response.status_code == 200 and "[" * 100 in response.content.decode()
    assert calls == []
