"""The text recogniser: PP-OCR's Chinese models through ONNX Runtime, from the `rapidocr` wheel,
which ships them (nothing is downloaded, ever: a test reads a photo with the network cut).

Loaded once per process, on first use, and only by what reads photos: importing this module
costs nothing, and the web workers never call it. ONNX Runtime runs on one thread a process, so
that the workers of a machine share its cores instead of fighting over them.
"""

from __future__ import annotations

import io
import threading
from typing import Any

from scanning.matching import TextLine

_engines: dict[str, Any] = {}
_lock = threading.Lock()

# The recogniser's settings: one thread, its log quiet, the models of the wheel. Text is found on
# the photo drawn at most 768 pixels on its longer side (a spread of twelve cards still reads
# right: bench/scan.py), then read from the photo itself; the cards are photographed upright, so
# no line is tried upside down (no angle classifier). A page of a paper list holds smaller print
# and is searched at 1,600 pixels.
PARAMS = {
    "Global.log_level": "error",
    "EngineConfig.onnxruntime.intra_op_num_threads": 1,
    "EngineConfig.onnxruntime.inter_op_num_threads": 1,
    "Global.use_cls": False,
    "Det.limit_type": "max",
    "Det.limit_side_len": 768,
}
KINDS = {"cards": PARAMS, "page": {**PARAMS, "Det.limit_side_len": 1600}}


def engine(kind: str = "cards") -> Any:
    """The recogniser of this process for photos of cards or for pages (made on first use)."""
    with _lock:
        if kind not in _engines:
            from rapidocr import RapidOCR

            _engines[kind] = RapidOCR(params=KINDS[kind])
        return _engines[kind]


def model_files() -> list[str]:
    """The model files the installed recogniser uses: all inside the installed packages."""
    from pathlib import Path

    import rapidocr

    return sorted(str(p) for p in (Path(rapidocr.__file__).parent / "models").glob("*.onnx"))


def read_lines(image: Any, kind: str = "cards") -> list[TextLine]:
    """The lines of text in a picture (a Pillow image, already turned by its EXIF orientation),
    each with its box in the picture's pixels and the recogniser's score; `kind` "page" for a
    page of small print (a paper deck list)."""
    import numpy as np

    rgb = image.convert("RGB")
    # OpenCV's order (blue, green, red), in one contiguous block: a reversed view would be
    # copied whole by OpenCV for every line it crops (11 ms a line on a spread of twelve).
    result = engine(kind)(np.ascontiguousarray(np.asarray(rgb)[:, :, ::-1]))
    if result.boxes is None or result.txts is None:
        return []
    lines = []
    for points, text, score in zip(result.boxes, result.txts, result.scores, strict=True):
        xs, ys = [float(p[0]) for p in points], [float(p[1]) for p in points]
        box = (round(min(xs)), round(min(ys)), round(max(xs)), round(max(ys)))
        lines.append(TextLine(str(text), box, float(score)))
    return lines


def read_codes(image: Any) -> list[str]:
    """The texts of the QR codes in a picture (a printed registration sheet carries its deck
    code as one), read by OpenCV's detector: exact, unlike the text recogniser."""
    import cv2
    import numpy as np

    gray = np.asarray(image.convert("L"))
    found, texts, _points, _straight = cv2.QRCodeDetector().detectAndDecodeMulti(gray)
    return [str(t) for t in texts if t] if found else []


def open_image(data: bytes) -> Any:
    """An uploaded file's bytes (checked as an image by the caller) as a Pillow image, turned by
    its EXIF orientation."""
    from PIL import Image, ImageOps

    with Image.open(io.BytesIO(data)) as opened:
        turned = ImageOps.exif_transpose(opened)
        turned.load()
        return turned


def read_bytes(data: bytes) -> list[TextLine]:
    """`read_lines` of an uploaded file's bytes (checked as an image by the caller)."""
    return read_lines(open_image(data))
