"""What the pages that wait for a photo to be read share (my collection's scans, a proposal's
photo, an event's paper lists): the answer to their progress poll, and the crop of a part of the
photo."""

from __future__ import annotations

import io
from collections.abc import Sequence

from django.http import Http404, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext as _
from PIL import Image

from catalog.models import Scan
from webutil.requests import HtmxHttpRequest

# A card's width over its height (63 × 88 mm).
CARD_ASPECT = 63 / 88


def progress_answer(request: HtmxHttpRequest, scan: Scan) -> HttpResponse | None:
    """A progress poll (htmx GET of the page) is answered with the progress while the photo is
    read, then with a reload of the whole page; anything else is the page's own (None)."""
    if not request.htmx or request.method != "GET":
        return None
    if not scan.is_waiting:
        return HttpResponse(headers={"HX-Refresh": "true"})
    return render(request, "catalog/_scan_progress.html", {"scan": scan})


def crop_answer(scan: Scan, boxes: Sequence[dict[str, object]], number: int) -> HttpResponse:
    """The part of the photo where `boxes[number]` was read (a card, a line of a list), with a
    margin: for the photo's owner only (the caller checks), never cached by others."""
    if not scan.image or not 0 <= number < len(boxes):
        raise Http404(_("No such card in this photo."))
    box = boxes[number].get("box")
    if not isinstance(box, list) or len(box) != 4:
        raise Http404(_("No such card in this photo."))
    x0, y0, x1, y1 = (int(v) for v in box)
    if y1 - y0 > x1 - x0:
        # A card: its box runs from the name to the code, both printed in the middle, so it is
        # narrower than the card. Widened to a card's shape (63 × 88 mm) about its centre: the
        # cost in the top-left corner and the figures at the bottom stay in the picture.
        half = max(x1 - x0, round((y1 - y0) * CARD_ASPECT)) // 2
        centre = (x0 + x1) // 2
        x0, x1 = centre - half, centre + half
    margin = max(8, (y1 - y0) // 10)
    with scan.image.open("rb") as stored, Image.open(stored) as photo:
        area = (max(0, x0 - margin), max(0, y0 - margin), min(photo.width, x1 + margin), min(photo.height, y1 + margin))
        crop = photo.crop(area)
        crop.thumbnail((320, 320))
        out = io.BytesIO()
        crop.convert("RGB").save(out, "WEBP", quality=80)
    response = HttpResponse(out.getvalue(), content_type="image/webp")
    response["Cache-Control"] = "private, max-age=3600"
    return response
