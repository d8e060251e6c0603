"""Card faces drawn from a card's data (no image files): colours for the frame by kind and for
the metal by rarity tier. The SVG itself is a template (templates/catalog/face.svg)."""

from __future__ import annotations

FRAME = {
    "general": "#8c2f1b",
    "awakened_general": "#5b1f6a",
    "vice_general": "#6a4a1f",
    "troop": "#2f5d3a",
    "tactic": "#1f4a6a",
    "reinforcement": "#555a60",
}
METAL = {
    "iron": "#6d7073",
    "bronze": "#b0703f",
    "silver": "#a9b0b8",
    "gold": "#d4a82a",
    "jade": "#3fa37c",
    None: "#c9c2b4",  # rarity unknown
}


def colours(kind: str, tier: str | None) -> dict[str, str]:
    return {"frame": FRAME.get(kind, "#444"), "metal": METAL.get(tier, METAL[None])}
