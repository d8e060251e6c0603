"""User-written Markdown (deck descriptions) to sanitised HTML, in time linear in its size.

Python-Markdown is quadratic on inputs such as 10,000 `[` (8.5 s of CPU per view); cmark, the
CommonMark reference parser, is built and tested to be linear on every pathological input the
spec lists. nh3 (html5ever) is not linear on deeply nested HTML (10,000 nested blockquotes take
a second), so HTML nested deeper than any real description is shown as plain text instead.
The result is rendered once, when the text is saved, and stored beside it.
"""

from __future__ import annotations

import html
import re

import cmarkgfm
import nh3
from cmarkgfm.cmark import Options

# Deeper than any real description: quotes in lists in quotes, a few levels each.
MAX_NESTING = 24
# Elements that never hold others, so they never open a level.
_VOID = frozenset({"br", "hr", "img", "input", "wbr"})
# No `<` inside a tag: a scan never runs past the next one, so it stays linear on any output.
_TAG = re.compile(r"<(/?)([a-zA-Z][a-zA-Z0-9]*)[^<>]*>")


def _too_deep(rendered: str) -> bool:
    depth = 0
    for match in _TAG.finditer(rendered):
        closing, name = match.groups()
        if name.lower() in _VOID or match.group(0).endswith("/>"):
            continue
        depth += -1 if closing else 1
        if depth > MAX_NESTING:
            return True
    return False


def plain_html(text: str) -> str:
    """Text shown as written: escaped, paragraphs kept."""
    paragraphs = [p for p in re.split(r"\n\s*\n", text) if p.strip()]
    return "".join("<p>" + html.escape(p).replace("\n", "<br>") + "</p>" for p in paragraphs)


def render_markdown(text: str) -> str:
    """Sanitised HTML for `text`: no scripts, no event handlers, links made safe.

    cmark's default (safe) mode already drops raw HTML and javascript: links; nh3 is the second
    line, so that a bug in either alone lets nothing through.
    """
    if not text.strip():
        return ""
    rendered = cmarkgfm.markdown_to_html(text, options=Options.CMARK_OPT_DEFAULT)
    if _too_deep(rendered):
        return plain_html(text)
    return nh3.clean(rendered, link_rel="nofollow noopener noreferrer")
