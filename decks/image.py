"""A deck as one picture for chat (WeChat and QQ groups pass decks around as pictures): about
1,080 px wide, readable on a phone without zooming. The deck's name, the general and its life,
the cards grouped by kind with counts and costs (names in the reader's script), the cost curve,
the verdict and format, and a QR code that opens the deck, with its deck code printed under it.

Drawn with Pillow in the font the repository ships (webutil.glyphs), never a system font: a
character the font lacks is drawn as a visible placeholder. Made from the registration sheet's
data (decks.sheets.Sheet), so the picture and the printed sheet never disagree.
"""

from __future__ import annotations

from collections import Counter

from django.utils.translation import gettext as _
from PIL import Image, ImageDraw

from catalog.templatetags.cards import label
from catalog.textkeys import to_simplified
from decks.sheets import Sheet
from webutil.glyphs import drawable, font
from webutil.i18n import wants_simplified
from webutil.pictures import INK, MUTED, PAPER, png, qr_image

WIDTH = 1080
MARGIN = 48
ROW = 46
# Between the two columns of cards: the left column's costs and the right one's counts apart.
GUTTER = 64
# The counts' right edge, from a column's left (a "10" lines up with a "3"), and the names' left.
COUNT_END = 36
NAME_START = 60
GOOD = "#1e6b3a"
BAD = "#a3261a"
# The cost curve: costs 0 to 6 and "7+", as the deck page draws it.
CURVE_COSTS = 8
# The deck code under the QR code, this many characters a line (a long deck's code wraps).
CODE_LINE = 72


def _name(text: str) -> str:
    return drawable(to_simplified(text) if wants_simplified() else text)


def _curve(sheet: Sheet) -> list[int]:
    counts: Counter[int] = Counter()
    for group in sheet.groups:
        for entry in group["entries"]:
            if entry.card.cost is not None:
                counts[min(entry.card.cost, CURVE_COSTS - 1)] += entry.count
    return [counts[cost] for cost in range(CURVE_COSTS)]


def _rows(sheet: Sheet) -> list[tuple[str, str, str]]:
    """(count, name, cost) a line, each group under its caption (count "" marks a caption)."""
    rows: list[tuple[str, str, str]] = []
    for group in sheet.groups:
        rows.append(("", f"{label(group['kind'])} · {group['total']}", ""))
        for entry in group["entries"]:
            cost = "" if entry.card.cost is None else str(entry.card.cost)
            rows.append((str(entry.count), _name(entry.card.name), cost))
    if sheet.reinforcements:
        rows.append(("", _("Reinforcements"), ""))
        rows += [(str(e.count), _name(e.card.name), "") for e in sheet.reinforcements]
    return rows


def deck_png(sheet: Sheet, address: str, life: int | None) -> bytes:
    """The picture of the deck `sheet` shows; `address` is the deck's page, for the QR code;
    `life` the general's (None: not known, or no general chosen)."""
    rows = _rows(sheet)
    half = (len(rows) + 1) // 2
    left, right = rows[:half], rows[half:]
    if right and right[0][0]:  # a group goes on in the right column: its caption again there
        right.insert(0, next(row for row in reversed(left) if not row[0]))
    columns = [left, right]
    qr = qr_image(address, scale=7, border=3)
    body_top = 260
    body_height = max(len(column) for column in columns) * ROW
    curve_top = body_top + body_height + 40
    code_lines = [sheet.deck_code[i : i + CODE_LINE] for i in range(0, len(sheet.deck_code), CODE_LINE)]
    height = curve_top + 220 + qr.height + 40 + 30 * len(code_lines)
    picture = Image.new("RGB", (WIDTH, height), PAPER)
    draw = ImageDraw.Draw(picture)
    draw.text((MARGIN, 40), drawable(sheet.deck_name), font=font(56), fill=INK)
    verdict = _("Legal") if sheet.verdict.legal else _("Not legal")
    status = drawable(f"{sheet.format_label} · {sheet.main_count} · {verdict}")
    draw.text((MARGIN, 120), status, font=font(34), fill=GOOD if sheet.verdict.legal else BAD)
    if sheet.general is not None:
        life_text = "?" if life is None else str(life)
        # One sentence, not pieces joined with ": ": Chinese writes the full-width colon.
        general = _("General: %(name)s · Life %(life)s") % {"name": _name(sheet.general.name), "life": life_text}
    else:
        general = _("none (default general, 30 life)")
    draw.text((MARGIN, 178), general, font=font(36), fill=INK)
    # Two columns of the same width, each with its costs at its own right edge: the right
    # column's costs at the page's margin, the left column's a gutter away from the right's counts.
    column_width = (WIDTH - 2 * MARGIN - GUTTER) // 2
    for index, column in enumerate(columns):
        x = MARGIN + index * (column_width + GUTTER)
        for row, (count, name, cost) in enumerate(column):
            y = body_top + row * ROW
            if not count:  # a caption
                draw.text((x, y + 6), name, font=font(30), fill=MUTED)
                continue
            draw.text((x + COUNT_END, y), count, font=font(32), fill=INK, anchor="ra")
            draw.text((x + NAME_START, y), name, font=font(32), fill=INK)
            if cost:
                draw.text((x + column_width, y), cost, font=font(32), fill=MUTED, anchor="ra")
    curve = _curve(sheet)
    tallest = max(curve) or 1
    draw.text((MARGIN, curve_top), _("Cost curve"), font=font(30), fill=MUTED)
    bar_width = (WIDTH - 2 * MARGIN) // CURVE_COSTS
    for value, copies in enumerate(curve):
        x = MARGIN + value * bar_width
        bar = round(120 * copies / tallest)
        base = curve_top + 170
        draw.rectangle((x + 10, base - bar, x + bar_width - 10, base), fill="#2f5d3a")
        draw.text((x + bar_width // 2, base - bar - 6), str(copies), font=font(26), fill=INK, anchor="md")
        draw.text(
            (x + bar_width // 2, base + 8),
            "7+" if value == CURVE_COSTS - 1 else str(value),
            font=font(26),
            fill=MUTED,
            anchor="ma",
        )
    qr_top = curve_top + 220
    picture.paste(qr, ((WIDTH - qr.width) // 2, qr_top))
    for number, line in enumerate(code_lines):  # the deck code, for typing it in elsewhere
        draw.text((WIDTH // 2, qr_top + qr.height + 10 + 30 * number), line, font=font(22), fill=MUTED, anchor="ma")
    return png(picture)
