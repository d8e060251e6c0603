"""A card as a link preview picture (Open Graph, Twitter cards): chat apps and sites show a PNG,
never an SVG, for a pasted link. 1200 × 630 px, the size they crop to: the card's frame in its
kind's colour with its cost, beside its name, code, kind and set, its stats and its skill text,
in the reader's script. A fact the catalogue does not know is drawn as "unknown", never guessed.

Drawn with Pillow in the font the repository ships (webutil.glyphs): a character the font lacks
is drawn as a visible placeholder.
"""

from __future__ import annotations

from django.utils.translation import gettext as _
from PIL import Image, ImageDraw

from catalog.faces import colours
from catalog.facts import CHOICE, FACTS
from catalog.models import Card
from catalog.templatetags.cards import label, script
from webutil.glyphs import drawable, font
from webutil.pictures import INK, MUTED, PAPER, png

WIDTH, HEIGHT = 1200, 630
MARGIN = 60
# The card's frame at 63 × 88 mm's proportions.
FRAME_WIDTH, FRAME_HEIGHT = 360, 503
TEXT_LEFT = MARGIN + FRAME_WIDTH + 56
TEXT_WIDTH = WIDTH - TEXT_LEFT - MARGIN
TEXT_LINES = 6
# The stats a card of each kind prints, in the order the card page shows them.
STATS = {
    "troop": ("cost", "power", "health"),
    "reinforcement": ("cost", "power", "health"),
    "tactic": ("cost", "speed"),
    "general": ("life",),
    "awakened_general": ("life",),
    "vice_general": ("life",),
}


def _script(text: str) -> str:
    return drawable(script(text))


def _value(card: Card, name: str) -> str:
    value = getattr(card, name)
    if name == "cost" and value is None and card.cost_text:
        return card.cost_text
    if value is None or value == "":
        return _("unknown")
    return label(str(value)) if FACTS[name].kind == CHOICE else str(value)


def _wrapped(text: str, size: int, width: int, lines: int) -> list[str]:
    """`text` in lines of at most `width` pixels (Chinese breaks between any two characters), at
    most `lines` of them, the last ending in "…" when there is more."""
    face = font(size)
    out: list[str] = []
    for paragraph in text.splitlines() or [""]:
        line = ""
        for char in paragraph:
            if face.getlength(line + char) > width:
                out.append(line)
                line = char.lstrip()
            else:
                line += char
        out.append(line)
    if len(out) > lines:
        out = out[:lines]
        out[-1] = out[-1][:-1] + "…"
    return out


def card_png(card: Card) -> bytes:
    picture = Image.new("RGB", (WIDTH, HEIGHT), PAPER)
    draw = ImageDraw.Draw(picture)
    face = colours(card.kind, card.tier)
    top = (HEIGHT - FRAME_HEIGHT) // 2
    box = (MARGIN, top, MARGIN + FRAME_WIDTH, top + FRAME_HEIGHT)
    draw.rounded_rectangle(box, radius=24, fill=face["frame"], outline=face["metal"], width=10)
    name_lines = _wrapped(_script(card.name), 64, FRAME_WIDTH - 60, 3)
    for number, line in enumerate(name_lines):
        draw.text((MARGIN + FRAME_WIDTH // 2, top + 170 + 78 * number), line, font=font(64), fill="#fff", anchor="ma")
    if "cost" in STATS.get(card.kind, ()):
        draw.ellipse((MARGIN + 24, top + 24, MARGIN + 112, top + 112), fill=face["metal"])
        cost = _value(card, "cost") if card.cost is not None or card.cost_text else "?"
        draw.text((MARGIN + 68, top + 68), drawable(cost), font=font(48), fill=INK, anchor="mm")
    draw.text((TEXT_LEFT, 64), _script(card.name), font=font(76), fill=INK)
    where = " · ".join(filter(None, [card.code, label(card.kind), _script(card.set.name) if card.set else ""]))
    draw.text((TEXT_LEFT, 170), drawable(where), font=font(32), fill=MUTED)
    stats = "  ".join(f"{FACTS[name].label} {_value(card, name)}" for name in STATS.get(card.kind, ()))
    draw.text((TEXT_LEFT, 232), drawable(stats), font=font(36), fill=INK)
    text = _script(card.text) if card.text else _("Skill text unknown")
    for number, line in enumerate(_wrapped(text, 34, TEXT_WIDTH, TEXT_LINES)):
        draw.text((TEXT_LEFT, 310 + 48 * number), line, font=font(34), fill=INK if card.text else MUTED)
    return png(picture)
