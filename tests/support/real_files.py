"""Files as users really send them, made on the spot: a phone camera's photo (4032 × 3024, about
5 MB, turned by its EXIF orientation), a 48 MP one, a scanner's multi-page A4 PDF; an iPhone's
HEIC ships in tests/support/files. And the hostile files a probe of the site sent: tiny files
that declare huge sizes, a PNG with no pixels, PDFs whose pages loop or have no shape of paper,
a content-stream bomb."""

from __future__ import annotations

import io
import random
import struct
import zlib
from pathlib import Path

from PIL import Image, ImageFilter

FILES = Path(__file__).parent / "files"
HEIC = FILES / "two_cards.heic"  # YXJQ-004 and WJ-001 side by side, as an iPhone saves a photo


def _grain(size: tuple[int, int], seed: int) -> Image.Image:
    """A table's grain: noise a camera's JPEG cannot compress away (a real photo's file size)."""
    rng = random.Random(seed)
    return Image.frombytes("L", size, rng.randbytes(size[0] * size[1])).filter(ImageFilter.GaussianBlur(0.4))


def phone_photo(picture: bytes, size: tuple[int, int] = (4032, 3024), *, orientation: int = 6, seed: int = 0) -> bytes:
    """A picture of cards as a phone camera saves it: `size` pixels of table with the cards in the
    middle, stored on its side with the EXIF orientation that turns it upright (6: turn 90°
    clockwise to view), a JPEG of quality 95 with a camera's metadata."""
    cards = Image.open(io.BytesIO(picture)).convert("RGB")
    table = Image.merge("RGB", [_grain(size, seed + n).point(lambda v, n=n: 40 + v // 2 - n * 12) for n in range(3)])
    scale = min(size[0] * 0.8 / cards.width, size[1] * 0.8 / cards.height)
    cards = cards.resize((round(cards.width * scale), round(cards.height * scale)), Image.Resampling.BICUBIC)
    table.paste(cards, ((size[0] - cards.width) // 2, (size[1] - cards.height) // 2))
    # What the sensor wrote: the picture turned so that EXIF orientation `orientation` undoes it.
    stored = table.transpose(Image.Transpose.ROTATE_90) if orientation == 6 else table
    exif = Image.Exif()
    exif[0x0112] = orientation
    exif[0x010F] = "Phone"
    exif[0x0110] = "Camera 12 MP"
    out = io.BytesIO()
    stored.save(out, "JPEG", quality=95, exif=exif.tobytes())
    return out.getvalue()


def screenshot_png(picture: bytes, size: tuple[int, int] = (1170, 2532)) -> bytes:
    """A phone's screenshot of a photo of cards: a tall PNG."""
    cards = Image.open(io.BytesIO(picture)).convert("RGB")
    screen = Image.new("RGB", size, "white")
    cards.thumbnail((size[0], size[1] // 2))
    screen.paste(cards, (0, size[1] // 4))
    out = io.BytesIO()
    screen.save(out, "PNG")
    return out.getvalue()


def scanned_pdf(pages: list[Image.Image], *, seed: int = 0) -> bytes:
    """A scanner's PDF: each page an A4 picture at 200 dpi (1654 × 2339), grey, with its grain."""
    scans = []
    for number, page in enumerate(pages):
        a4 = page.convert("L").resize((1654, 2339))
        noise = _grain(a4.size, seed + number)
        scans.append(Image.blend(a4, noise, 0.05).convert("RGB"))
    out = io.BytesIO()
    scans[0].save(out, "PDF", save_all=True, append_images=scans[1:], resolution=200, quality=75)
    return out.getvalue()


def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))


def png_without_pixels(width: int = 100, height: int = 100) -> bytes:
    """45 bytes: a PNG's signature, header and end, and no pixel data at all."""
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + _chunk(b"IHDR", header) + _chunk(b"IEND", b"")


def jpeg_declaring(width: int, height: int) -> bytes:
    """A 2 KB JPEG whose frame header (SOF) is patched to declare width × height."""
    small = io.BytesIO()
    Image.new("RGB", (64, 48), (120, 90, 60)).save(small, "JPEG", quality=50)
    data = bytearray(small.getvalue())
    sof = data.find(b"\xff\xc0")
    struct.pack_into(">HH", data, sof + 5, height, width)
    return bytes(data) + b"\0" * max(0, 2048 - len(data))


def png_plausible_bomb(side: int = 6324) -> bytes:
    """A PNG that really decodes to side × side pixels (40 MP) in about a hundred KB: plausible
    for its size, so taken, and decoded only by the worker within its bounds."""
    image = Image.new("L", (side, side), 255)
    out = io.BytesIO()
    image.save(out, "PNG", optimize=True)
    return out.getvalue()


def _pdf(objects: list[bytes]) -> bytes:
    out = b"%PDF-1.4\n"
    offsets = []
    for number, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += b"%d 0 obj\n%s\nendobj\n" % (number, body)
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    out += b"".join(b"%010d 00000 n \n" % offset for offset in offsets)
    out += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (len(objects) + 1, xref)
    return out


def pdf_of_pages(mediabox: tuple[float, float], pages: int = 1) -> bytes:
    """A PDF of `pages` empty pages of the given MediaBox (points)."""
    kids = b" ".join(b"%d 0 R" % (3 + n) for n in range(pages))
    page = b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 %g %g] >>" % mediabox
    return _pdf(
        [b"<< /Type /Catalog /Pages 2 0 R >>", b"<< /Type /Pages /Kids [%s] /Count %d >>" % (kids, pages)]
        + [page] * pages
    )


def pdf_page_tree_loop() -> bytes:
    """A PDF whose page tree holds itself: a reader that follows it never ends."""
    return _pdf(
        [
            b"<< /Type /Catalog /Pages 2 0 R >>",
            b"<< /Type /Pages /Kids [2 0 R 3 0 R] /Count 40 >>",
            b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] >>",
        ]
    )


def pdf_content_bomb(operators: int = 400_000) -> bytes:
    """One A4 page whose content stream, small compressed, draws hundreds of thousands of paths."""
    stream = zlib.compress(b"0 0 m 595 842 l S\n" * operators, 9)
    return _pdf(
        [
            b"<< /Type /Catalog /Pages 2 0 R >>",
            b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
            b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Contents 4 0 R >>",
            b"<< /Length %d /Filter /FlateDecode >>\nstream\n%s\nendstream" % (len(stream), stream),
        ]
    )
