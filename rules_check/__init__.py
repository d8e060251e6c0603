"""Deck legality for 三國殺·縱橫: pure Python (stdlib only), shared by the web pages, the API and
the command line through one small adapter each. It never imports Django.

    from rules_check import check, get_format, parse
    parsed = parse(text, lookup)          # lookup(text) -> CardFacts | None
    verdict = check(parsed.deck, get_format("standard"), parsed.problems)
"""

from rules_check.check import check
from rules_check.codes import normalize_code
from rules_check.decklist import DeckListError, ParsedList, decode, export, parse
from rules_check.formats import DEFAULT_FORMAT, FORMATS, Format, FormatError, formats_stamp, get_format
from rules_check.messages import PROBLEM_CODES
from rules_check.model import CardFacts, Deck, Entry, Problem, Verdict

__all__ = [
    "DEFAULT_FORMAT",
    "FORMATS",
    "PROBLEM_CODES",
    "CardFacts",
    "Deck",
    "DeckListError",
    "Entry",
    "Format",
    "FormatError",
    "ParsedList",
    "Problem",
    "Verdict",
    "check",
    "decode",
    "export",
    "formats_stamp",
    "get_format",
    "normalize_code",
    "parse",
]
