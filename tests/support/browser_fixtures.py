"""What the end-to-end tests share (their fixtures, `browser` and `site`, are in conftest.py)."""

from __future__ import annotations

import os
from pathlib import Path

CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "screenshots"
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 900}

# Playwright's sync API runs an event loop; Django must allow its ORM calls from test code here.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
