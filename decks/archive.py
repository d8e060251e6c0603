"""All of a user's decks in one zip, and back: a .txt deck list per deck (readable by any deck
site) and decks.json with everything (tags, versions, description, flags). The "everything"
zip adds the collection and the wishlist as CSV.

An upload adds its decks beside the existing ones, never replacing any. The whole zip is read
and checked first; a bad file or deck is listed and nothing at all is added.
"""

from __future__ import annotations

import io
import json
import re
import zipfile
from dataclasses import dataclass, field
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from catalog.lookup import catalog_index
from collection.csv_io import export_csv
from collection.queries import wishlist
from decks import intake, services
from decks.batch import BatchError, read_zip
from decks.data import DeckData
from decks.forms import clean_tags
from decks.i18n import pick
from decks.models import MAX_DESCRIPTION, MAX_ENTRY_COUNT, Deck, DeckVersion, Visibility
from rules_check import DEFAULT_FORMAT, FORMATS, DeckListError, decode
from webutil.csv import csv_text
from webutil.parsers import unsafe_message
from webutil.text import UnsafeText, clean_document, strip_bidi
from webutil.throttling import Limit

KIND = "zongheng-deckbox-decks"
JSON_NAME = "decks.json"
MAX_JSON_BYTES = 8 * 1024 * 1024
# What one upload may add (README "Security and limits"): an 80 KB zip of 500 decks of 310
# versions each once wrote 155,000 rows in one request. The newest versions of each deck are kept.
MAX_DECKS = 500
MAX_VERSIONS = 20
# Version numbers as a deck's own saves reach them; a larger one is not a real history.
MAX_VERSION_NUMBER = 1_000_000
# Uploads a user may make an hour (webutil.throttling.hit).
UPLOADS_PER_HOUR = Limit(count=10, seconds=3600)


class ArchiveError(ValueError):
    """The upload cannot be added: every reason, one per bad file or deck."""

    def __init__(self, problems: list[str]) -> None:
        super().__init__(" ".join(problems))
        self.problems = problems


# --- download ----------------------------------------------------------------------------------


def _file_name(number: int, name: str) -> str:
    safe = re.sub(r'[\\/:*?"<>|\x00-\x1f]+', "_", name).strip(" .") or "deck"
    return f"decks/{number:03d} {safe[:60]}.txt"


def _decks(user: Any) -> list[Deck]:
    return list(Deck.objects.owned_by(user).order_by("created", "pk").prefetch_related("entries", "tags", "versions"))


def decks_json(decks: list[Deck]) -> dict[str, Any]:
    out = []
    for deck in decks:
        data = services.snapshot_of(deck)
        out.append(
            data.to_snapshot()
            | {
                "visibility": deck.visibility,
                "public": deck.public,  # what archives before the three visibilities said
                "archived": deck.archived,
                "built": deck.built,
                "tags": [t.name for t in deck.tags.all()],
                "created": deck.created.isoformat(),
                "versions": [
                    {"number": v.number, "created": v.created.isoformat(), "note": v.note, "snapshot": v.snapshot}
                    for v in sorted(deck.versions.all(), key=lambda v: v.number)
                ],
            }
        )
    return {"kind": KIND, "version": 1, "exported": timezone.now().isoformat(), "decks": out}


def export_zip(user: Any, *, everything: bool = False) -> bytes:
    """My decks as a zip (and, with `everything`, my collection and wishlist too)."""
    decks = _decks(user)  # three queries, however many decks
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr(JSON_NAME, json.dumps(decks_json(decks), ensure_ascii=False, indent=1))
        for number, deck in enumerate(decks, start=1):
            archive.writestr(_file_name(number, deck.name), services.deck_text(deck))
        if everything:
            archive.writestr("collection.csv", export_csv(user))
            rows = ([w.card.code, w.card.name, w.wanted] for w in wishlist(user))
            archive.writestr("wishlist.csv", csv_text(["code", "name", "wanted"], rows))
    return buffer.getvalue()


# --- upload ------------------------------------------------------------------------------------


@dataclass
class Incoming:
    """One deck of an upload, checked, ready to add."""

    data: DeckData
    visibility: str = Visibility.PRIVATE
    archived: bool = False
    built: bool = False
    tags: list[str] = field(default_factory=list)
    versions: list[dict[str, Any]] = field(default_factory=list)


def read_archive(content: bytes) -> list[Incoming]:
    """Every deck of the zip, checked, or ArchiveError with every problem found."""
    try:
        files = read_zip(content, larger={JSON_NAME: MAX_JSON_BYTES})
    except BatchError as exc:
        raise ArchiveError([str(exc)]) from None
    by_name = dict(files)
    if JSON_NAME in by_name:
        return _from_json(by_name[JSON_NAME])
    lists = [(name, data) for name, data in files if name.lower().endswith(".txt")]
    if not lists:
        raise ArchiveError([_("The zip holds neither decks.json nor .txt deck lists.")])
    problems: list[str] = []
    out = []
    for name, data in lists:
        deck_name = name.rsplit("/", 1)[-1][:-4].lstrip("0123456789 ").strip() or _("Imported deck")
        try:
            text = strip_bidi(decode(data))
            read, _notes = intake.read_text(text, name=deck_name[:100], format_name=DEFAULT_FORMAT)
        except DeckListError as exc:
            problems.append(f"{name[:80]}: {pick(exc.message, exc.message_en)}")
            continue
        except intake.DeckInputError as exc:
            problems.append(f"{name[:80]}: {exc}")
            continue
        out.append(Incoming(read))
    if problems:
        raise ArchiveError(problems)
    return out


