"""Writes to decks, each with its rule: entries stored as given (the verdict says what is
wrong), every save a version (builder clicks within a few minutes share one), legality kept
with the deck for the public list."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from datetime import timedelta
from functools import partial
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from catalog import cache_version
from catalog.cardlinks import render_with_card_links
from catalog.lookup import catalog_index
from collection.models import Allocation
from collection.services import fill_allocation
from decks import needs
from decks.data import DeckData
from decks.legality import check_deck_snapshot, deck_for_rules
from decks.models import (
    MAIN,
    MAX_ENTRY_COUNT,
    REINFORCEMENTS,
    RESTORED,
    Deck,
    DeckEntry,
    DeckName,
    DeckTag,
    DeckVersion,
    VerdictState,
    Visibility,
    new_link_token,
)
from groups import formats
from groups.models import Group
from rules_check import DEFAULT_FORMAT, Format, export, formats_stamp
from webutil.locks import database_lock

# Builder clicks within this time of the last version update it instead of making a new one.
AUTOSAVE_WINDOW = timedelta(minutes=10)


class DeckError(ValueError):
    pass


def snapshot_of(deck: Deck, entries: Iterable[DeckEntry] | None = None) -> DeckData:
    """A saved deck as plain data: one query for its entries, none when they are at hand
    (`entries`: a deck page reads them with their cards; lists read many decks at once:
    snapshots_of); card codes come from the catalogue index, not a join."""
    code_by_pk = catalog_index().code_by_pk
    main: dict[str, int] = {}
    reinforcements: dict[str, int] = {}
    for entry in deck.entries.all() if entries is None else entries:
        (main if entry.section == MAIN else reinforcements)[code_by_pk[entry.card_id]] = entry.count
    general = code_by_pk.get(deck.general_id) if deck.general_id else None
    return DeckData(deck.name, deck.format, general, main, reinforcements, deck.description)


def snapshots_of(decks: list[Deck]) -> dict[int, DeckData]:
    """Many decks as plain data, their entries read in one query as bare rows: a page of 50
    decks holds about a thousand entries, and building a model for each cost half the page."""
    code_by_pk = catalog_index().code_by_pk
    main: dict[int, dict[str, int]] = {deck.pk: {} for deck in decks}
    reinforcements: dict[int, dict[str, int]] = {deck.pk: {} for deck in decks}
    rows = DeckEntry.objects.filter(deck_id__in=list(main)).values_list("deck_id", "section", "card_id", "count")
    for deck_id, section, card_id, count in rows:
        (main if section == MAIN else reinforcements)[deck_id][code_by_pk[card_id]] = count
    return {
        deck.pk: DeckData(
            deck.name,
            deck.format,
            code_by_pk.get(deck.general_id) if deck.general_id else None,
            main[deck.pk],
            reinforcements[deck.pk],
            deck.description,
        )
        for deck in decks
    }


def _check_counts(entries: dict[str, int]) -> None:
    for code, count in entries.items():
        if type(count) is not int or not 1 <= count <= MAX_ENTRY_COUNT:
            raise DeckError(_("%(code)s: a count must be from 1 to %(max)d") % {"code": code, "max": MAX_ENTRY_COUNT})


def save_deck(deck: Deck, data: DeckData, *, note: str = "", autosave: bool = False) -> Deck:
    """Write `data` to `deck` (new or existing), all at once, and keep a version of it."""
    _check_counts(data.main)
    _check_counts(data.reinforcements)
    index = catalog_index()
    unknown = [
        c
        for c in [*data.main, *data.reinforcements, *([data.general] if data.general else [])]
        if c not in index.pk_by_code
    ]
    if unknown:
        raise DeckError(_("Unknown cards: %(codes)s") % {"codes": ", ".join(unknown[:10])})
    verdict = check_deck_snapshot(data)
    need = {index.pk_by_code[c]: n for c, n in needs.requirement(data).items()}
    # No savepoint inside a caller's transaction (the builder's change, an import): nothing here
    # is caught and retried, an error rolls back the whole, and a savepoint cost two round trips.
    with transaction.atomic(savepoint=False):
        deck.needs, deck.needs_more = needs.encode(need)
        deck.needs_over = bool(deck.needs_more)
        deck.needs_total = sum(need.values())
        if deck.built:
            deck.allocation = fill_allocation(deck.owner, deck.allocation, data.name, need)
        deck.name = data.name
        deck.format = data.format
        deck.general_id = index.pk_by_code[data.general] if data.general else None
        if deck.description != data.description or (data.description and not deck.description_html):
            deck.description_html = render_with_card_links(data.description)
        deck.description = data.description
        deck.is_legal = verdict.legal
        deck.main_count = verdict.main_deck_count
        played = played_names(data.main)
        deck.card_names = card_names_text(played)
        if deck.public and not deck.announced:
            # First public: the owner's followers hear of it, once, after the commit (a task:
            # a builder may have thousands).
            deck.announced = True
            transaction.on_commit(partial(_announce, deck))
        if deck.public:
            # The community's figures of each card count public decks: counted again, batched.
            transaction.on_commit(_schedule_card_stats)
        deck.save()
        deck.entries.all().delete()
        DeckEntry.objects.bulk_create(
            [DeckEntry(deck=deck, card_id=index.pk_by_code[c], section=MAIN, count=n) for c, n in data.main.items()]
            + [
                DeckEntry(deck=deck, card_id=index.pk_by_code[c], section=REINFORCEMENTS, count=n)
                for c, n in data.reinforcements.items()
            ]
        )
        deck.names.all().delete()
        DeckName.objects.bulk_create([DeckName(deck=deck, name_key=key, copies=n) for key, n in played.items()])
        _keep_version(deck, data, note, autosave)
    return deck


def card_names_text(played: Iterable[str]) -> str:
    """The names a deck plays as Deck.card_names stores them: sorted, joined by "|"."""
    return "|".join(sorted(played))


def played_names(main: dict[str, int]) -> dict[str, int]:
    """The copies of each card name a main deck plays (its printings together)."""
    index = catalog_index()
    played: dict[str, int] = {}
    for code, n in main.items():
        key = index.by_code[code].name_key
        played[key] = played.get(key, 0) + n
    return played


def _keep_version(deck: Deck, data: DeckData, note: str, autosave: bool) -> None:
    snapshot = data.to_snapshot()
    last = deck.versions.first()
    if last and last.snapshot == snapshot:
        if deck.public and not last.public:  # just made public: what others now see is this
            last.public = True
            last.save(update_fields=["public"])
        return
    if autosave and last and last.note == "builder" and timezone.now() - last.created < AUTOSAVE_WINDOW:
        last.snapshot = snapshot
        last.public = deck.public
        last.save(update_fields=["snapshot", "public"])
        return
    DeckVersion.objects.create(
        deck=deck,
        number=(last.number + 1) if last else 1,
        snapshot=snapshot,
        note="builder" if autosave else note,
        public=deck.public,
    )


def keep_current_version(deck: Deck, note: str = "") -> None:
    """A version of the deck as it is now, unless the last version already is it."""
    _keep_version(deck, snapshot_of(deck), note, autosave=False)


def publish_history(deck: Deck) -> int:
    """The owner shows others every earlier version too; returns how many were private."""
    return deck.versions.filter(public=False).update(public=True)


def _schedule_card_stats() -> None:
    from decks.tasks import schedule_card_stats  # here: decks.tasks imports this module

    schedule_card_stats()


def _announce(deck: Deck) -> None:
    from decks.tasks import tell_followers  # here: decks.tasks imports this module

    tell_followers.enqueue(deck.pk)


def _locked(deck: Deck) -> Deck:
    """The deck read again under a row lock, inside the caller's transaction: a change made from
    it cannot be lost to another made at the same time (two tabs, ten quick "+1"s)."""
    return Deck.objects.select_for_update(of=("self",)).select_related("general").get(pk=deck.pk)


def update_deck(
    deck: Deck, change: Callable[[Deck, DeckData], None], *, note: str = "", autosave: bool = False
) -> Deck:
    """Read the deck under a row lock, let `change` edit its data (and flags), save it: the
    read and the write are one step, so concurrent changes all land."""
    with transaction.atomic():
        current = _locked(deck)
        data = snapshot_of(current)
        change(current, data)
        return save_deck(current, data, note=note, autosave=autosave)


# What a deck's settings name (the builder's settings form, the deck API): its data's words,
# its flags, then what follows its cards.
SETTINGS_TEXT = ("name", "format", "description")
SETTINGS_FLAGS = ("visibility", "archived")


def apply_settings(
    deck: Deck,
    given: Mapping[str, Any],
    *,
    note: str,
    edit: Callable[[Deck, DeckData], None] | None = None,
) -> Deck:
    """The one way a deck's settings change, from the builder's form and from the API: what
    `given` names of the name, format, description, visibility and archived, with `edit`'s change
    of the cards, under the row lock in one save; then `built` and `tags`, which follow the
    cards as they now are. What `given` does not name stays as it is."""

    def change(current: Deck, data: DeckData) -> None:
        if edit is not None:
            edit(current, data)
        for key in SETTINGS_TEXT:
            if key in given:
                setattr(data, key, given[key])
        for key in SETTINGS_FLAGS:
            if key in given:
                setattr(current, key, given[key])
        if data.format != current.format and not formats.may_use(current.owner, data.format):
            # A house format is its group's: only a member chooses it (a deck keeps it after).
            raise DeckError(_("You may choose only the official formats and those of your groups."))

    with transaction.atomic():
        deck = update_deck(deck, change, note=note)
        set_flags(deck, given)
    deck.refresh_from_db()
    return deck


def set_flags(deck: Deck, given: Mapping[str, Any]) -> None:
    """`built` and `tags` as `given` names them, after the cards: built takes the deck's cards."""
    if "built" in given:
        set_built(deck, given["built"])
    if "tags" in given:
        set_tags(deck, given["tags"])
    if "groups" in given:
        set_groups(deck, given["groups"])


