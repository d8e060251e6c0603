"""Where Chinese may appear on a page in English: only inside an element marked with a Chinese
language (lang="zh-Hant" / "zh-Hans"), which is also what screen readers and font fallback need."""

from __future__ import annotations

import re
from html.parser import HTMLParser

CJK = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\u3001-\u303f\uff01-\uff5e\u2e80-\u2fdf]")
VOID = frozenset({"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"})
TEXT_ATTRIBUTES = ("alt", "title", "aria-label", "placeholder")


class _Stacked(HTMLParser):
    """The open elements, each with whether it (or an element around it) is marked."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.stack: list[tuple[str, bool]] = [("", False)]

    def handle_endtag(self, tag: str) -> None:
        for i in range(len(self.stack) - 1, 0, -1):
            if self.stack[i][0] == tag:
                del self.stack[i:]
                break


class _Checker(_Stacked):
    def __init__(self) -> None:
        super().__init__()
        self.faults: list[str] = []

    def _chinese(self, attrs: list[tuple[str, str | None]]) -> bool:
        lang = dict(attrs).get("lang")
        if lang is None:
            return self.stack[-1][1]
        return (lang or "").lower().startswith("zh")

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        chinese = self._chinese(attrs)
        for name, value in attrs:
            if name in TEXT_ATTRIBUTES and value and CJK.search(value) and not chinese:
                self.faults.append(f"<{tag} {name}={value[:40]!r}>")
        if tag not in VOID:
            self.stack.append((tag, chinese))

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.handle_starttag(tag, attrs)
        if tag not in VOID:
            self.stack.pop()

    def handle_data(self, data: str) -> None:
        tag, chinese = self.stack[-1]
        # <title> cannot hold markup: the browser's tab reads it in the page's language.
        if tag in ("script", "style", "title") or chinese:
            return
        if CJK.search(data):
            self.faults.append(f"<{tag}> {data.strip()[:60]!r}")


def unmarked_chinese(html: str) -> list[str]:
    checker = _Checker()
    checker.feed(html)
    return checker.faults


class _Interface(_Stacked):
    """The page's own words: text outside script and style and outside any element that names a
    language of its own (card data, set names and user text are marked so)."""

    def __init__(self) -> None:
        super().__init__()
        self.texts: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        marked = self.stack[-1][1] or (tag != "html" and dict(attrs).get("lang") is not None)
        if tag not in VOID:
            self.stack.append((tag, marked or tag in ("script", "style")))

    def handle_data(self, data: str) -> None:
        if not self.stack[-1][1]:
            self.texts.append(data)


def interface_text(html: str) -> str:
    parser = _Interface()
    parser.feed(html)
    return " ".join(" ".join(parser.texts).split())
