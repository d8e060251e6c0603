"""Small server-drawn line charts (a card's monthly trend, a player's rating): the points of an
SVG polyline, for a template to draw. Templates do no arithmetic."""

from __future__ import annotations

from collections.abc import Sequence


def polyline(values: Sequence[float], width: int, height: int, low: float = 0.0, high: float | None = None) -> str:
    """`values` spread evenly across `width`, scaled between `low` and `high` (their largest when
    None) into `height` with a 2-unit margin: "x,y x,y …"."""
    top = max(values, default=low) if high is None else high
    span = (top - low) or 1.0
    step = width / max(len(values) - 1, 1)
    return " ".join(f"{k * step:.1f},{height - 2 - (v - low) / span * (height - 4):.1f}" for k, v in enumerate(values))
