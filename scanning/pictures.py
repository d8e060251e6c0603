"""Photos and PDF pages as the reader takes them: judged cheaply from their headers, then decoded
within bounds, away from the process that asked.

A web request only *inspects* (`inspect_image`, `inspect_pdf`): the format, the size a header
declares, a PNG's chunk structure, a PDF's page count and each page's MediaBox; nothing is
decoded or rendered, so a small file that claims a huge canvas, a PDF of absurd pages or a page
tree that loops costs it nothing. The worker then *decodes* (`decode_image`, `render_page`) in a
child process of its own (`run_bounded`), under a memory limit and a time limit: a decompression
or content-stream bomb kills the child, never the worker, and the memory it took goes back.

Pure Python on Pillow, pi-heif and pypdfium2: plain bytes in, plain bytes out, and a
`PictureError` with a stable code for every refusal (the Django side words it for the user).
"""

from __future__ import annotations

import io
import json
import resource
import subprocess
import sys
import warnings
from dataclasses import dataclass
from pathlib import Path
from typing import Any

PHOTO_FORMATS = frozenset({"JPEG", "PNG", "WEBP", "HEIF"})
# How each kind of file begins: JPEG, PNG, WebP (RIFF…WEBP), HEIC/HEIF (…ftyp), PDF.
_JPEG, _PNG, _RIFF, _PDF = b"\xff\xd8", b"\x89PNG", b"RIFF", b"%PDF-"
_HEIF_BRANDS = (b"heic", b"heix", b"heim", b"heis", b"hevc", b"hevx", b"mif1", b"msf1", b"avif")


class PictureError(ValueError):
    """A file refused: `code` is stable (tests and the adapter's messages use it), `detail` holds
    the figures a message names."""

    def __init__(self, code: str, **detail: float) -> None:
        super().__init__(code)
        self.code = code
        self.detail = detail


@dataclass(frozen=True)
class Header:
    """What a file says of itself, read without decoding it."""

    kind: str  # "JPEG", "PNG", "WEBP", "HEIF" or "PDF"
    width: int = 0  # a photo's declared pixels (0 for a PDF)
    height: int = 0
    pages: int = 1


@dataclass(frozen=True)
class PageLimits:
    """A PDF page as the worker renders it: each side of its MediaBox in points within
    [min_side, max_side], the longer at most `max_ratio` times the shorter, drawn at most
    max_width × max_height pixels."""

    max_pages: int
    min_side: float
    max_side: float
    max_ratio: float
    max_width: int
    max_height: int


def sniff(data: bytes) -> str | None:
    """The kind of file its first bytes say it is, or None."""
    if data.startswith(_PDF):
        return "PDF"
    if data.startswith(_JPEG):
        return "JPEG"
    if data.startswith(_PNG):
        return "PNG"
    if data.startswith(_RIFF) and data[8:12] == b"WEBP":
        return "WEBP"
    if data[4:8] == b"ftyp" and data[8:12] in _HEIF_BRANDS:
        return "HEIF"
    return None


def _heif() -> None:
    # iPhones save HEIC: pi-heif (libheif, decoding only) teaches Pillow to open it.
    from pi_heif.as_plugin import register_heif_opener

    register_heif_opener()


def inspect_image(data: bytes, *, max_pixels: int, max_pixels_per_byte: int) -> Header:
    """The header of a photo, checked: a photo format, its declared pixels within `max_pixels`
    and plausible for the file's size, and (PNG, WebP) its structure whole; nothing decoded."""
    from PIL import Image, UnidentifiedImageError

    if not data:
        raise PictureError("empty")
    kind = sniff(data)
    if kind is None or kind == "PDF":
        raise PictureError("not_a_photo")
    if kind == "HEIF":
        _heif()
    with warnings.catch_warnings():
        warnings.simplefilter("error", Image.DecompressionBombWarning)
        try:
            with Image.open(io.BytesIO(data), formats=[kind]) as probe:  # reads the header only
                width, height = probe.size
                if width < 1 or height < 1:
                    raise PictureError("corrupt")
                pixels = width * height
                if pixels > max_pixels:
                    raise PictureError("too_many_pixels", megapixels=pixels / 1e6, limit=max_pixels / 1e6)
                if pixels > max_pixels_per_byte * len(data):
                    raise PictureError("implausible", megapixels=pixels / 1e6, kilobytes=len(data) / 1024)
                if kind == "PNG" and b"IDAT" not in data:
                    raise PictureError("corrupt")  # a header and no pixel data at all
                probe.verify()  # a PNG's chunks and checksums, without inflating them
        except PictureError:
            raise
        except UnidentifiedImageError:
            raise PictureError("not_a_photo") from None
        except (Image.DecompressionBombError, Image.DecompressionBombWarning):
            raise PictureError("too_many_pixels", megapixels=0, limit=max_pixels / 1e6) from None
        except Exception:  # whatever a malformed header makes Pillow raise is a bad file
            raise PictureError("corrupt") from None
    return Header(kind, width, height)


def inspect_pdf(data: bytes, limits: PageLimits) -> Header:
    """A PDF's pages, counted and measured from their MediaBox without rendering any: at most
    `max_pages`, each of a size a sheet of paper has."""
    import pypdfium2

    try:
        document = pypdfium2.PdfDocument(data)
    except Exception:  # pdfium's refusal of any kind
        raise PictureError("pdf_unreadable") from None
    try:
        pages = len(document)
        if pages < 1:
            raise PictureError("pdf_unreadable")
        if pages > limits.max_pages:
            raise PictureError("pdf_too_many_pages", pages=pages, limit=limits.max_pages)
        for number in range(pages):
            try:
                page = document[number]
                left, bottom, right, top = page.get_mediabox()
                page.close()
            except Exception:  # a page tree that loops or lies fails here
                raise PictureError("pdf_unreadable") from None
            width, height = abs(right - left), abs(top - bottom)
            short, long = min(width, height), max(width, height)
            if short < limits.min_side or long > limits.max_side or long > limits.max_ratio * short:
                raise PictureError("pdf_page_size", page=number + 1, width=width, height=height)
        return Header("PDF", pages=pages)
    finally:
        document.close()


