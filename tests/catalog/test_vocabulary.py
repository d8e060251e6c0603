"""The game's vocabulary is defined once and formats are data: a deck code made today reads the
same forever, every format can be encoded, adding a format needs no migration, and a format's
name is shown in the reader's language."""

from __future__ import annotations

from datetime import date, timedelta

import pytest
from django.core.management import call_command
from django.test import Client
from django.utils import timezone

from decks import deckcode
from events.models import Event
from rules_check import FORMATS
from rules_check.codes import PRINTED_PREFIXES, normalize_code
from rules_check.formats import Format, playset_size
from tests.support.event_helpers import starting

pytestmark = pytest.mark.django_db

# Golden values: if one changes, codes that players saved or printed no longer read.
GOLDEN = [
    (
        ("standard", "WJ-001", {"YXJQ-003": 3, "LSHJ-010": 2, "五道·001": 1, "GMGD-024": 3}, {"YJ-001": 1}),
        "AQAEAQQAAwMBCgICGAMDAQEBBwEB",
    ),
    (("classic", None, {"YXJQ-001": 1}, {}), "AQH_AQABAQA"),
]


@pytest.mark.parametrize(("deck", "code"), GOLDEN)
def test_a_fixed_deck_gives_a_fixed_code_forever(deck, code: str) -> None:
    assert deckcode.encode(*deck) == code
    decoded = deckcode.decode(code)
    assert (decoded.format, decoded.general, decoded.main, decoded.reinforcements) == deck


def test_every_format_and_prefix_has_its_pinned_place_in_deck_codes() -> None:
    assert set(FORMATS) <= set(deckcode.FORMAT_TABLE)
    assert deckcode.FORMAT_TABLE[:2] == ("standard", "classic")  # append only
    assert [p for p, _ in PRINTED_PREFIXES][:8] == ["YXJQ", "LSHJ", "GMGD", "五道", "WJ", "YCWJ", "FJ", "YJ"]


def test_codes_read_every_printed_prefix_as_typed() -> None:
    assert normalize_code("wd1") == "五道·001" and normalize_code("ycwj 7") == "YCWJ-007"
    assert normalize_code("yj-2") == "YJ-002" and normalize_code("Y-2") is None


def test_the_playset_is_the_default_formats_copy_limit() -> None:
    assert playset_size("troop") == FORMATS["standard"].copy_limit == 3
    assert playset_size("general") == playset_size("reinforcement") == 1


def test_adding_a_format_needs_no_migration(monkeypatch) -> None:
    extra = Format(name="team", label="團體賽", label_en="Team", min_cards=40, max_cards=60, copy_limit=2)
    monkeypatch.setitem(FORMATS, "team", extra)
    call_command("makemigrations", "--check", "--dry-run", verbosity=0)  # exits non-zero on changes


def test_format_names_are_in_the_readers_language(alice, english) -> None:
    from tests.support.deck_helpers import make_deck

    deck = make_deck(alice, public=True)
    html = Client().get(f"/decks/{deck.pk}/").content.decode()
    assert "Standard" in html and "標準賽制" not in html


def test_saving_event_settings_unchanged_changes_nothing(alice_client: Client, alice) -> None:
    event = Event.objects.create(
        organiser=alice,
        name="台北站",
        format="classic",
        starts_at=starting(date(2026, 12, 21)),
        deadline=timezone.now() + timedelta(days=2),
    )
    for language in ("zh-hant", "zh-hans", "en"):
        alice_client.post("/i18n/setlang/", {"language": language, "next": "/"})
        form = alice_client.get(f"/events/{event.pk}/").context["form"]
        values = {name: form[name].value() for name in form.fields}
        rendered = {name: form[name].as_widget() for name in form.fields}
        assert 'value="2026-12-21T10:00"' in rendered["starts_at"]  # ISO, whatever the language
        fields = {  # as a browser sends them: an empty choice is "" (no play group)
            k: ("" if v is None else v if not hasattr(v, "isoformat") else form[k].field.widget.format_value(v))
            for k, v in values.items()
        }
        assert alice_client.post(f"/events/{event.pk}/", fields).status_code == 302
        saved = Event.objects.get(pk=event.pk)
        assert (saved.name, saved.format, saved.day) == ("台北站", "classic", date(2026, 12, 21))
