"""The words of each problem, in Chinese (Traditional, as the game prints) and English.

Codes are stable: the API, the command line and the tests name problems by them.
"""

from __future__ import annotations

from typing import Any

from rules_check.model import ERROR, WARNING, Problem

# code -> (severity, Chinese template, English template)
MESSAGES: dict[str, tuple[str, str, str]] = {
    "too_few_cards": (
        ERROR,
        "牌庫只有 {count} 張，{format}至少要 {min} 張。",
        "The deck has {count} cards; {format_en} needs at least {min}.",
    ),
    "too_many_cards": (
        ERROR,
        "牌庫有 {count} 張，{format}至多 {max} 張。",
        "The deck has {count} cards; {format_en} allows at most {max}.",
    ),
    "too_many_copies": (
        ERROR,
        "同名卡牌「{name}」有 {count} 張，至多 {limit} 張。",
        "{count} cards named {name}; at most {limit} of the same name are allowed.",
    ),
    "reinforcement_in_deck": (
        ERROR,
        "「{name}」是援軍牌，不能放進牌庫。",
        "{name} is a reinforcement: reinforcements are never part of a deck.",
    ),
    "general_in_deck": (
        ERROR,
        "「{name}」是武將牌，武將另外選擇，不能放進牌庫。",
        "{name} is a general: the general is chosen apart, never in the deck.",
    ),
    "too_many_generals": (
        ERROR,
        "只能選擇一名武將，這份牌表有 {count} 名。",
        "Only one general may be chosen; this list names {count}.",
    ),
    "not_a_general": (
        ERROR,
        "「{name}」不是武將，不能作為武將。",
        "{name} is not a general and cannot be chosen as one.",
    ),
    "banned_card": (ERROR, "「{name}」在{format}中被禁用。", "{name} is banned in {format_en}."),
    "unknown_card": (ERROR, "找不到卡牌「{text}」。", "No card called {text!r}."),
    "invalid_count": (
        ERROR,
        "「{name}」的數量 {count} 無效：應為 1 至 {max_count}。",
        "{count} is not a valid count for {name}: use 1 to {max_count}.",
    ),
    "not_a_reinforcement": (
        ERROR,
        "「{name}」不是援軍牌，不能列在援軍區。",
        "{name} is not a reinforcement and cannot be listed as one.",
    ),
    "no_general": (
        WARNING,
        "沒有選擇武將：將使用生命30、沒有技能的預設武將。",
        "No general chosen: the default general (30 life, no skills) will be played.",
    ),
    "unreadable_line": (ERROR, "無法讀取：{reason}。", "Cannot be read: {reason_en}."),
    "set_not_allowed": (
        ERROR,
        "「{name}」不屬於{format}允許的系列（{sets}）。",
        "{name} is not from a set {format_en} allows ({sets_en}).",
    ),
}

PROBLEM_CODES = tuple(MESSAGES)


# Runs of lines a message names; a problem's `lines` still lists every line.
MAX_RUNS = 12


def line_ranges(lines: tuple[int, ...]) -> list[str]:
    """Sorted line numbers as runs: (3, 4, 5, 8, 9) is ["3–5", "8", "9"], at most MAX_RUNS of them and
    then "…". A list of 13,000 unreadable lines is named in a few characters, not 13,000 numbers."""
    runs: list[list[int]] = []
    for number in lines:
        if runs and number == runs[-1][1] + 1:
            runs[-1][1] = number
        else:
            runs.append([number, number])
    named: list[str] = []
    for a, b in runs[:MAX_RUNS]:  # two lines in a row are two numbers, three or more a run
        named += [f"{a}–{b}"] if b > a + 1 else [str(n) for n in range(a, b + 1)]
    return [*named, "…"] if len(runs) > MAX_RUNS else named


def at_lines(message: str, message_en: str, lines: tuple[int, ...]) -> tuple[str, str]:
    """A message that names the lines it is about first: "第 3、7–9 行：…", "Lines 3, 7–9: …"."""
    if not lines:
        return message, message_en
    runs = line_ranges(lines)
    zh, en = "、".join(runs), ", ".join(runs)
    return f"第 {zh} 行：{message}", f"{'Line' if len(lines) == 1 else 'Lines'} {en}: {message_en}"


def problem(code: str, *, cards: tuple[str, ...] = (), lines: tuple[int | None, ...] = (), **values: Any) -> Problem:
    """A problem, its message naming the lines of the list it is about (when it came from one)."""
    severity, zh, en = MESSAGES[code]
    known_lines = tuple(sorted({line for line in lines if line is not None}))
    message, message_en = at_lines(zh.format(**values), en.format(**values), known_lines)
    return Problem(
        code=code,
        severity=severity,
        message=message,
        message_en=message_en,
        cards=tuple(dict.fromkeys(cards)),
        lines=known_lines,
    )