def decode_image(data: bytes, *, max_pixels: int, longest: int) -> tuple[bytes, int, int]:
    """A photo decoded, turned upright by its EXIF orientation, at most `longest` pixels on its
    longer side, re-encoded as WebP from its pixels alone (no metadata follows). Returns the WebP
    and its size. JPEGs are decoded at a reduced scale where that suffices (less memory)."""
    from PIL import Image, ImageOps

    header = inspect_image(data, max_pixels=max_pixels, max_pixels_per_byte=sys.maxsize)
    if header.kind == "HEIF":
        _heif()
    Image.MAX_IMAGE_PIXELS = max_pixels
    with Image.open(io.BytesIO(data), formats=[header.kind]) as image:
        if header.kind == "JPEG":
            image.draft("RGB", (longest, longest))  # decodes at 1/2, 1/4 or 1/8 when that is enough
        image.load()
        # Made small first, so that at most one full-size copy of the pixels is ever held.
        image.thumbnail((longest, longest), Image.Resampling.LANCZOS)
        upright = ImageOps.exif_transpose(image)
    mode = "RGBA" if upright.mode in ("RGBA", "LA", "PA") or "transparency" in upright.info else "RGB"
    pixels = upright.convert(mode)
    bare = Image.frombytes(mode, pixels.size, pixels.tobytes())  # nothing of the original's info
    out = io.BytesIO()
    bare.save(out, "WEBP", quality=85, method=4)
    return out.getvalue(), bare.width, bare.height


def render_page(data: bytes, number: int, limits: PageLimits) -> tuple[bytes, int, int]:
    """Page `number` (from 1) of a PDF drawn in grey, at most max_width × max_height pixels, as a
    PNG with its size."""
    import pypdfium2

    inspect_pdf(data, limits)
    document = pypdfium2.PdfDocument(data)
    try:
        page = document[number - 1]
        width, height = page.get_size()
        # A pixel short of the bound: pdfium rounds the drawn size up.
        scale = min((limits.max_width - 1) / max(1.0, width), (limits.max_height - 1) / max(1.0, height))
        picture = page.render(scale=scale, grayscale=True).to_pil().convert("L")
        page.close()
    finally:
        document.close()
    out = io.BytesIO()
    picture.save(out, "PNG")
    return out.getvalue(), picture.width, picture.height


# Where `scanning` is importable from: the project's folder.
_ROOT = str(Path(__file__).resolve().parent.parent)
# The child's answer: a line of JSON on stderr, then the picture on stdout.
_OPERATIONS = ("image", "page")


def run_bounded(operation: str, data: bytes, *, memory: int, seconds: float, **options: Any) -> tuple[bytes, int, int]:
    """`decode_image` ("image") or `render_page` ("page") in a child process limited to `memory`
    bytes of address space and `seconds` of time: whatever the file does, the caller's memory
    stays as it was. A refusal comes back as the same PictureError; a child that runs out of
    memory or time as PictureError("too_costly")."""
    if operation not in _OPERATIONS:
        raise ValueError(operation)

    # The child limits itself before it reads anything: no preexec_fn, so that the caller (a
    # worker holding the recogniser's models) is not forked whole first, only started anew.
    bounds = {"memory": memory, "seconds": int(seconds) + 1}
    command = [sys.executable, "-m", "scanning.pictures", operation, json.dumps(options), json.dumps(bounds)]
    try:
        done = subprocess.run(  # noqa: S603  # our own module, with our own arguments
            command, input=data, capture_output=True, timeout=seconds, check=False, cwd=_ROOT
        )
    except subprocess.TimeoutExpired:
        raise PictureError("too_costly") from None
    if done.returncode == 0:
        answer = json.loads(done.stderr.decode().strip().splitlines()[-1])
        return done.stdout, int(answer["width"]), int(answer["height"])
    try:
        refusal = json.loads(done.stderr.decode().strip().splitlines()[-1])
        code, detail = str(refusal["error"]), dict(refusal.get("detail", {}))
    except (ValueError, KeyError, IndexError, AttributeError):
        code, detail = "too_costly", {}  # killed (memory, time) before it could say
    raise PictureError(code, **detail)


def _child(operation: str, options: dict[str, Any], bounds: dict[str, int]) -> int:
    resource.setrlimit(resource.RLIMIT_AS, (bounds["memory"], bounds["memory"]))
    resource.setrlimit(resource.RLIMIT_CPU, (bounds["seconds"], bounds["seconds"]))
    data = sys.stdin.buffer.read()
    try:
        if operation == "image":
            out, width, height = decode_image(data, max_pixels=options["max_pixels"], longest=options["longest"])
        else:
            limits = PageLimits(**options["limits"])
            out, width, height = render_page(data, options["page"], limits)
    except PictureError as exc:
        sys.stderr.write(json.dumps({"error": exc.code, "detail": exc.detail}) + "\n")
        return 3
    except MemoryError:
        sys.stderr.write(json.dumps({"error": "too_costly"}) + "\n")
        return 3
    except Exception:  # a file the decoder chokes on is a corrupt file
        sys.stderr.write(json.dumps({"error": "corrupt"}) + "\n")
        return 3
    sys.stdout.buffer.write(out)
    sys.stderr.write(json.dumps({"width": width, "height": height}) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(_child(sys.argv[1], json.loads(sys.argv[2]), json.loads(sys.argv[3])))
