"""The inputs that make Markdown parsers slow (the CommonMark spec's pathological list and what
a probe added), each made to a given size: the markup tests and bench/markup.py share them."""

from __future__ import annotations

from collections.abc import Callable


def fit(unit: str, size: int) -> str:
    return (unit * (size // len(unit) + 1))[:size]


def nested_lists(size: int) -> str:
    lines, total, i = [], 0, 0
    while total < size:
        line = "  " * (i % 60) + "- x\n"
        lines.append(line)
        total += len(line)
        i += 1
    return "".join(lines)[:size]


PLAIN: Callable[[int], str] = lambda n: fit("劉備率蜀漢步兵出征，每回合摸兩張牌。The general leads the troops.\n", n)  # noqa: E731
PATHOLOGICAL: dict[str, Callable[[int], str]] = {
    "open brackets": lambda n: "[" * n,
    "close brackets": lambda n: "]" * n,
    "unclosed links": lambda n: fit("[a](", n),
    "images": lambda n: fit("![", n),
    "emphasis runs": lambda n: fit("*a_", n),
    "underscores": lambda n: fit("_a ", n),
    "stars": lambda n: "*" * n,
    "backticks": lambda n: fit("`a``", n),
    "nested lists": nested_lists,
    "one-line lists": lambda n: fit("- ", n),
    "nested quotes": lambda n: ">" * n,
    "quotes in lists": lambda n: fit("> - ", n),
    "long line": lambda n: "a" * n,
    "angle brackets": lambda n: "<" * n,
    "entities": lambda n: fit("&#", n),
    "reference definitions": lambda n: fit("[a]: b\n", n),
    "raw html": lambda n: fit("<div><script>", n),
}
