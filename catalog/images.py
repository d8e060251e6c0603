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
import warnings
from dataclasses import dataclass
from typing import IO, TYPE_CHECKING

from django.core.files.base import ContentFile
from django.core.files.storage import default_storage
from django.db import transaction
from django.utils.translation import gettext as _
from PIL import Image, ImageOps, UnidentifiedImageError

from catalog import cache_version
from webutil.pause import pause_point

if TYPE_CHECKING:  # models import this module: a run-time import would be circular
    from catalog.models import CardImage

MAX_BYTES = 10 * 1024 * 1024
MAX_PIXELS = 40_000_000
ACCEPTED_FORMATS = {"JPEG", "PNG", "WEBP"}
THUMBNAIL_WIDTHS = (200, 400, 800)
WEBP_QUALITY = 85


class ImageRejected(ValueError):
    """An upload that is not stored, with the reason in words for the uploader."""


@dataclass(frozen=True)
class CleanImage:
    data: bytes  # WebP, no metadata
    width: int
    height: int
    digest: str


def _read_bounded(upload: IO[bytes]) -> bytes:
    data = upload.read(MAX_BYTES + 1)
    if len(data) > MAX_BYTES:
        raise ImageRejected(_("The image is larger than 10 MB."))
    if not data:
        raise ImageRejected(_("The file is empty."))
    return data


def clean_upload(upload: IO[bytes]) -> CleanImage:
    """Check an uploaded file and return it as a clean WebP, or raise ImageRejected."""
    data = _read_bounded(upload)
    with warnings.catch_warnings():
        # Pillow only warns between 1x and 2x its own limit; a warning is a refusal here.
        warnings.simplefilter("error", Image.DecompressionBombWarning)
        try:
            with Image.open(io.BytesIO(data)) as probe:  # reads the header only
                kind, (width, height) = probe.format, probe.size
                if kind not in ACCEPTED_FORMATS:
                    raise ImageRejected(_("Only JPEG, PNG and WebP images are accepted."))
                if width * height > MAX_PIXELS:
                    raise ImageRejected(
                        _("The image has %(mp).1f megapixels; at most 40 are accepted.")
                        % {"mp": width * height / 1_000_000}
                    )
                probe.verify()  # checksums and structure, without decoding everything
            with Image.open(io.BytesIO(data)) as image:
                image.load()  # decodes every pixel: a truncated file fails here
                upright = ImageOps.exif_transpose(image)
        except ImageRejected:
            raise
        except UnidentifiedImageError:
            raise ImageRejected(_("Only JPEG, PNG and WebP images are accepted.")) from None
        except (Image.DecompressionBombError, Image.DecompressionBombWarning):
            raise ImageRejected(_("The image has more than 40 megapixels.")) from None
        except (OSError, SyntaxError, ValueError, EOFError):
            raise ImageRejected(_("The image is truncated or corrupt.")) from None
    return CleanImage(
        data=_encode(upright), width=upright.width, height=upright.height, digest=hashlib.sha256(data).hexdigest()[:16]
    )


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
