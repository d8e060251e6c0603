"""Reading cards from photos: which cards a photo shows, found by their printed codes and names
against the catalogue (never trusting the raw text), each with a confidence, alternatives and its
box in the photo.

Pure Python, like rules_check: plain data in (the recogniser's text lines, the catalogue's codes
and names), plain data out; no Django. `scanning.reader` wraps the text recogniser (PP-OCR models
through ONNX Runtime, shipped inside the `rapidocr` wheel: nothing is downloaded) and is imported
only where photos are read.
"""

from scanning.codes import normalize_code
from scanning.matching import Box, CardRef, Found, Reading, TextLine, find_cards

__all__ = ["Box", "CardRef", "Found", "Reading", "TextLine", "find_cards", "normalize_code"]
