"""A deck as plain data: what every way in (a list, a file, a deck code, JSON) becomes, what a
save writes and what a version keeps. One type for all of them."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass
class DeckData:
    """A deck as plain data: what a save writes and a version keeps."""

    name: str
    format: str
    general: str | None
    main: dict[str, int]
    reinforcements: dict[str, int]
    description: str = ""

    def to_snapshot(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "format": self.format,
            "general": self.general,
            "main": dict(sorted(self.main.items())),
            "reinforcements": dict(sorted(self.reinforcements.items())),
            "description": self.description,
        }

    @classmethod
    def from_snapshot(cls, data: dict[str, Any]) -> DeckData:
        return cls(
            data["name"],
            data["format"],
            data.get("general"),
            dict(data.get("main", {})),
            dict(data.get("reinforcements", {})),
            data.get("description", ""),
        )
