"""Search and identity keys for card names and texts, computed once when the catalogue loads.

- `name_key`: the name in Simplified with every space removed. Two cards with the same key are
  the "same name" for the copy limit, whatever script or spacing the list used.
- pinyin keys: every full reading and every string of initials of the name, from the Traditional
  and the Simplified form, under every reading of a polyphonic character (players type
  `changgong` for 長弓 though pypinyin's first reading is `zhang`).
"""

from __future__ import annotations

import itertools
import re
import unicodedata
from functools import lru_cache

import opencc
from pypinyin import Style, lazy_pinyin, pinyin

_T2S = opencc.OpenCC("t2s")
_S2T = opencc.OpenCC("s2t")

# Beyond this many combinations a name's rarer readings are dropped (a few long names with
# several polyphonic characters would otherwise store thousands of strings).
MAX_READINGS = 256

_SPACES = re.compile(r"[\s\u3000]+")


@lru_cache(maxsize=4096)
def to_simplified(text: str) -> str:
    return str(_T2S.convert(text))


@lru_cache(maxsize=4096)
def to_traditional(text: str) -> str:
    return str(_S2T.convert(text))


def name_key(name: str) -> str:
    return _SPACES.sub("", to_simplified(name)).lower()


def fold_pinyin(text: str) -> str:
    """`Liú Bèi` -> `liubei`: lower case, no tone marks, no spaces or apostrophes; ü is v."""
    text = text.lower().replace("ü", "v").replace("u:", "v")
    decomposed = unicodedata.normalize("NFD", text)
    stripped = "".join(ch for ch in decomposed if not unicodedata.combining(ch))
    return re.sub(r"[\s'’\-·]+", "", stripped)


def _char_readings(char: str) -> list[str]:
    readings: list[str] = []
    for form in {char, to_simplified(char), to_traditional(char)}:
        for reading in pinyin(form, style=Style.NORMAL, heteronym=True, errors="ignore")[:1]:
            for r in reading:
                r = r.replace("ü", "v")
                # ü typed as a player would: lv (the IME's way), lu, lyu; lü itself folds to lv.
                for spelled in (r, r.replace("v", "u"), r.replace("v", "yu")) if "v" in r else (r,):
                    if spelled and spelled not in readings:
                        readings.append(spelled)
    return readings


def pinyin_readings(name: str) -> tuple[list[str], list[str]]:
    """(full readings, initials) of a name; characters without a reading are skipped."""
    per_char = [r for r in (_char_readings(ch) for ch in _SPACES.sub("", name)) if r]
    if not per_char:
        return [], []
    full = ["".join(combo) for combo in itertools.islice(itertools.product(*per_char), MAX_READINGS)]
    initials_per_char = [sorted({r[0] for r in readings}) for readings in per_char]
    initials = ["".join(combo) for combo in itertools.islice(itertools.product(*initials_per_char), MAX_READINGS)]
    return sorted(set(full)), sorted(set(initials))


def joined_key(values: list[str]) -> str:
    """`|a|b|` so that a LIKE '%|prefix%' finds a value that starts with prefix."""
    return "|" + "|".join(values) + "|" if values else ""


def search_text(*parts: str | None) -> str:
    """Both scripts of the given texts, lower case, for plain substring search."""
    joined = " ".join(p for p in parts if p).lower()
    # Each distinct form once: the printed text is usually already the Traditional form, and a
    # shorter blob is a faster scan.
    forms = dict.fromkeys([joined, to_simplified(joined), to_traditional(joined)])
    return " | ".join(forms)


def code_key(code: str) -> str:
    """`YXJQ-003` -> `yxjq003`, `五道·001` -> `wd001`: a code without its joiner, for search."""
    return re.sub(r"[^0-9a-z]", "", code.lower().replace("五道", "wd"))


def sort_key(name: str) -> str:
    """The name's usual pinyin reading, for sorting Chinese names the way a dictionary does."""
    return " ".join(lazy_pinyin(to_simplified(name), errors="ignore"))


def shown_pinyin(name: str) -> str:
    """The name's usual pinyin as an English page shows it: 呂布 -> `Lü Bu`, 劉備 -> `Liu Bei`."""
    return " ".join(s.capitalize() for s in lazy_pinyin(to_simplified(name), errors="ignore", v_to_u=True))


@lru_cache(maxsize=65536)
def person_key(name: str) -> str:
    """A person's name for an A–Z list: Chinese by its pinyin (陳大文 between Chan and Chou),
    any other letters as they are, case folded."""
    return " ".join(lazy_pinyin(to_simplified(name))).casefold()


# --- prefix keys for the search index (catalog.models.SearchKey) -------------------------------
#
# Every key is written in the alphabet 0-9a-z only, so that "starts with" is a plain range
# [prefix, next_prefix) that a B-tree index answers the same way under any database collation.
# Chinese is written as the hex of its UTF-8 bytes; a substring of a name is then the start of
# one of the name's suffixes.

_ALPHABET = "0123456789abcdefghijklmnopqrstuvwxyz"


def hex_key(text: str) -> str:
    return text.encode("utf-8").hex()


def prefix_range(prefix: str) -> tuple[str, str | None]:
    """[low, high) of the keys that start with `prefix` (high None: no upper bound)."""
    chars = list(prefix)
    while chars:
        index = _ALPHABET.find(chars[-1])
        if index < len(_ALPHABET) - 1:
            chars[-1] = _ALPHABET[index + 1]
            return prefix, "".join(chars)
        chars.pop()
    return prefix, None


def search_keys(name: str, code: str, readings: list[str], initials: list[str]) -> set[str]:
    """The keys one card is found by: every suffix of its name (both scripts), every pinyin
    reading and string of initials, and its code without punctuation."""
    keys = set(readings) | set(initials) | {code_key(code)}
    for form in {name_key(name), _SPACES.sub("", to_traditional(name)).lower()}:
        keys |= {hex_key(form[i:]) for i in range(len(form))}
    return {k for k in keys if k and len(k) <= 96}


def text_grams(text: str) -> set[str]:
    """Every pair of adjacent characters of `text` (lower case, spaces left out), and the last
    character of each run: a card whose text contains a phrase holds every pair of the phrase,
    and every single character of it begins a pair or ends a run, so the grams, indexed, find
    the few cards worth checking for the phrase itself. Trigram indexes cannot serve one- and
    two-character Chinese queries (劉備, 造成); these can."""
    grams: set[str] = set()
    for run in text.lower().split():
        grams.update(run[i : i + 2] for i in range(len(run) - 1))
        grams.add(run[-1])
    return grams


def query_grams(phrase: str, most: int = 4) -> list[str]:
    """What a phrase's matches must hold: its pairs, or, for a single character, the character
    (looked up as a prefix of the pairs); at most `most`, spread along the phrase."""
    pairs: list[str] = []
    for run in phrase.lower().split():
        pairs += [run[i : i + 2] for i in range(len(run) - 1)] or [run]
    unique = list(dict.fromkeys(pairs))
    if len(unique) <= most:
        return unique
    step = (len(unique) - 1) / (most - 1)
    return [unique[round(i * step)] for i in range(most)]
