"""Two decks side by side: cards only in one, in both, and with changed counts, by card name as
the rules count copies (the general apart); and their cost curves on one chart."""

from __future__ import annotations

from dataclasses import dataclass, field

from django.template.loader import render_to_string
from django.utils.safestring import SafeString

from catalog.lookup import catalog_index
from decks.data import DeckData
from decks.stats import curve_bars


@dataclass(frozen=True)
class NameCount:
    name: str
    code: str  # the first card of that name in either deck, for links
    a: int
    b: int


@dataclass
class Comparison:
    only_a: list[NameCount] = field(default_factory=list)
    only_b: list[NameCount] = field(default_factory=list)
    changed: list[NameCount] = field(default_factory=list)
    same: list[NameCount] = field(default_factory=list)


def _by_name(data: DeckData) -> dict[str, tuple[str, str, int]]:
    """name key → (name, first code, copies) over the main deck and the reinforcements."""
    index = catalog_index()
    out: dict[str, tuple[str, str, int]] = {}
    for entries in (data.main, data.reinforcements):
        for code, n in entries.items():
            facts = index.by_code[code]
            name, first, count = out.get(facts.name_key, (facts.name, code, 0))
            out[facts.name_key] = (name, first, count + n)
    return out


def compare(a: DeckData, b: DeckData) -> Comparison:
    left, right = _by_name(a), _by_name(b)
    order = {code: i for i, code in enumerate(catalog_index().by_code)}
    result = Comparison()
    for key in sorted(left.keys() | right.keys(), key=lambda k: order[(left.get(k) or right[k])[1]]):
        name, code, _n = left.get(key) or right[key]
        line = NameCount(name, code, left.get(key, ("", "", 0))[2], right.get(key, ("", "", 0))[2])
        if not line.b:
            result.only_a.append(line)
        elif not line.a:
            result.only_b.append(line)
        elif line.a != line.b:
            result.changed.append(line)
        else:
            result.same.append(line)
    return result


def curves_svg(a: list[tuple[str, int]], b: list[tuple[str, int]], width: int = 320, height: int = 150) -> SafeString:
    """Both cost curves as pairs of bars on one chart (A, then B, for each cost)."""
    slot = width / len(a)
    labels = [{"x": round(i * slot + slot / 2, 1), "label": label} for i, (label, _n) in enumerate(a)]
    context = {"bars": curve_bars([a, b], width, height), "labels": labels, "width": width, "height": height}
    return render_to_string("decks/_curves.svg", context | {"label_y": height - 6})