def set_groups(deck: Deck, groups: Iterable[Any]) -> None:
    """The deck is shared with exactly these groups (ids or groups), each one its owner belongs
    to; any other is refused, and nothing changes."""
    wanted = {getattr(g, "pk", g) for g in groups}
    mine = set(Group.objects.of(deck.owner).filter(pk__in=wanted).values_list("pk", flat=True))
    if wanted - mine:
        raise DeckError(_("You can share a deck only with groups you belong to."))
    with transaction.atomic():
        _locked(deck)
        deck.groups.set(sorted(mine))


def unshare_on_leave(group_id: int, user_id: int) -> None:
    """A member who leaves a group (or is removed, or deletes their account) takes their decks
    out of it: a deck is shared with a group only while its owner belongs to it."""
    Deck.groups.through.objects.filter(group_id=group_id, deck__owner_id=user_id).delete()


def release_allocation(allocation_id: int | None) -> None:
    """A deleted built deck gives its copies back: its allocation goes with it."""
    if allocation_id is not None:
        Allocation.objects.filter(pk=allocation_id).delete()


def set_built(deck: Deck, built: bool) -> Deck:
    """Mark the deck built (its copies set aside in the owner's collection) or take it apart."""
    if deck.built == built:
        return deck

    def change(current: Deck, data: DeckData) -> None:
        if built and not current.built:
            current.allocation = fill_allocation(current.owner, None, data.name, {})
        elif not built and current.allocation is not None:
            allocation, current.allocation = current.allocation, None
            current.save(update_fields=["allocation"])
            allocation.delete()

    return update_deck(deck, change)


