"""Facts about the shipped catalogue, read from its data file: tests never repeat its size."""

from __future__ import annotations

import json

from catalog.loading import DATA_FILE

DATA = json.loads(DATA_FILE.read_text(encoding="utf-8"))
CARD_COUNT = len(DATA["cards"])
