"""One look for every page: colours, type sizes and spacing come from the variables set once at
the top of site.css, not picked rule by rule."""

from __future__ import annotations

import re
from pathlib import Path

CSS = (Path(__file__).resolve().parents[2] / "static" / "css" / "site.css").read_text()
ROOT_END = CSS.index("}", CSS.index(":root")) + 1
RULES = CSS[ROOT_END:]


def test_colours_are_named_once_at_the_top() -> None:
    literals = re.findall(r"#[0-9a-fA-F]{3,8}\b|\brgba?\(|\bhsla?\(", RULES)
    assert literals == []
    assert len(re.findall(r"--[a-z-]+: *#[0-9a-f]{3,6}", CSS[:ROOT_END])) >= 15


def test_type_sizes_step_along_one_scale() -> None:
    # rem sizes only through --step-*; em (relative to the text around) and SVG's own px stay
    assert re.findall(r"font-size: *[\d.]+rem", RULES) == []
    assert len(re.findall(r"font-size: *var\(--step-", RULES)) >= 20


def test_spacing_steps_along_one_scale() -> None:
    spacing = re.findall(r"\b(?:margin|padding|gap|row-gap|column-gap)[a-z-]*: *([^;}]*)", RULES)
    assert [value for value in spacing if re.search(r"\d*\.?\d+rem", value)] == []
    assert sum("var(--space-" in value for value in spacing) >= 60