def set_tags(deck: Deck, names: list[str]) -> None:
    """The deck's tags become exactly `names` (already cleaned: decks.forms.clean_tags)."""
    with transaction.atomic():
        _locked(deck)
        deck.tags.exclude(name__in=names).delete()
        have = set(deck.tags.values_list("name", flat=True))
        DeckTag.objects.bulk_create([DeckTag(deck=deck, name=n) for n in names if n not in have])


def change_entry(deck: Deck, code: str, *, delta: int = 0, count: int | None = None, section: str = MAIN) -> Deck:
    """The builder's +/−/set: the deck saved with one entry changed (0 removes it)."""

    def change(_deck: Deck, data: DeckData) -> None:
        entries = data.main if section == MAIN else data.reinforcements
        new = count if count is not None else entries.get(code, 0) + delta
        if new <= 0:
            entries.pop(code, None)
        else:
            entries[code] = min(new, MAX_ENTRY_COUNT)

    return update_deck(deck, change, autosave=True)


def add_cards(deck: Deck, added: DeckData) -> tuple[Deck, int]:
    """The builder's pasted list: its cards join the deck (counts add up, to the most a line
    may hold; its general only if the deck has none), saved as a version of its own. Returns the
    deck and the number of the version to restore to undo it (the deck as it was before)."""
    with transaction.atomic():
        current = _locked(deck)
        keep_current_version(current)
        before = current.versions.values_list("number", flat=True).first() or 0
        data = snapshot_of(current)
        for mine, theirs in ((data.main, added.main), (data.reinforcements, added.reinforcements)):
            for code, count in theirs.items():
                mine[code] = min(mine.get(code, 0) + count, MAX_ENTRY_COUNT)
        if added.general and not data.general:
            data.general = added.general
        return save_deck(current, data, note="pasted"), before