def _from_json(raw: bytes) -> list[Incoming]:
    try:
        document = json.loads(raw.decode("utf-8-sig"))
    except (UnicodeDecodeError, ValueError, RecursionError):
        raise ArchiveError([_("%(name)s is not JSON.") % {"name": JSON_NAME}]) from None
    try:
        document = clean_document(document)  # the same cleaning as every form field and API body
    except UnsafeText as exc:
        reason, where = exc.args
        raise ArchiveError([f"{JSON_NAME}, {where[:80]}: {unsafe_message(reason)}"]) from None
    if not isinstance(document, dict) or document.get("kind") != KIND or not isinstance(document.get("decks"), list):
        raise ArchiveError([_("%(name)s is not a list of decks from this site.") % {"name": JSON_NAME}])
    if len(document["decks"]) > MAX_DECKS:
        raise ArchiveError([_("At most %(n)d decks at once.") % {"n": MAX_DECKS}])
    problems: list[str] = []
    out = []
    for number, item in enumerate(document["decks"], start=1):
        try:
            out.append(_incoming(item))
        except (ValidationError, ValueError, TypeError, KeyError) as exc:
            label = item.get("name") if isinstance(item, dict) and isinstance(item.get("name"), str) else ""
            reason = " ".join(exc.messages) if isinstance(exc, ValidationError) else str(exc)
            problems.append(
                _("%(file)s, deck %(n)d %(name)s: %(reason)s")
                % {"file": JSON_NAME, "n": number, "name": f"“{label[:40]}”" if label else "", "reason": reason[:200]}
            )
    if problems:
        raise ArchiveError(problems)
    return out


def _snapshot(item: Any) -> DeckData:
    """A deck (or a version) of decks.json as DeckData, every field checked."""
    if not isinstance(item, dict):
        raise ValueError(_("a deck is an object"))
    name, fmt, description = item.get("name"), item.get("format", DEFAULT_FORMAT), item.get("description", "")
    if not isinstance(name, str) or not 1 <= len(name.strip()) <= 100:
        raise ValueError(_("a name of 1 to 100 characters is needed"))
    if fmt not in FORMATS:
        raise ValueError(_("no format “%(name)s”") % {"name": str(fmt)[:20]})
    if not isinstance(description, str) or len(description) > MAX_DESCRIPTION:
        raise ValueError(_("the description is too long"))
    known = catalog_index().pk_by_code
    general = item.get("general")
    if general is not None and (not isinstance(general, str) or general not in known):
        raise ValueError(_("No card “%(code)s”.") % {"code": str(general)[:40]})
    sections = []
    for key in ("main", "reinforcements"):
        entries = item.get(key, {})
        if not isinstance(entries, dict):
            raise ValueError(_("%(section)s must map card codes to counts") % {"section": key})
        for code, count in entries.items():
            if code not in known:
                raise ValueError(_("No card “%(code)s”.") % {"code": str(code)[:40]})
            if type(count) is not int or not 1 <= count <= MAX_ENTRY_COUNT:
                raise ValueError(
                    _("%(code)s: a count must be from 1 to %(max)d") % {"code": code, "max": MAX_ENTRY_COUNT}
                )
        sections.append(dict(entries))
    return DeckData(strip_bidi(name.strip()), fmt, general, sections[0], sections[1], strip_bidi(description))


def _incoming(item: Any) -> Incoming:
    data = _snapshot(item)
    flags = {key: item.get(key, False) for key in ("public", "archived", "built")}
    if any(type(v) is not bool for v in flags.values()):
        raise ValueError(_("public, archived and built are true or false"))
    visibility = item.get("visibility", Visibility.PUBLIC if flags["public"] else Visibility.PRIVATE)
    if visibility not in Visibility.values:
        raise ValueError(_("visibility is private, unlisted or public"))
    tags = item.get("tags", [])
    if not isinstance(tags, list):
        raise ValueError(_("tags are a list"))
    versions = item.get("versions", [])
    if not isinstance(versions, list):
        raise ValueError(_("versions are a list"))
    for version in versions:
        number = version.get("number") if isinstance(version, dict) else None
        if type(number) is not int or not 1 <= number <= MAX_VERSION_NUMBER:
            raise ValueError(_("a version needs a number from 1 to %(max)s") % {"max": f"{MAX_VERSION_NUMBER:,}"})
    if len({v["number"] for v in versions}) != len(versions):
        raise ValueError(_("two versions have the same number"))
    kept = []
    # Only the newest versions are kept, and only those are read.
    for version in sorted(versions, key=lambda v: v["number"])[-MAX_VERSIONS:]:
        note = version.get("note", "")
        snapshot = _snapshot(version.get("snapshot")).to_snapshot()
        kept.append(
            {"number": version["number"], "note": note[:40] if isinstance(note, str) else "", "snapshot": snapshot}
        )
    return Incoming(data, visibility, flags["archived"], flags["built"], clean_tags(tags), kept)


def add_decks(user: Any, incoming: list[Incoming]) -> list[Deck]:
    """Add the checked decks beside the user's own, all or none."""
    added = []
    with transaction.atomic():
        for item in incoming:
            deck = services.save_deck(
                Deck(owner=user, visibility=item.visibility, archived=item.archived), item.data, note="imported"
            )
            if item.versions:
                deck.versions.all().delete()
                DeckVersion.objects.bulk_create(
                    [
                        DeckVersion(deck=deck, number=v["number"], note=v["note"], snapshot=v["snapshot"], public=False)
                        for v in item.versions
                    ]
                )
                services.keep_current_version(deck)
            if item.tags:
                services.set_tags(deck, item.tags)
            if item.built:
                services.set_built(deck, True)
            added.append(deck)
    return added
