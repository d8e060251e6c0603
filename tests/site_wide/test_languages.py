"""Three languages without faults: on the English pages, Chinese appears only inside elements
marked with a Chinese language (card data, set names, examples of Chinese input, the language
switcher's own labels, text users wrote); every catalogue message is translated in both Chinese
catalogues with the same placeholders."""

from __future__ import annotations

import re
import shutil
from datetime import timedelta
from pathlib import Path

import polib
import pytest
from django.core.management import call_command
from django.test import Client
from django.utils import timezone

from events.models import Event, Submission
from tests.support.collection_helpers import own
from tests.support.deck_helpers import make_deck
from tests.support.language_check import interface_text, unmarked_chinese
from tests.support.pages import PRIVATE, PUBLIC, contributions, paired_round, paper_sheet, play_group, scanned, talk

pytestmark = pytest.mark.django_db
LOCALE = Path(__file__).resolve().parents[2] / "locale"


@pytest.fixture
def places(alice):
    own(alice, YXJQ_003=3, YXJQ_004=(1, 1), WJ_001=1)
    deck = make_deck(alice, name="蜀漢步兵", public=True)
    event = Event.objects.create(organiser=alice, name="台北冬季賽", deadline=timezone.now() + timedelta(days=2))
    Submission.objects.create(event=event, player_name="王小明", text="武將: 劉備\n3 新兵\n")
    check = paired_round(event)
    return {
        "deck": deck.pk,
        "event": event.pk,
        "check": check,
        "token": event.token,
        "public": event.public_token,
        **contributions(alice),
        **scanned(alice),
        **paper_sheet(event),
        **play_group(alice, deck),
        **talk(alice, deck),
    }


def english(client: Client) -> Client:
    client.post("/i18n/setlang/", {"language": "en", "next": "/"})
    return client


def test_english_pages_mark_every_chinese_text(alice, places) -> None:
    visitor, owner = english(Client()), english(Client())
    owner.force_login(alice)
    faults = []
    for client, paths in ((visitor, PUBLIC), (owner, PRIVATE)):
        for path in paths:
            url = path.format(**places)
            response = client.get(url)
            assert response.status_code == 200, url
            faults += [f"{url}: {fault}" for fault in unmarked_chinese(response.content.decode())]
    assert faults == [], "\n".join(faults[:60]) + f"\n… {len(faults)} in all"


PLACEHOLDER = re.compile(r"%\((\w+)\)[sd]|%[sd]|\{\w+\}")


@pytest.mark.parametrize("language", ["zh_Hant", "zh_Hans"])
def test_every_message_is_translated_with_its_placeholders(language: str) -> None:
    catalogue = polib.pofile(str(LOCALE / language / "LC_MESSAGES" / "django.po"))
    untranslated = [e.msgid for e in catalogue if not e.obsolete and (not e.translated() or "fuzzy" in e.flags)]
    assert untranslated == []
    mismatched = []
    for entry in catalogue:
        if entry.obsolete:
            continue
        targets = [entry.msgstr] if not entry.msgid_plural else list(entry.msgstr_plural.values())
        wanted = sorted(PLACEHOLDER.findall(entry.msgid))
        mismatched += [entry.msgid for target in targets if sorted(PLACEHOLDER.findall(target)) != wanted]
    assert mismatched == []


TERMS = LOCALE / "terms.tsv"
COLUMNS = ("term", "en", "zh_Hant", "zh_Hans", "wrong_en", "wrong_zh_Hant", "wrong_zh_Hans")


def _terms() -> list[dict[str, str]]:
    rows = []
    for line in TERMS.read_text(encoding="utf-8").splitlines():
        if line.strip() and not line.startswith("#"):
            cells = line.split("\t")
            assert len(cells) == len(COLUMNS), line
            rows.append(dict(zip(COLUMNS, cells, strict=True)))
    return rows


def _wrong(language: str) -> list[str]:
    return [word for row in _terms() for word in row[f"wrong_{language}"].split("、") if word]


