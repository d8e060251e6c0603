"""Deck-list text: parse what players paste, and write lists back in the same format.

    # comments start with # or //
    武將: 劉備                  (also General:, 主將:, a code, or a Simplified name)
    牌庫:                       (also Deck:, Main:)
    3 新兵                      (also 3x 新兵, 3 × 新兵, 新兵 x3, 3张 新兵, ３ 新兵, 新兵 (YXJQ-003))
    YXJQ-010                    (no count means 1)
    援軍:                       (also Reinforcements:)
    1 黃巾義軍

The catalogue is not known here: `lookup(text)` turns a code or a name into CardFacts, or None.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from rules_check.messages import problem
from rules_check.model import DECK_KINDS, TACTIC, TROOP, CardFacts, Deck, Entry, Problem

Lookup = Callable[[str], CardFacts | None]

MAX_BYTES = 64 * 1024
MAX_LINE = 200

_HEADERS: dict[str, str] = {
    "general": "generals",
    "hero": "generals",
    "武將": "generals",
    "武将": "generals",
    "主將": "generals",
    "主将": "generals",
    "deck": "main",
    "main": "main",
    "maindeck": "main",
    "牌庫": "main",
    "牌库": "main",
    "主牌庫": "main",
    "主牌库": "main",
    "卡組": "main",
    "卡组": "main",
    "reinforcements": "reinforcements",
    "reinforcement": "reinforcements",
    "援軍": "reinforcements",
    "援军": "reinforcements",
    "player": "player",
    "玩家": "player",
    "選手": "player",
    "选手": "player",
    "format": "format",
    "賽制": "format",
    "赛制": "format",
    "name": "name",
    "deckname": "name",
    "牌組名稱": "name",
    "牌组名称": "name",
}

_HEADER = re.compile(r"^(?P<word>[^\s:：]{1,16}(?: [a-z]+)?)\s*[:：]\s*(?P<value>.*)$", re.IGNORECASE)
# `3x 新兵`, but not the x of `3 xinbing` (pinyin): a Latin x marks a count only before a non-letter.
_COUNT_FIRST = re.compile(r"^(?P<count>[+-]?\d+)\s*(?:x(?![a-z])|[×*]|張|张)?\s*(?P<card>.*)$", re.IGNORECASE)
_COUNT_LAST = re.compile(r"^(?P<card>.+?)\s*[x×*]\s*(?P<count>[+-]?\d+)$", re.IGNORECASE)
_CODE_IN_PARENS = re.compile(r"^(?P<name>.*?)\s*[(\[]\s*(?P<code>[^()\[\]]+?)\s*[)\]]$")
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f]")


class DeckListError(ValueError):
    """The input is not a deck list at all (not UTF-8 text, too large): nothing was parsed.
    str() is the English message; `message` is the Chinese one."""

    def __init__(self, message_en: str, message: str = "") -> None:
        super().__init__(message_en)
        self.message_en = message_en
        self.message = message or message_en


@dataclass
class ParsedList:
    deck: Deck
    problems: list[Problem] = field(default_factory=list)
    player: str | None = None
    name: str | None = None
    declared_format: str | None = None
    # Lines that cannot be read, grouped by their reason (the problem's code and words): one
    # problem for the same reason, however many lines share it, listed in order of first line.
    unread: dict[tuple[str, tuple[tuple[str, str], ...]], list[int]] = field(
        default_factory=dict, repr=False, compare=False
    )

    def note(self, code: str, number: int, **values: str) -> None:
        self.unread.setdefault((code, tuple(sorted(values.items()))), []).append(number)

    def grouped(self) -> list[Problem]:
        out = []
        for (code, values), lines in self.unread.items():
            words: dict[str, Any] = dict(values)
            out.append(problem(code, lines=tuple(lines), **words))
        return out


def decode(data: bytes) -> str:
    """Bytes of an uploaded or piped list as text, or DeckListError saying why not."""
    if len(data) > MAX_BYTES:
        raise DeckListError(
            f"The list is {len(data):,} bytes; at most {MAX_BYTES // 1024} KiB is accepted.",
            f"牌表有 {len(data):,} 位元組，最多只接受 {MAX_BYTES // 1024} KiB。",
        )
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise DeckListError(
            "The list is not UTF-8 text (save it as UTF-8, or paste it as text).",
            "牌表不是 UTF-8 文字（請存成 UTF-8，或直接貼上文字）。",
        ) from None
    check_text(text)
    return text


def check_text(text: str) -> None:
    if len(text.encode("utf-8")) > MAX_BYTES:
        raise DeckListError(f"The list is longer than {MAX_BYTES // 1024} KiB.", f"牌表超過 {MAX_BYTES // 1024} KiB。")
    if "\x00" in text:
        raise DeckListError("The list contains NUL bytes: it is not a text file.", "牌表含有 NUL 位元組：不是文字檔。")


def parse(text: str, lookup: Lookup) -> ParsedList:
    """Every line read; what cannot be read becomes a problem with its line number."""
    check_text(text)
    result = ParsedList(deck=Deck())
    section = "main"
    for number, raw in enumerate(text.splitlines(), start=1):
        line = _strip_comment(unicodedata.normalize("NFKC", raw)).strip()
        if not line:
            continue
        if len(line) > MAX_LINE or _CONTROL.search(line):
            _unreadable(result, number, "行太長或含有控制字元", "too long or holds control characters")
            continue
        header = _HEADER.match(line) if ":" in line else None  # NFKC made ： a colon
        if header and _header_kind(header.group("word")) is not None:
            kind = _header_kind(header.group("word"))
            value = header.group("value").strip()
            if kind in ("player", "name", "format"):
                setattr(result, "declared_format" if kind == "format" else kind, value[:100] or None)
                continue
            assert kind is not None
            if value:  # `武將: 劉備` names one card and leaves the current section as it was
                _read_card_line(result, kind, value, number, lookup)
            else:  # `援軍:` alone starts a section
                section = kind
            continue
        if header and not _looks_like_card(line, lookup):
            word = header.group("word")[:20]
            _unreadable(result, number, f"不認識的標題「{word}」", f"unknown heading {word!r}")
            continue
        _read_card_line(result, section, line, number, lookup)
    result.problems = result.grouped() + result.problems
    return result


def _read_card_line(result: ParsedList, section: str, line: str, number: int, lookup: Lookup) -> None:
    count_text, card_text = _split_count(line)
    if not card_text:
        _unreadable(result, number, "只有數量，沒有卡牌", "a count but no card")
        return
    card = _find(card_text, lookup)
    if card is None:
        result.note("unknown_card", number, text=card_text[:60])
        return
    count = int(count_text) if count_text is not None else 1
    getattr(result.deck, section).append(Entry(card=card, count=count, line=number))


def _split_count(line: str) -> tuple[str | None, str]:
    match = _COUNT_FIRST.match(line)
    if match:
        return match.group("count"), match.group("card").strip()
    match = _COUNT_LAST.match(line)
    if match:
        return match.group("count"), match.group("card").strip()
    return None, line


def _find(text: str, lookup: Lookup) -> CardFacts | None:
    parens = _CODE_IN_PARENS.match(text)
    if parens:
        # `新兵 (YXJQ-003)`: the code decides; the name is a reminder for people
        found = lookup(parens.group("code")) or lookup(parens.group("name"))
        if found:
            return found
    return lookup(text)


def _looks_like_card(line: str, lookup: Lookup) -> bool:
    return _find(_split_count(line)[1], lookup) is not None


def _header_kind(word: str) -> str | None:
    return _HEADERS.get(word.replace(" ", "").casefold())


def _strip_comment(line: str) -> str:
    for marker in ("#", "//"):
        index = line.find(marker)
        if index != -1:
            line = line[:index]
    return line


def _unreadable(result: ParsedList, number: int, reason: str, reason_en: str) -> None:
    result.note("unreadable_line", number, reason=reason, reason_en=reason_en)


# --- export --------------------------------------------------------------------------------

_GROUP_TITLES = {TROOP: "部隊 Troops", TACTIC: "錦囊 Tactics"}


def _line(entry: Entry) -> str:
    return f"{entry.count} {entry.card.name} ({entry.card.code})"


def _by_cost(entry: Entry) -> tuple[int, int, str]:
    cost = entry.card.cost
    return (cost is None, cost if cost is not None else 0, entry.card.code)


def export(deck: Deck, title: str | None = None, fmt: str | None = None) -> str:
    """The deck as a list that `parse` reads back to the same deck: general first, then troops
    and tactics by cost, then anything else the deck holds, then the reinforcements."""
    lines: list[str] = []
    if title:
        lines.append(f"# {title}")
    if fmt:
        lines.append(f"賽制: {fmt}")
    for entry in deck.generals:
        lines.append(f"武將: {entry.card.name} ({entry.card.code})" + (f" x{entry.count}" if entry.count != 1 else ""))
    lines.append("")
    lines.append("牌庫:")
    for kind in (TROOP, TACTIC):
        group = sorted((e for e in deck.main if e.card.kind == kind), key=_by_cost)
        if group:
            lines.append(f"# {_GROUP_TITLES[kind]} ({sum(e.count for e in group)})")
            lines += [_line(e) for e in group]
    others = [e for e in deck.main if e.card.kind not in DECK_KINDS]
    if others:
        lines.append("# 其他 Other")
        lines += [_line(e) for e in sorted(others, key=_by_cost)]
    if deck.reinforcements:
        lines.append("")
        lines.append("援軍:")
        lines += [_line(e) for e in deck.reinforcements]
    return "\n".join(lines).strip("\n") + "\n"
