"""Every page of the site, for the harnesses that walk them all (languages, layout and axe).
A new page joins one of these lists. Placeholders: {deck}, {event}, {token} (the owner's)."""

from __future__ import annotations

# Pages anyone may read (a visitor).
PUBLIC = [
    "/",
    "/cards/",
    "/cards/?view=grid",
    "/cards/WJ-001/",
    "/cards/YXJQ-003/",
    "/cards/LSHJ-001/",
    "/cards/syntax/",
    "/sets/",
    "/sets/YXJQ/",
    "/check/",
    "/check/many/",
    "/decks/",
    "/decks/{deck}/",
    "/decks/{deck}/history/",
    "/decks/{deck}/sheet/",
    "/decks/{deck}/odds/?card=YXJQ-003&k=2",
    "/decks/{deck}/sample/?seed=7&turn=2&aside=0",
    "/decks/compare/?a={deck}&b={deck}",
    "/accounts/login/",
    "/accounts/signup/",
    "/accounts/password/reset/",
    "/accounts/password/reset/done/",
    "/accounts/password/reset/complete/",
]
# Pages of one user (read as their owner).
PRIVATE = [
    "/collection/",
    "/collection/completion/",
    "/collection/trade/",
    "/collection/history/",
    "/collection/import/",
    "/collection/missing/YXJQ/",
    "/decks/mine/",
    "/decks/mine/?archived=1",
    "/decks/shopping/?deck={deck}&wishlist=1",
    "/decks/archive/",
    "/decks/{deck}/build/",
    "/decks/import/",
    "/events/",
    "/events/{event}/",
    "/events/{event}/sheets/",
    "/accounts/",
    "/accounts/delete/",
    "/e/{token}/",
]
# Print sheets are A4 pages, not screens: the layout test leaves them out.
PRINT_SHEETS = frozenset({"/decks/{deck}/sheet/", "/events/{event}/sheets/"})
