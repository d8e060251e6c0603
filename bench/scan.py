"""How well photos of cards are read: drawn photos of the catalogue's cards (tests/support/
card_photos.py: the shipped font, turned, blurred, shrunk, low-quality JPEG), single cards and
spreads of 1 to 12, through the real recogniser and scanning.find_cards.

    .venv/bin/python bench/scan.py [--photos 200] [--spreads 20] [--sheets 10]

Prints JSON: top-1 accuracy for single cards and for the cards of spreads, wrong cards shown as
sure (confidence at or above scanning.matching.SURE), seconds per photo after the first, and the
character error rate of the effect text read (what a pre-filled proposal would start from); and
paper deck lists without a QR code (drawn registration sheets of 14 to 20 rows in two columns,
read by scanning.sheet): the rows read right (card and count, shown as sure), the rows wrong
but shown as sure, and the seconds a page.
Goals: 97% single, 90% spreads, no wrong card shown as sure, under 1.5 s a photo on two cores.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[0] = str(ROOT)  # the project, not bench/ (whose http.py would shadow the standard library)

from scanning import CardRef, find_cards  # noqa: E402
from scanning.matching import SURE, _distance  # noqa: E402
from scanning.reader import engine, open_image, read_bytes, read_lines  # noqa: E402
from scanning.sheet import read_sheet  # noqa: E402
from tests.support.card_photos import as_photo, as_scan, card_face, sheet, spread  # noqa: E402

# The sheet's headings as it prints them in Traditional (the site passes every language's).
HEADINGS = ["牌庫登記表", "選手姓名", "日期", "武將", "卡牌", "編號", "合計"]

GOALS = {"single": 0.97, "spread": 0.90, "seconds_per_photo": 1.5}


def load() -> tuple[list[dict[str, object]], list[CardRef]]:
    from catalog.textkeys import to_simplified  # opencc only: no Django

    data = json.loads((ROOT / "catalog" / "data" / "cards.json").read_text(encoding="utf-8"))
    cards = data["cards"]
    return cards, [CardRef(c["code"], c["name"], to_simplified(c["name"])) for c in cards]


def face(card: dict[str, object]):  # type: ignore[no-untyped-def]
    return card_face(str(card["code"]), str(card["name"]), str(card.get("text") or ""), card.get("cost"))  # type: ignore[arg-type]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--photos", type=int, default=200)
    parser.add_argument("--spreads", type=int, default=20)
    parser.add_argument("--sheets", type=int, default=10)
    args = parser.parse_args()
    cards, refs = load()
    rng = random.Random(2026)
    engine()  # loaded once, as a worker does: not counted
    single_right = wrong_sure = 0
    seconds: list[float] = []
    errors = characters = 0
    for n in range(args.photos):
        card = rng.choice(cards)
        photo = as_photo(face(card), seed=n)
        start = time.perf_counter()
        reading = find_cards(read_bytes(photo), refs)
        seconds.append(time.perf_counter() - start)
        top = reading.cards[0] if reading.cards else None
        single_right += top is not None and top.card == card["code"]
        wrong_sure += sum(1 for f in reading.cards if f.card != card["code"] and f.confidence >= SURE)
        text = str(card.get("text") or "").replace("\n", "")
        if text:
            read = "".join(line.text for line in reading.unmatched)
            errors += _distance(read, text)
            characters += len(text)
    spread_right = spread_cards = 0
    for n in range(args.spreads):
        shown = rng.sample(cards, rng.randint(1, 12))
        photo = spread([face(c) for c in shown], columns=min(4, len(shown)), seed=n)
        start = time.perf_counter()
        found = find_cards(read_bytes(photo), refs).cards
        seconds.append(time.perf_counter() - start)
        wanted = [str(c["code"]) for c in shown]
        got = [f.card for f in found]
        spread_right += sum(min(wanted.count(code), got.count(code)) for code in set(wanted))
        spread_cards += len(wanted)
        wrong_sure += sum(1 for f in found if f.card not in wanted and f.confidence >= SURE)
    seconds.sort()
    rows_right = rows_wrong_sure = rows = 0
    page_seconds: list[float] = []
    for n in range(args.sheets):
        listed = rng.sample([c for c in cards if c["kind"] in ("troop", "tactic")], rng.randint(14, 20))
        entries = [(rng.randint(1, 3), str(c["name"]), str(c["code"])) for c in listed]
        page = open_image(as_scan(sheet(f"選手{n}", entries), seed=n))
        start = time.perf_counter()
        reading = read_sheet(read_lines(page, "page"), refs, labels=HEADINGS, player_labels=["選手姓名"])
        page_seconds.append(time.perf_counter() - start)
        wanted = {code: count for count, _name, code in entries}
        for line in reading.lines:
            right = line.card is not None and wanted.get(line.card) == line.count
            rows_right += right and line.sure
            rows_wrong_sure += (not right) and line.sure
        rows += len(entries)
    page_seconds.sort()
    result = {
        "single_cards": {"photos": args.photos, "top1": round(single_right / max(1, args.photos), 3)},
        "spreads": {
            "photos": args.spreads,
            "cards": spread_cards,
            "found_right": round(spread_right / max(1, spread_cards), 3),
        },
        "wrong_cards_shown_as_sure": wrong_sure,
        "seconds_per_photo": {"p50": round(seconds[len(seconds) // 2], 2), "p99": round(seconds[-1], 2)},
        "effect_text_character_error_rate": round(errors / characters, 3) if characters else None,
        "sheets": {
            "pages": args.sheets,
            "rows": rows,
            "read_right_and_sure": round(rows_right / max(1, rows), 3),
            "wrong_shown_as_sure": rows_wrong_sure,
            "seconds_per_page": {"p50": round(page_seconds[len(page_seconds) // 2], 2) if page_seconds else None},
        },
        "goals": GOALS,
    }
    print(json.dumps(result, ensure_ascii=False, indent=2))


if __name__ == "__main__":
    main()
