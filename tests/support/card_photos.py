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
) -> Image.Image:
    """One card face, upright and sharp: the cost top left; a troop's power bottom left and its
    health (or a general's life) bottom right."""
    face = Image.new("RGB", SIZE, "#fbf7ee")
    draw = ImageDraw.Draw(face)
    draw.rounded_rectangle((4, 4, SIZE[0] - 5, SIZE[1] - 5), radius=28, outline="#2f5d3a", width=18)
    draw.rectangle((24, 24, SIZE[0] - 25, 110), fill="#2f5d3a")
    draw.text((SIZE[0] // 2, 67), name, font=font(48), fill="white", anchor="mm")
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
