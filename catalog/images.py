"""Real card images: checked before anything is stored, cleaned, re-encoded, and thumbnailed once.

An upload is judged by its content, never its name: Pillow must recognise it as JPEG, PNG or
WebP. Size (bytes and pixels) is checked before the pixels are decoded, so a small file that
claims a huge canvas (a decompression bomb) costs nothing. The stored image is a fresh WebP
built from the pixels alone: EXIF orientation applied, every piece of metadata (EXIF with its
GPS position, XMP, ICC profiles, comments) left behind. File names are made here from the
card, the side and a hash of the content, so they never collide and can be cached forever.
"""

from __future__ import annotations

import hashlib
import io
from dataclasses import dataclass
from typing import IO, TYPE_CHECKING

from django.core.files.base import ContentFile
from django.core.files.storage import default_storage
from django.db import transaction
from django.utils.translation import gettext as _
from PIL import Image

from catalog import cache_version
from scanning.pictures import Header, PictureError, inspect_image, run_bounded
from webutil import bounds
from webutil.pause import pause_point

if TYPE_CHECKING:  # models import this module: a run-time import would be circular
    from catalog.models import CardImage  # here: catalog.models reads this module

# What a phone saves: a 12 MP JPEG is 3-6 MB, a 48 MP one (8000 × 6000) up to 20 MB.
IMAGE = bounds.upload("image", 25 * bounds.MB, "a photo or picture: JPEG, PNG, WebP or HEIC")
PIXELS = bounds.declare("image pixels", 50_000_000, "pixels", "the pixels of one photo (a 48 MP phone photo fits)")
# A compressed photo holds a few pixels a byte (a phone's JPEG: about 3); a file that declares
# thousands per byte is a bomb, or no photo at all, and is refused before anything decodes it.
PIXELS_PER_BYTE = bounds.declare(
    "image pixels per byte",
    2000,
    "pixels",
    "what a file may declare per byte of itself",
)
MAX_BYTES = int(IMAGE)
MAX_PIXELS = int(PIXELS)
ACCEPTED_FORMATS = {"JPEG", "PNG", "WEBP", "HEIF"}
THUMBNAIL_WIDTHS = (200, 400, 800)
WEBP_QUALITY = 85


class ImageRejected(ValueError):
    """An upload that is not stored, with the reason in words for the uploader (and, from a
    decoding, scanning.pictures' code for it, which `refusal` words again later)."""

    def __init__(self, message: str, code: str = "") -> None:
        super().__init__(message)
        self.code = code


@dataclass(frozen=True)
class CleanImage:
    data: bytes  # WebP, no metadata
    width: int
    height: int
    digest: str


# A photo is decoded (by the worker, or for a card picture in the request) in a child process of
# this much address space and time: a bomb kills the child, never the process that asked. Every
# photo the upload bound lets through decodes within it (a 48 MP RGB PNG takes 372 MB at most,
# bench/uploads.py's files under 200 MB); a 48 MP PNG with transparency does not, and is refused
# as too costly to read.
DECODE_MEMORY = bounds.declare(
    "decoding memory",
    384 * bounds.MB,
    "bytes",
    "the address space of the process decoding one photo or page",
)
DECODE_SECONDS = bounds.declare("decoding time", 15, "seconds", "how long one photo or page may take to decode")
# Scans are kept at most this many pixels on their longer side: the reader finds text at 768 and
# reads it from the photo; a 48 MP original reads no better than this.
SCAN_SIDE = 3000