def set_general(deck: Deck, code: str | None) -> Deck:
    def change(_deck: Deck, data: DeckData) -> None:
        data.general = code

    return update_deck(deck, change, autosave=True)


def restore(deck: Deck, version: DeckVersion) -> Deck:
    data = DeckData.from_snapshot(version.snapshot)
    return save_deck(deck, data, note=f"{RESTORED}{version.number}")


def new_link(deck: Deck) -> Deck:
    """The unlisted deck's link replaced: the old one reads nothing from now on."""
    with transaction.atomic():
        _locked(deck)
        Deck.objects.filter(pk=deck.pk).update(link_token=new_link_token())
    deck.refresh_from_db(fields=["link_token"])
    return deck


def clone(deck: Deck, owner: Any) -> Deck:
    data = snapshot_of(deck)
    data.name = (_("%(name)s (copy)") % {"name": data.name})[:100]
    copy = Deck(owner=owner, visibility=Visibility.PRIVATE)
    return save_deck(copy, data, note="cloned")


@dataclass
class DiffLine:
    code: str
    name: str
    before: int
    after: int

    @property
    def change(self) -> str:
        return "added" if self.before == 0 else "removed" if self.after == 0 else "changed"


def diff(a: dict[str, Any], b: dict[str, Any]) -> dict[str, Any]:
    """What changed from snapshot a to snapshot b: entries added, removed, changed; general; name."""
    index = catalog_index()
    sections = {}
    for section in ("main", "reinforcements"):
        before, after = a.get(section, {}), b.get(section, {})
        lines = [
            DiffLine(
                code,
                index.by_code[code].name if code in index.by_code else code,
                before.get(code, 0),
                after.get(code, 0),
            )
            for code in sorted(set(before) | set(after))
            if before.get(code, 0) != after.get(code, 0)
        ]
        sections[section] = lines
    return {
        "sections": sections,
        "general": (a.get("general"), b.get("general")) if a.get("general") != b.get("general") else None,
        "name": (a.get("name"), b.get("name")) if a.get("name") != b.get("name") else None,
        "format": (a.get("format"), b.get("format")) if a.get("format") != b.get("format") else None,
    }


