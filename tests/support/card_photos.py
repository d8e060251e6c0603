"""Photos of cards for the tests, drawn: no real photo ships. A card-like face (frame, name, cost,
effect text, code) of a real catalogue card in the font the repository ships, then what a phone
does to it: turned, blurred, shrunk, compressed; and spreads of several cards on a table."""

from __future__ import annotations

import io
import random

from PIL import Image, ImageDraw, ImageFilter

from webutil.glyphs import font

SIZE = (500, 700)


def _wrapped(text: str, width: int) -> list[str]:
    return [text[i : i + width] for i in range(0, len(text), width)] or [""]


def _figure(draw: ImageDraw.ImageDraw, centre: tuple[int, int], value: int, colour: str) -> None:
    x, y = centre
    draw.ellipse((x - 32, y - 32, x + 32, y + 32), fill=colour)
    draw.text(centre, str(value), font=font(36), fill="black", anchor="mm")


def card_face(
    code: str,
    name: str,
    text: str = "",
    cost: int | None = None,
    *,
    power: int | None = None,
    health: int | None = None,
    life: int | None = None,
    type_line: str = "",
) -> Image.Image:
    """One card face, upright and sharp: the cost top left; the type line (部隊·步兵) under the
    name; a troop's power bottom left and its health (or a general's life) bottom right."""
    face = Image.new("RGB", SIZE, "#fbf7ee")
    draw = ImageDraw.Draw(face)
    draw.rounded_rectangle((4, 4, SIZE[0] - 5, SIZE[1] - 5), radius=28, outline="#2f5d3a", width=18)
    draw.rectangle((24, 24, SIZE[0] - 25, 110), fill="#2f5d3a")
    draw.text((SIZE[0] // 2, 67), name, font=font(48), fill="white", anchor="mm")
    if type_line:
        draw.text((SIZE[0] // 2, 145), type_line, font=font(26), fill="#2f5d3a", anchor="mm")
    if cost is not None:
        draw.ellipse((34, 34, 94, 94), fill="#d8c27a")
        draw.text((64, 64), str(cost), font=font(36), fill="black", anchor="mm")
    for row, line in enumerate(_wrapped(text, 16)[:8]):
        draw.text((50, 200 + 34 * row), line, font=font(24), fill="#222")
    if power is not None:
        _figure(draw, (70, 600), power, "#d99a8a")
    if health is not None or life is not None:
        _figure(draw, (SIZE[0] - 70, 600), health if health is not None else life or 0, "#9ac59a")
    draw.text((SIZE[0] // 2, 650), code, font=font(26), fill="#555", anchor="mm")
    return face


def as_photo(face: Image.Image, seed: int, *, angle: float = 8, blur: float = 1.2, scale: float = 0.8) -> bytes:
    """`face` as a phone took it: on a table, turned, blurred, smaller, a low-quality JPEG."""
    rng = random.Random(seed)
    turned = face.rotate(rng.uniform(-angle, angle), expand=True, fillcolor="#8a7560", resample=Image.BICUBIC)
    softened = turned.filter(ImageFilter.GaussianBlur(rng.uniform(0, blur)))
    small = softened.resize((round(softened.width * scale), round(softened.height * scale)))
    out = io.BytesIO()
    small.save(out, "JPEG", quality=rng.randint(35, 60))
    return out.getvalue()


def spread(faces: list[Image.Image], columns: int = 3, seed: int = 0) -> bytes:
    """Several cards laid out on a table, each a little turned, as one photo."""
    rng = random.Random(seed)
    rows = (len(faces) + columns - 1) // columns
    table = Image.new("RGB", (columns * 540 + 40, rows * 740 + 40), "#8a7560")
    for i, face in enumerate(faces):
        turned = face.rotate(rng.uniform(-4, 4), expand=True, fillcolor="#8a7560")
        table.paste(turned, (20 + (i % columns) * 540, 20 + (i // columns) * 740))
    small = table.resize((table.width * 2 // 3, table.height * 2 // 3))
    out = io.BytesIO()
    small.save(out, "JPEG", quality=60)
    return out.getvalue()


def sheet(
    player: str,
    entries: list[tuple[int, str, str]],
    general: tuple[str, str] | None = None,
    *,
    deck_code: str | None = None,
    columns: int = 2,
) -> Image.Image:
    """A registration sheet as this site prints it (templates/decks/_sheet.html): the player's
    name and the general in a table at the top, then the entries (count, name, code) in columns,
    a column's total under it, and the deck code as a QR code at the bottom when given."""
    import segno

    page = Image.new("RGB", (1240, 1754), "white")
    draw = ImageDraw.Draw(page)
    draw.text((60, 50), "牌庫登記表", font=font(44), fill="black")
    draw.text((60, 140), "選手姓名", font=font(30), fill="black")
    draw.text((300, 140), player, font=font(30), fill="black")
    draw.text((700, 140), "日期", font=font(30), fill="black")
    draw.text((860, 140), "2026-12-05", font=font(30), fill="black")
    draw.text((60, 200), "武將", font=font(30), fill="black")
    draw.text((300, 200), f"{general[0]} ({general[1]})" if general else "無", font=font(30), fill="black")
    per_column = (len(entries) + columns - 1) // max(1, columns)
    for column in range(columns):
        x = 60 + column * 580
        chunk = entries[column * per_column : (column + 1) * per_column]
        draw.text((x, 290), "卡牌", font=font(28), fill="black")
        for row, (count, name, code) in enumerate(chunk):
            y = 350 + row * 56
            draw.text((x, y), str(count), font=font(30), fill="black")
            draw.text((x + 70, y), name, font=font(30), fill="black")
            draw.text((x + 330, y), code, font=font(28), fill="black")
        draw.text((x, 350 + len(chunk) * 56), f"{sum(c for c, _n, _k in chunk)}", font=font(30), fill="black")
        draw.text((x + 70, 350 + len(chunk) * 56), "合計", font=font(30), fill="black")
    if deck_code:
        drawn = io.BytesIO()
        segno.make(deck_code, error="m").save(drawn, kind="png", scale=8, border=4)
        qr = Image.open(drawn).convert("RGB")
        page.paste(qr, (page.width - qr.width - 60, page.height - qr.height - 60))
    return page


def as_scan(picture: Image.Image, seed: int = 0, *, angle: float = 1.5) -> bytes:
    """A sheet as a phone photographs it on a table: a little turned and soft, a JPEG."""
    rng = random.Random(seed)
    turned = picture.rotate(rng.uniform(-angle, angle), expand=True, fillcolor="#d8d2c4", resample=Image.BICUBIC)
    out = io.BytesIO()
    turned.filter(ImageFilter.GaussianBlur(0.6)).save(out, "JPEG", quality=70)
    return out.getvalue()
