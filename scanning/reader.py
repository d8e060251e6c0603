"""The text recogniser: PP-OCR's Chinese models through ONNX Runtime, from the `rapidocr` wheel,
which ships them (nothing is downloaded, ever: a test reads a photo with the network cut).

Loaded once per process, on first use, and only by what reads photos: importing this module
costs nothing, and the web workers never call it. ONNX Runtime runs on one thread a process, so
that the workers of a machine share its cores instead of fighting over them.
"""

from __future__ import annotations

import functools
import io
import threading
from typing import Any

from scanning.matching import TextLine

_engines: dict[str, Any] = {}
_lock = threading.Lock()

# The recogniser's settings: one thread, its log quiet, the models of the wheel. Text is found on
# the photo drawn at most 768 pixels on its longer side (a spread of twelve cards still reads
# right: bench/scan.py), then read from the photo itself; the cards are photographed upright, so
# no line is tried upside down (no angle classifier). A page of a paper list holds smaller print:
# it is searched in bands (see read_page_lines), each drawn 1,100 pixels wide, about the scale a
# whole A4 page drawn 1,600 pixels tall has.
PARAMS = {
    "Global.log_level": "error",
    "EngineConfig.onnxruntime.intra_op_num_threads": 1,
    "EngineConfig.onnxruntime.inter_op_num_threads": 1,
    "Global.use_cls": False,
    "Det.limit_type": "max",
    "Det.limit_side_len": 768,
}
KINDS = {"cards": PARAMS, "page": {**PARAMS, "Det.limit_side_len": 1100}}
# A page's bands: half as tall as the page is wide, each overlapping the next by more than a line
# of print is tall. The detector's memory grows with the pixels it searches at once: a whole page
# of 1,650 × 2,400 took 640 MB above idle, a band takes a third of that.
BAND_HEIGHT = 0.5
BAND_OVERLAP = 0.12
# On a narrow picture (a strip of paper), bands of at least these many pixels.
BAND_MIN, OVERLAP_MIN = 600, 150
# A line this close to a band's inner edge may be cut by it: the neighbouring band has it whole.
EDGE = 2


def engine(kind: str = "cards") -> Any:
    """The recogniser of this process for photos of cards or for pages (made on first use)."""
    with _lock:
        if kind not in _engines:
            from rapidocr import RapidOCR

            _engines[kind] = RapidOCR(params=KINDS[kind])
        return _engines[kind]


def warm() -> None:
    """Load the recognisers and run each once on a small blank picture, so that a worker is at its
    resting size before its first photo (and that photo is not kept waiting while they load)."""
    from PIL import Image

    blank = Image.new("RGB", (320, 240), "white")
    for kind in KINDS:
        _recognise(blank, kind)
    give_back()


def give_back() -> None:
    """Return the memory a reading freed to the system (glibc keeps freed memory for the process
    otherwise: a worker would stay at the size of its largest page, and a decoding child's memory
    would come on top of it). Nothing where the C library is not glibc."""
    trim = _malloc_trim()
    if trim is not None:
        trim(0)


@functools.cache
def _malloc_trim() -> Any:
    """glibc's malloc_trim, found once (find_library asks ldconfig: not at every scan)."""
    import ctypes
    import ctypes.util

    name = ctypes.util.find_library("c")
    try:
        return ctypes.CDLL(name).malloc_trim if name else None
    except (OSError, AttributeError):
        return None


def model_files() -> list[str]:
    """The model files the installed recogniser uses: all inside the installed packages."""
    from pathlib import Path

    import rapidocr

    return sorted(str(p) for p in (Path(rapidocr.__file__).parent / "models").glob("*.onnx"))


def read_lines(image: Any, kind: str = "cards") -> list[TextLine]:
    """The lines of text in a picture (a Pillow image, already turned by its EXIF orientation),
    each with its box in the picture's pixels and the recogniser's score; `kind` "page" for a
    page of small print (a paper deck list)."""
    rgb = image.convert("RGB")
    if kind == "page":
        return read_page_lines(rgb)
    return _recognise(rgb, kind)


def _recognise(rgb: Any, kind: str) -> list[TextLine]:
    import numpy as np

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


def bands(width: int, height: int) -> list[tuple[int, int, int, int]]:
    """The bands a page of this size is searched in, top to bottom: (top, bottom, own_top,
    own_bottom), where a line whose middle lies between own_top and own_bottom is this band's.
    The own parts of the bands tile the page; each band overlaps the next by BAND_OVERLAP of the
    width, so a line shorter than that is whole in the band that owns it."""
    tall = max(BAND_MIN, round(width * BAND_HEIGHT))
    if height <= tall:
        return [(0, height, 0, height)]
    overlap = max(OVERLAP_MIN, round(width * BAND_OVERLAP))
    step = tall - overlap
    tops = [*range(0, height - tall, step), height - tall]
    found = []
    for i, top in enumerate(tops):
        bottom = top + tall
        own_top = 0 if i == 0 else (top + tops[i - 1] + tall) // 2
        own_bottom = height if i == len(tops) - 1 else (bottom + tops[i + 1]) // 2
        found.append((top, bottom, own_top, own_bottom))
    return found


def read_page_lines(rgb: Any) -> list[TextLine]:
    """A page's lines, read a band at a time (see BAND_HEIGHT), each line once."""
    width, height = rgb.size
    lines: list[TextLine] = []
    for top, bottom, own_top, own_bottom in bands(width, height):
        for line in _recognise(rgb.crop((0, top, width, bottom)), "page"):
            left, upper, right, lower = line.box
            cut_above = top > 0 and upper <= EDGE
            cut_below = bottom < height and lower >= bottom - top - EDGE
            middle = top + (upper + lower) / 2
            if cut_above or cut_below or not own_top <= middle < own_bottom:
                continue
            lines.append(TextLine(line.text, (left, upper + top, right, lower + top), line.score))
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