def deck_text(deck: Deck) -> str:
    """A saved deck as a plain deck list (the export format, read back by every importer)."""
    return export(deck_for_rules(snapshot_of(deck)), title=deck.name, fmt=deck.format)


def refresh_after_commit(**kwargs: Any) -> None:
    """The catalogue changed (catalog.cache_version.changed): check every deck again once the
    change is committed, in the process that made it."""
    transaction.on_commit(refresh_verdicts)


# What a deck keeps of its verdict and its needs, written again when the catalogue changes.
KEPT = ["is_legal", "main_count", "needs", "needs_over", "needs_more", "needs_total"]


def verdict_stamp() -> str:
    """Everything the verdicts and bits decks keep depend on: the catalogue version, the rules
    of every format (rules_check.formats_stamp) and the bits' layout. At most 32 characters
    (VerdictState.catalog_version)."""
    return f"{cache_version.current()}/{formats_stamp()}/{needs.LEVELS}"


def refresh_verdicts(batch: int = 2000) -> int:
    """After a catalogue change (a card's kind, a name) or a change of a format's rules, the
    verdicts decks keep for the public list may be wrong: check every deck again, once per
    stamp, under a lock so that two workers do it once. Returns how many verdicts changed.

    It runs after the write that changes the stamp (catalogue changes: `refresh_after_commit`;
    formats.json: `manage.py refreshverdicts`, which `make run` and `make serve-prod` run), never
    inside a GET: a reader never pays for it."""
    version = verdict_stamp()
    state = VerdictState.objects.filter(pk=1).first()
    if state is not None and state.catalog_version == version:
        return 0
    with database_lock("verdicts"):
        state, _created = VerdictState.objects.get_or_create(pk=1)
        if state.catalog_version == version:
            return 0  # another worker did it while this one waited
        changed = recheck(Deck.objects.all(), batch)
        state.catalog_version = version
        state.save(update_fields=["catalog_version"])
    return changed


def recheck(decks: Any, batch: int = 2000) -> int:
    """Check `decks` again and write what each keeps of its verdict and needs where it changed,
    a chunk at a time, each chunk under its rows' locks: a deck saved meanwhile (services take its
    row lock) is read after its save, or waits for the chunk, and never has an older verdict
    written over its own. Checking a chunk is a few milliseconds of pure Python, no I/O. Returns
    how many changed."""
    pk_by_code = catalog_index().pk_by_code
    slot_of = needs.slots()
    resolved: dict[str, Format] = {}  # each house format read once, not once a deck
    changed, last = 0, 0
    while True:
        with transaction.atomic():
            chunk = list(decks.select_for_update().order_by("pk").filter(pk__gt=last)[:batch])
            if not chunk:
                return changed
            stale = []
            data_of = snapshots_of(chunk)  # the chunk's entries in one query, as bare rows
            for deck in chunk:
                data = data_of[deck.pk]
                if data.format not in resolved:
                    resolved[data.format] = formats.stored(data.format)
                verdict = check_deck_snapshot(data, resolved[data.format])
                # The bits' slots follow catalogue order, which a new version may change.
                need = needs.requirement(data)
                bits, more = needs.encode({pk_by_code[c]: n for c, n in need.items()}, slot_of)
                fresh = (verdict.legal, verdict.main_deck_count, bits, bool(more), more, sum(need.values()))
                if tuple(getattr(deck, f) for f in KEPT) != fresh:
                    for f, value in zip(KEPT, fresh, strict=True):
                        setattr(deck, f, value)
                    stale.append(deck)
            Deck.objects.bulk_update(stale, KEPT)
        changed += len(stale)
        last = chunk[-1].pk


def recheck_format(key: str) -> int:
    """After a house format's rules changed, or it went (its decks then read as the default format
    and are moved to it): its decks' kept verdicts, written again."""
    changed = recheck(Deck.objects.filter(format=key))  # a format that is gone reads as the default
    if formats.house_format(key) is None:
        Deck.objects.filter(format=key).update(format=DEFAULT_FORMAT)
    return changed
