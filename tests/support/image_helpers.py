"""Image files made on the spot for the upload tests: real JPEG, PNG and WebP bytes, and the
kinds of bad file an upload form meets."""

from __future__ import annotations

import io
import struct
import zlib
from pathlib import Path

from PIL import Image

RED, BLUE = (220, 20, 20), (20, 20, 220)


def picture_bytes(fmt: str, size: tuple[int, int] = (500, 700), **save: object) -> bytes:
    """Left half red, right half blue: enough to see which way up a picture was stored."""
    image = Image.new("RGB", size, BLUE)
    image.paste(RED, (0, 0, size[0] // 2, size[1]))
    out = io.BytesIO()
    image.save(out, fmt, **save)
    return out.getvalue()


def jpeg_with_exif(orientation: int, size: tuple[int, int] = (60, 40)) -> bytes:
    exif = Image.Exif()
    exif[0x0112] = orientation  # Orientation
    exif[0x010F] = "SpyCam"  # Make
    exif[0x0131] = "secret-editor 1.0"  # Software
    return picture_bytes("JPEG", size, exif=exif.tobytes(), quality=95)


def png_claiming(width: int, height: int) -> bytes:
    """A tiny PNG whose header claims a huge canvas: a decompression bomb in a few bytes."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(b"\0" * 64)) + chunk(b"IEND", b"")
    )


def stored_files(root: Path) -> list[str]:
    return sorted(str(p.relative_to(root)) for p in root.rglob("*") if p.is_file())


def qr_texts(picture: Image.Image) -> list[str]:
    """The texts of the QR codes a phone's reader finds in `picture` (zxing-cpp: the library
    behind Android's own; OpenCV's reader misses about one code in a hundred)."""
    import zxingcpp

    return [found.text for found in zxingcpp.read_barcodes(picture, formats=zxingcpp.BarcodeFormat.QRCode)]
