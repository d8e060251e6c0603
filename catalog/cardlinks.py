"""Card links in what users write: `[[新兵]]` (a name in either script, pinyin, a code or a
`WD-` alias, as deck lists accept them) links the card, and its face shows on hover or focus
(a tap on a phone). A name several cards bear links to the card list of that name.

The text is rendered as Markdown and sanitised first (webutil.markup); the links are put in
after, as markup of our own, so no user-written HTML ever reaches the page through them."""

from __future__ import annotations

import html
import re
import secrets
from urllib.parse import urlencode

from django.urls import reverse

from catalog.lookup import catalog_index
from webutil.markup import render_markdown

# A card's name or code is short; longer brackets are left as written.
_LINK = re.compile(r"\[\[([^\[\]\n]{1,40})\]\]")


def _link(text: str) -> str | None:
    index = catalog_index()
    facts = index.lookup(text.strip())
    if facts is None:
        return None
    name = html.escape(facts.name)
    if index.printings.get(facts.same_name_key, 1) > 1:
        href = reverse("catalog:card-list") + "?" + urlencode({"q": facts.name})
    else:
        href = reverse("catalog:card-detail", args=[facts.code])
    face = reverse("catalog:card-face", args=[facts.code])
    return (
        f'<a class="card-link" href="{html.escape(href)}" lang="zh">{name}'
        f'<img class="card-peek" src="{html.escape(face)}" alt="" loading="lazy" width="120" height="168"></a>'
    )


def render_with_card_links(text: str) -> str:
    """Sanitised HTML of the Markdown `text`, with its `[[card]]`s linked."""
    nonce = secrets.token_hex(6)
    links: dict[str, str] = {}

    def mark(match: re.Match[str]) -> str:
        link = _link(match.group(1))
        if link is None:
            return match.group(0)
        token = f"zhcard{nonce}x{len(links)}z"
        links[token] = link
        return token

    rendered = render_markdown(_LINK.sub(mark, text))
    for token, link in links.items():
        rendered = rendered.replace(token, link)
    return rendered
