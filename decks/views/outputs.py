"""A deck sent out of the site: as text, a registration sheet, proxies, a picture, and the zip
archive of my decks (download and upload)."""

from __future__ import annotations

import math

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.cache import cache
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from catalog.cache_version import current as catalog_version
from catalog.lookup import catalog_index
from decks import archive as decks_archive
from decks import services
from decks.batch import MAX_ZIP_BYTES, ZIP
from decks.forms import (
    ArchiveUploadForm,
)
from decks.image import deck_png
from decks.sheets import sheet_for_snapshot
from decks.views.decks import visible_deck
from webutil.bounds import accepts
from webutil.requests import AuthedRequest, HtmxHttpRequest
from webutil.throttling import hit, minutes

PROXIES_PER_PAGE = 9  # 3 × 3 cards of 63 × 88 mm on an A4 page
MAX_PROXIES = 270  # 30 pages: a deck and its general, with room; an illegal count stops here
IMAGE_SECONDS = 24 * 3600  # a deck picture kept this long (a new version replaces it under its key)


def export_text(request: HtmxHttpRequest, deck_id: int) -> HttpResponse:
    deck = visible_deck(request, deck_id)
    response = HttpResponse(services.deck_text(deck), content_type="text/plain; charset=utf-8")
    if request.GET.get("download"):
        response["Content-Disposition"] = f'attachment; filename="deck-{deck.pk}.txt"'
    return response


def sheet(request: HtmxHttpRequest, deck_id: int) -> HttpResponse:
    deck = visible_deck(request, deck_id)
    sheet = sheet_for_snapshot(services.snapshot_of(deck), deck.format_label, deck_name=deck.name)
    return render(request, "decks/sheet.html", {"deck": deck, "sheet": sheet})


def proxies(request: HtmxHttpRequest, deck_id: int) -> HttpResponse:
    """The deck's card faces at real size on A4, nine a page with cut lines, to print and test
    the deck before buying it: the general, then each copy of each main-deck card."""
    deck = visible_deck(request, deck_id)
    data = services.snapshot_of(deck)
    known = catalog_index().by_code  # in catalogue order
    order = {code: i for i, code in enumerate(known)}
    main = sorted(data.main, key=lambda code: order.get(code, len(order)))
    codes = ([data.general] if data.general else []) + [code for code in main for _ in range(data.main[code])]
    cards = [{"code": code, "name": known[code].name if code in known else code} for code in codes[:MAX_PROXIES]]
    pages = [cards[i : i + PROXIES_PER_PAGE] for i in range(0, len(cards), PROXIES_PER_PAGE)]
    context = {"deck": deck, "pages": pages, "count": len(codes), "cut": len(codes) > MAX_PROXIES, "most": MAX_PROXIES}
    return render(request, "decks/proxies.html", context)


def deck_image(request: HtmxHttpRequest, deck_id: int) -> HttpResponse:
    """The deck as one PNG for chat, for whoever may read the deck (others: 404); kept once per
    deck and language, stamped with the deck's and the catalogue's versions: a change replaces
    the picture under the same key, so the cache holds at most one picture a deck and language."""
    deck = visible_deck(request, deck_id)
    key = f"deck-image:{deck.pk}:{get_language()}"
    stamp = f"{deck.updated.timestamp()}:{catalog_version()}"
    kept = cache.get(key)
    png = kept[1] if isinstance(kept, tuple) and len(kept) == 2 and kept[0] == stamp else None
    if png is None:
        sheet = sheet_for_snapshot(services.snapshot_of(deck), deck.format_label, deck_name=deck.name)
        life = deck.general.life if deck.general else None
        png = deck_png(sheet, request.build_absolute_uri(deck.get_absolute_url()), life)
        cache.set(key, (stamp, png), IMAGE_SECONDS)
    response = HttpResponse(png, content_type="image/png")
    response["Content-Disposition"] = f'inline; filename="deck-{deck.pk}.png"'
    response["Cache-Control"] = "public, max-age=300" if deck.public else "private, max-age=300"
    return response


@accepts(ZIP)
@login_required
def archive(request: AuthedRequest) -> HttpResponse:
    """Download all my decks (or everything of mine) as a zip; upload such a zip to add its decks."""
    form = ArchiveUploadForm(request.POST, request.FILES) if request.method == "POST" else ArchiveUploadForm()
    problems: list[str] = []
    if request.method == "POST" and form.is_valid():
        wait = hit(f"deck-archive:user:{request.user.pk}", decks_archive.UPLOADS_PER_HOUR)
        if wait is not None:
            message = _("At most %(n)d uploads an hour: try again in %(minutes)d minutes.") % {
                "n": decks_archive.UPLOADS_PER_HOUR.count,
                "minutes": minutes(wait),
            }
            response = render(request, "decks/archive.html", {"form": form, "problems": [message]}, status=429)
            response["Retry-After"] = str(math.ceil(wait))
            return response
        try:
            incoming = decks_archive.read_archive(form.cleaned_data["file"].read(MAX_ZIP_BYTES + 1))
        except decks_archive.ArchiveError as exc:
            problems = exc.problems
        else:
            added = decks_archive.add_decks(request.user, incoming)
            messages.success(request, _("%(n)d decks added beside your own.") % {"n": len(added)})
            return redirect("decks:mine")
    status = 400 if problems or form.errors else 200
    return render(request, "decks/archive.html", {"form": form, "problems": problems}, status=status)


@login_required
def archive_download(request: AuthedRequest, what: str) -> HttpResponse:
    everything = what == "everything"
    response = HttpResponse(
        decks_archive.export_zip(request.user, everything=everything), content_type="application/zip"
    )
    stamp = timezone.now().strftime("%Y%m%d")
    response["Content-Disposition"] = f'attachment; filename="zongheng-{what}-{stamp}.zip"'
    return response
