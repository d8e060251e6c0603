"""An event's public page as a link preview picture: its name, format and date, how far it is,
the leading players (the placings the public page shows, with their generals) and a QR code that
opens the page at the venue. The size and the drawing as catalog.preview's."""

from __future__ import annotations

from typing import Any

from django.utils import timezone
from django.utils.translation import gettext as _
from PIL import Image, ImageDraw

from catalog.preview import HEIGHT, MARGIN, WIDTH
from catalog.templatetags.cards import script
from webutil.glyphs import drawable, font
from webutil.pictures import INK, MUTED, PAPER, png, qr_image

ACCENT = "#8c2f1b"
# The leading players drawn: as many as fit under the heading, beside the QR code.
LEADERS = 8
QR_SIZE = 300


def event_png(event: Any, address: str, stage: str, placings: list[Any]) -> bytes:
    """`stage`: before, running or finished (events.presenters.stage); `placings`: the players in the
    order the public page lists them (events.presenters.Placing)."""
    picture = Image.new("RGB", (WIDTH, HEIGHT), PAPER)
    draw = ImageDraw.Draw(picture)
    draw.rectangle((0, 0, WIDTH, 16), fill=ACCENT)
    draw.text((MARGIN, 52), drawable(event.name), font=font(60), fill=INK)
    words = {"finished": _("finished"), "before": _("not started")}.get(stage, _("in progress"))
    date = timezone.localtime(event.starts_at).strftime("%Y-%m-%d %H:%M") if event.starts_at else ""
    line = " · ".join(filter(None, [event.format_label, date, words]))
    draw.text((MARGIN, 136), drawable(line), font=font(34), fill=MUTED)
    heading = _("Final standings") if stage == "finished" else _("Standings")
    draw.text((MARGIN, 210), heading, font=font(32), fill=ACCENT)
    for row, placing in enumerate(placings[:LEADERS]):
        y = 260 + row * 42
        draw.text((MARGIN, y), str(placing.place), font=font(30), fill=MUTED)
        draw.text((MARGIN + 56, y), drawable(placing.name[:18]), font=font(30), fill=INK)
        if placing.general_name:
            draw.text((MARGIN + 420, y), drawable(script(placing.general_name)), font=font(30), fill=MUTED)
    if not placings:
        draw.text((MARGIN, 260), _("No players yet."), font=font(30), fill=MUTED)
    qr = qr_image(address, scale=8, border=2, size=QR_SIZE)
    picture.paste(qr, (WIDTH - MARGIN - QR_SIZE, 200))
    draw.text(
        (WIDTH - MARGIN - QR_SIZE // 2, 200 + QR_SIZE + 12),
        _("Pairings and standings"),
        font=font(26),
        fill=MUTED,
        anchor="ma",
    )
    return png(picture)