def _texts(catalogue: polib.POFile, *, source: bool) -> list[str]:
    texts = []
    for entry in catalogue:
        if not entry.obsolete:
            texts += [entry.msgid, entry.msgid_plural] if source else [entry.msgstr, *entry.msgstr_plural.values()]
    return [t for t in texts if t]


@pytest.mark.parametrize("language", ["en", "zh_Hant", "zh_Hans"])
def test_the_catalogues_use_the_reviewed_words_of_each_language(language: str) -> None:
    """locale/terms.tsv: no wrong word in a language's messages (English: the source strings),
    and each term's own word is there."""
    catalogue = polib.pofile(str(LOCALE / ("zh_Hant" if language == "en" else language) / "LC_MESSAGES" / "django.po"))
    texts = _texts(catalogue, source=language == "en")
    wrong = [(word, text) for word in _wrong(language) for text in texts if word in text]
    assert wrong == []
    written = "\n".join(texts)
    missing = [row["term"] for row in _terms() if row[language].split("…")[0].strip() not in written]
    assert missing == []


def test_the_glossary_catches_a_wrong_word() -> None:
    assert "权杖" in _wrong("zh_Hans") and "默認" in _wrong("zh_Hant") and "Sign in" in _wrong("en")


# A count meeting a noun in English goes through ngettext: "1 foils" is the fault it catches.
ONE_PLURAL = re.compile(
    r"(?<![\d.,])\b1 (?!(?:class|series|status|plus|bonus|less|this|is|was|has|as|its|his|us|always)\b)([a-z]+s)\b"
)


@pytest.mark.parametrize("language", ["en", "zh-hant", "zh-hans"])
def test_pages_use_the_reviewed_words_and_english_plurals(alice, places, language: str) -> None:
    client = Client()
    client.post("/i18n/setlang/", {"language": language, "next": "/"})
    client.force_login(alice)
    wrong = _wrong({"en": "en", "zh-hant": "zh_Hant", "zh-hans": "zh_Hans"}[language])
    faults = []
    for path in [*PUBLIC, *PRIVATE]:
        url = path.format(**places)
        text = interface_text(client.get(url).content.decode())
        faults += [f"{url}: {word}" for word in wrong if word in text]
        if language == "en":
            faults += [f"{url}: 1 {m.group(1)}" for m in ONE_PLURAL.finditer(text)]
    assert faults == []


SOURCE = LOCALE.parent
# What `make makemessages` leaves out, and what is not source at all.
NOT_SOURCE = {".venv", ".git", "tests", "bench", "locale", "node_modules", "media", "test-artifacts", "audit"}


@pytest.mark.skipif(shutil.which("xgettext") is None, reason="extracting messages needs GNU gettext")
def test_every_string_the_source_marks_is_in_the_catalogue(tmp_path: Path, settings, monkeypatch) -> None:
    """A sentence marked for translation but missing from the catalogue shows in English to every
    reader (the pictures drawn in Python, a plural split over lines without `trimmed`): extracted
    as `make makemessages` does, from a copy of the source, each must be there and translated."""
    for path in SOURCE.iterdir():
        if path.is_dir() and path.name not in NOT_SOURCE:
            shutil.copytree(path, tmp_path / path.name, ignore=shutil.ignore_patterns("__pycache__"))
    (tmp_path / "locale" / "zh_Hant").mkdir(parents=True)
    settings.LOCALE_PATHS = []
    monkeypatch.chdir(tmp_path)
    call_command("makemessages", locale=["zh_Hant"], extensions=["html", "txt", "py", "svg"], no_location=True)
    extracted = polib.pofile(str(tmp_path / "locale" / "zh_Hant" / "LC_MESSAGES" / "django.po"))
    catalogue = polib.pofile(str(LOCALE / "zh_Hant" / "LC_MESSAGES" / "django.po"))
    known = {(e.msgctxt, e.msgid, e.msgid_plural) for e in catalogue if not e.obsolete and e.translated()}
    missing = [e.msgid for e in extracted if e.msgid and (e.msgctxt, e.msgid, e.msgid_plural) not in known]
    assert missing == []