def read_bounded(upload: IO[bytes]) -> bytes:
    """An upload's bytes, at most the image bound (ImageRejected past it, or when empty)."""
    data = upload.read(MAX_BYTES + 1)
    if len(data) > MAX_BYTES:
        raise ImageRejected(_("The image is larger than %(mb)d MB.") % {"mb": MAX_BYTES // bounds.MB})
    if not data:
        raise ImageRejected(_("The file is empty."))
    return data


def refusal(exc: PictureError) -> str:
    """A refusal of scanning.pictures in words for the uploader."""
    detail = exc.detail
    messages = {
        "empty": lambda: _("The file is empty."),
        "not_a_photo": lambda: _("Only JPEG, PNG, WebP and HEIC photos are accepted."),
        "too_many_pixels": lambda: (
            _("The image has %(mp).1f megapixels; at most %(limit)d are accepted.")
            % {"mp": detail.get("megapixels", 0), "limit": MAX_PIXELS // 1_000_000}
        ),
        "implausible": lambda: (
            _("This file of %(kb)d KB claims %(mp).1f megapixels: no photo is that small, so it was not kept.")
            % {"kb": detail.get("kilobytes", 0), "mp": detail.get("megapixels", 0)}
        ),
        "corrupt": lambda: _("The image is truncated or corrupt."),
        "too_costly": lambda: _("This file takes more memory or time to read than any photo does: it was not read."),
        "pdf_unreadable": lambda: _("This PDF cannot be read."),
        "pdf_too_many_pages": lambda: (
            _("This PDF has %(pages)d pages; at most %(max)d are read at once.")
            % {"pages": detail.get("pages", 0), "max": detail.get("limit", 0)}
        ),
        "pdf_page_size": lambda: (
            _("Page %(page)d of this PDF measures %(width)d × %(height)d points: no sheet of paper has that shape.")
            % {"page": detail.get("page", 0), "width": detail.get("width", 0), "height": detail.get("height", 0)}
        ),
    }
    return str(messages.get(exc.code, messages["corrupt"])())


def inspect_upload(upload: IO[bytes]) -> tuple[bytes, Header]:
    """A photo's bytes and what its header declares, checked without decoding (for a request):
    ImageRejected with the reason when it is too large, no photo, or declares an implausible
    canvas. Pixels are decoded later, by the worker, within their own bounds."""
    data = read_bounded(upload)
    try:
        return data, inspect_image(data, max_pixels=MAX_PIXELS, max_pixels_per_byte=int(PIXELS_PER_BYTE))
    except PictureError as exc:
        raise ImageRejected(refusal(exc)) from None


def decode(data: bytes, longest: int) -> CleanImage:
    """A checked photo decoded within bounds (a child process): upright, at most `longest` pixels
    on its longer side, a WebP without metadata; ImageRejected when it cannot be."""
    try:
        webp, width, height = run_bounded(
            "image",
            data,
            memory=int(DECODE_MEMORY),
            seconds=float(DECODE_SECONDS.value),
            max_pixels=MAX_PIXELS,
            longest=longest,
        )
    except PictureError as exc:
        raise ImageRejected(refusal(exc), exc.code) from None
    return CleanImage(data=webp, width=width, height=height, digest=hashlib.sha256(data).hexdigest()[:16])


# What a browser shrinks a photo to before sending it (static/js/site.js, read from the file
# field's data-shrink): cards read well at 2,000 px on the long side, a page of small print at 2,400.
SEND_SIDE_CARDS = int(
    bounds.declare("sent photo side", 2000, "pixels", "the long side a browser shrinks a photo of cards to")
)
SEND_SIDE_SHEETS = int(
    bounds.declare("sent sheet side", 2400, "pixels", "the long side a browser shrinks a photo of a paper list to")
)
# A card picture is kept this large at most (the widest thumbnail is 800).
PICTURE_SIDE = 4000


def clean_upload(upload: IO[bytes]) -> CleanImage:
    """Check an uploaded card picture and return it as a clean WebP, or raise ImageRejected."""
    data, _header = inspect_upload(upload)
    return decode(data, PICTURE_SIDE)


def _encode(image: Image.Image, width: int | None = None) -> bytes:
    mode = "RGBA" if image.mode in ("RGBA", "LA", "PA") or "transparency" in image.info else "RGB"
    pixels = image.convert(mode)
    if width is not None and width < pixels.width:
        pixels = pixels.resize((width, round(pixels.height * width / pixels.width)), Image.Resampling.LANCZOS)
    # A new image from the pixels alone: nothing of the original's info (EXIF, XMP, ICC) follows.
    bare = Image.frombytes(mode, pixels.size, pixels.tobytes())
    out = io.BytesIO()
    bare.save(out, "WEBP", quality=WEBP_QUALITY, method=4)
    return out.getvalue()


def thumbnail_name(name: str, width: int) -> str:
    stem = name.rsplit(".", 1)[0]
    return f"{stem}-{width}.webp"


def thumbnail_widths(width: int) -> list[int]:
    """The thumbnail widths of an image `width` pixels wide: each smaller than the image, and at
    least the smallest."""
    widths: list[int] = []
    for size in THUMBNAIL_WIDTHS:
        if size >= width and widths:
            break
        widths.append(size)
    return widths


def make_thumbnails(name: str) -> dict[str, str]:
    """Write the thumbnails of a stored image (a width is skipped when the image is narrower)."""
    with default_storage.open(name, "rb") as handle, Image.open(handle) as image:
        image.load()
        made: dict[str, str] = {}
        for width in thumbnail_widths(image.width):
            thumb = thumbnail_name(name, width)
            if default_storage.exists(thumb):
                default_storage.delete(thumb)
            default_storage.save(thumb, ContentFile(_encode(image, width)))
            made[str(width)] = thumb
    return made


# Where a test stops an approval between the commit and the public files (webutil.pause).
FILES_PAUSE = "card-image-files"


def write_files(name: str, data: bytes) -> None:
    """The public files of a card picture: the image and its thumbnails. Names come from the
    content's hash, so writing again (cleanmedia after a crash) writes the same files."""
    pause_point(FILES_PAUSE)
    if not default_storage.exists(name):
        saved = default_storage.save(name, ContentFile(data))
        assert saved == name, "the storage renamed a picture"
    make_thumbnails(name)


def store(card_image: CardImage, clean: CleanImage) -> None:
    """Save a cleaned image for a CardImage (new or replacing), with its thumbnails. The public
    files are written only once the row is committed: a request killed or rolled back before
    then leaves no file that anything serves. Old files go after the new ones are written."""
    old = card_image.files()
    name = f"cards/{card_image.card_id}/{card_image.side}-{clean.digest}.webp"
    card_image.image.name = name
    card_image.width, card_image.height = clean.width, clean.height
    card_image.thumbnails = {str(w): thumbnail_name(name, w) for w in thumbnail_widths(clean.width)}
    card_image.save()
    keep = set(card_image.files())
    transaction.on_commit(lambda: write_files(name, clean.data))
    transaction.on_commit(lambda: delete_files([f for f in old if f not in keep]))
    transaction.on_commit(cache_version.bump)


def delete_files(names: list[str]) -> None:
    for name in names:
        if name and default_storage.exists(name):
            default_storage.delete(name)


@dataclass(frozen=True)
class Picture:
    """One side of a card as pages and the API show it: the full picture and its thumbnails."""

    full: str
    width: int
    height: int
    thumbnails: dict[int, str]  # width → URL, narrowest first
    credit: str | None = None  # who photographed it, when it came from a contribution

    @property
    def src(self) -> str:
        """For browsers without srcset: a mid-sized thumbnail."""
        widest = list(self.thumbnails.values())[-1] if self.thumbnails else self.full
        return next((url for w, url in self.thumbnails.items() if w >= 400), widest)

    @property
    def srcset(self) -> str:
        return ", ".join([f"{url} {w}w" for w, url in self.thumbnails.items()] + [f"{self.full} {self.width}w"])


def _build() -> dict[tuple[int, str], Picture]:
    from catalog.models import CardImage

    return {
        (row.card_id, row.side): Picture(
            default_storage.url(row.image.name),
            row.width,
            row.height,
            dict(sorted((int(w), default_storage.url(n)) for w, n in row.thumbnails.items())),
            row.contributor.username if row.contributor else None,
        )
        for row in CardImage.objects.select_related("contributor")
    }


_pictures = cache_version.PerVersion(_build)


def pictures_for(request: object | None) -> dict[tuple[int, str], Picture]:
    """Every picture by (card id, side), looked up once per request: a grid or an API page shows
    hundreds of cards, and each would otherwise ask for the catalogue's version."""
    if request is None:
        return _pictures.get()
    found: dict[tuple[int, str], Picture] | None = getattr(request, "_card_pictures", None)
    if found is None:
        found = _pictures.get()
        request._card_pictures = found  # type: ignore[attr-defined]  # a per-request memo of our own
    return found


def forget(sender: object, instance: CardImage, **kwargs: object) -> None:
    """post_delete: remove a deleted picture's files once the deletion is committed."""
    files = instance.files()
    transaction.on_commit(lambda: delete_files(files))
    transaction.on_commit(cache_version.bump)
