"""One way in for a deck: a deck list (pasted or from a .txt file), a deck code, or structured
entries (JSON) become one `DeckData`, by the same rules for the import page, the API and event
submissions.

Two modes: `lenient` (the import page) keeps what it can read and turns the rest into notes
with their line numbers; strict (the API) refuses the whole input with every message.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from catalog.lookup import catalog_index
from decks import deckcode
from decks.data import DeckData
from decks.i18n import pick
from decks.legality import check_list, deck_for_rules
from decks.models import MAX_ENTRY_COUNT
from rules_check import DEFAULT_FORMAT, FORMATS, DeckListError, export
from rules_check.messages import at_lines


@dataclass
class Note:
    """Something of the input that did not become part of the deck."""

    line: int | None
    message: str
    message_en: str

    def as_dict(self) -> dict[str, object]:
        return {"line": self.line, "message": self.message, "message_en": self.message_en}


@dataclass
class DeckInputError(ValueError):
    """The input cannot become a deck (strict mode): every reason, in the reader's language."""

    messages: list[str] = field(default_factory=list)

    def __str__(self) -> str:
        return " ".join(self.messages)


def read_code(text: str, *, name: str = "", lenient: bool = False) -> tuple[DeckData, list[Note]]:
    """A deck code. Cards the catalogue does not know are notes (lenient) or refused."""
    try:
        decoded = deckcode.decode(text)
    except deckcode.DeckCodeError as exc:
        raise DeckInputError([str(exc)]) from None
    known = catalog_index().pk_by_code
    unknown = sorted(
        {*decoded.main, *decoded.reinforcements, *([decoded.general] if decoded.general else [])} - set(known)
    )
    if unknown and not lenient:
        raise DeckInputError(
            [pick(f"未知的卡牌：{', '.join(unknown[:10])}", f"Unknown cards: {', '.join(unknown[:10])}")]
        )
    decoded.name = name
    decoded.main = {c: n for c, n in decoded.main.items() if c in known}
    decoded.reinforcements = {c: n for c, n in decoded.reinforcements.items() if c in known}
    if decoded.general not in known:
        decoded.general = None
    return decoded, [Note(None, code, code) for code in unknown]


def read_list(text: str, *, name: str = "", format_name: str, lenient: bool = False) -> tuple[DeckData, list[Note]]:
    """A deck list. Its own "Deck:" name and "Format:" line, when it has them, win."""
    try:
        # Only the parse is read here, never the verdict: any format will do.
        parsed, _verdict = check_list(text, FORMATS[DEFAULT_FORMAT])
    except DeckListError as exc:
        raise DeckInputError([pick(exc.message, exc.message_en)]) from None
    notes = [Note(p.lines[0] if p.lines else None, p.message, p.message_en) for p in parsed.problems]
    main: dict[str, int] = {}
    reinforcements: dict[str, int] = {}
    for section, target in ((parsed.deck.main, main), (parsed.deck.reinforcements, reinforcements)):
        for entry in section:
            if entry.count < 1:
                lines = (entry.line,) if entry.line else ()
                message, message_en = at_lines(
                    f"{entry.card.name} ×{entry.count}", f"{entry.card.code}: count {entry.count}", lines
                )
                notes.append(Note(entry.line, message, message_en))
                continue
            target[entry.card.code] = min(target.get(entry.card.code, 0) + entry.count, MAX_ENTRY_COUNT)
    if notes and not lenient:
        raise DeckInputError([pick(n.message, n.message_en) for n in notes])
    general = parsed.deck.generals[0].card.code if parsed.deck.generals else None
    declared = parsed.declared_format if parsed.declared_format in FORMATS else None
    return DeckData(parsed.name or name, declared or format_name, general, main, reinforcements), notes


def read_text(text: str, *, name: str = "", format_name: str, lenient: bool = False) -> tuple[DeckData, list[Note]]:
    """Whatever was pasted or uploaded: a deck code if it reads as one, else a deck list."""
    if deckcode.looks_like_code(text):
        try:
            return read_code(text, name=name, lenient=lenient)
        except DeckInputError:
            pass  # not a code after all: read it as a list
    return read_list(text, name=name, format_name=format_name, lenient=lenient)


def card_code(text: str) -> str | None:
    """A card named by code, alias or name, as its canonical code (None if there is no such card)."""
    facts = catalog_index().lookup(text)
    return facts.code if facts else None


def list_text(text: str) -> str:
    """Text to store as a list (event submissions keep text): a deck code becomes its deck list;
    anything else is kept as written, for the checker to judge."""
    if deckcode.looks_like_code(text):
        try:
            data, _notes = read_code(text)
        except DeckInputError:
            return text
        return export(deck_for_rules(data), fmt=data.format)
    return text
