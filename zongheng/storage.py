"""Media on S3-compatible object storage, chosen when MEDIA_S3_BUCKET is set (zongheng.settings):
every app server then sees every picture, and nothing is written to local disk.

Pictures keep the site's own URLs (/media/<name>, streamed from the bucket by zongheng.views.media
with immutable cache headers), so pages need no other origin; MEDIA_S3_PUBLIC_URL (a CDN, or
the bucket's public address) makes pages link there instead, and joins the pages' img-src.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.utils.encoding import filepath_to_uri
from storages.backends.s3 import S3Storage


class MediaS3Storage(S3Storage):
    def url(self, name: str | None, parameters: Any = None, expire: Any = None, http_method: Any = None) -> str:
        base = getattr(settings, "MEDIA_S3_PUBLIC_URL", None) or settings.MEDIA_URL
        return str(base).rstrip("/") + "/" + filepath_to_uri(name or "")
