"""Three languages without faults: on the English pages, Chinese appears only inside elements
marked with a Chinese language (card data, set names, examples of Chinese input, the language
switcher's own labels, text users wrote); every catalogue message is translated in both Chinese
catalogues with the same placeholders."""

from __future__ import annotations

import re
from datetime import timedelta
from pathlib import Path

import polib
import pytest
from django.test import Client
from django.utils import timezone

from events.models import Event, Submission
from tests.support.collection_helpers import own
from tests.support.deck_helpers import make_deck
from tests.support.language_check import unmarked_chinese
from tests.support.pages import PRIVATE, PUBLIC, contributions, paired_round

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
