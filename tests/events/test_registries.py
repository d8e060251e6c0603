"""The tournament's lists are one registry each (the tie-breakers; an event's bounds, as validators on
the model fields), and the places derived from them agree with them."""

from __future__ import annotations

import csv
import dataclasses
import importlib
import io
import re

import pytest
from django.test import Client

from tests.conftest import logged_in
from tests.events.test_tournament_day import make_event, play_round
from tournament import TIEBREAKERS, Match, Points, standings

pytestmark = pytest.mark.django_db


def test_the_tiebreakers_feed_the_table_the_csv_the_api_and_the_sentence(alice, english) -> None:
    event = make_event(alice, players=6)
    play_round(event)
    client = logged_in(alice)
    keys = [t.key for t in TIEBREAKERS]
    header = next(csv.reader(io.StringIO(client.get(f"/events/{event.pk}/standings.csv").content.decode("utf-8-sig"))))
    assert header == ["rank", "player", "points", *keys]
    rows = client.get(f"/api/events/{event.pk}/standings/").json()
    assert [k for k in rows[0] if k in keys] == keys
    schema = Client().get("/api/schema/?format=json").json()["components"]["schemas"]
    documented = next(s for name, s in schema.items() if name.startswith("Standing"))["properties"]
    assert [k for k in documented if k in keys] == keys
    page = client.get(f"/events/{event.pk}/day/").content.decode()
    table = page[page.index('class="cards standings"') :]
    assert re.findall(r"<abbr title=\"[^\"]+\">(\w+)</abbr>", table)[: len(TIEBREAKERS)] == [
        t.abbr for t in TIEBREAKERS
    ]
    sentence = re.search(r"Order: points, then (.*?), then a drawn lot", page)
    assert sentence is not None
    assert sentence.group(1) == ", ".join(f"{t.label} ({t.abbr})" for t in TIEBREAKERS).replace("'", "&#x27;")


def test_a_new_tiebreaker_is_one_entry_that_appears_everywhere(alice, english, monkeypatch) -> None:
    """A tie-breaker added to the registry alone shows in the table, the sentence, the CSV, the
    API's rows and its schema: nothing else lists them."""
    from fractions import Fraction

    from tournament import Tiebreaker

    fake = Tiebreaker("fake", "FK", "Fake share %", lambda row: Fraction(1, 2))
    monkeypatch.setattr(importlib.import_module("tournament.standings"), "TIEBREAKERS", (*TIEBREAKERS, fake))
    event = make_event(alice, players=6)
    play_round(event)
    client = logged_in(alice)
    header = next(csv.reader(io.StringIO(client.get(f"/events/{event.pk}/standings.csv").content.decode("utf-8-sig"))))
    assert header[-1] == "fake"
    assert client.get(f"/api/events/{event.pk}/standings/").json()[0]["fake"] == 0.5
    schema = Client().get("/api/schema/?format=json").json()["components"]["schemas"]
    assert "fake" in next(s for name, s in schema.items() if name.startswith("Standing"))["properties"]
    page = client.get(f"/events/{event.pk}/day/").content.decode()
    assert '<abbr title="Fake share %">FK</abbr>' in page and "Fake share % (FK), then a drawn lot" in page


def test_the_order_of_the_registry_is_the_order_of_the_standings(monkeypatch: pytest.MonkeyPatch) -> None:
    """1 and 2 both win twice: 1's opponents did better (OMW), 2 won more games (GW). The first
    tie-breaker of the list decides."""
    matches = [
        Match(1, 3, 2, 1, 0),
        Match(1, 5, 2, 1, 0),
        Match(2, 4, 2, 0, 0),
        Match(2, 6, 2, 0, 0),
        Match(3, 7, 2, 0, 0),  # 1's opponents win their other match
        Match(5, 8, 2, 0, 0),
    ]
    players = list(range(1, 9))
    ranked = standings(players, matches, Points(), seed=1)
    assert [r.player for r in ranked][:2] == [1, 2]  # OMW first
    by_games = tuple(sorted(TIEBREAKERS, key=lambda t: t.key != "gw"))
    # the module, not the function the package exports under the same name
    monkeypatch.setattr(importlib.import_module("tournament.standings"), "TIEBREAKERS", by_games)
    ranked = standings(players, matches, Points(), seed=1)
    assert [r.player for r in ranked][:2] == [2, 1]  # game-win % first
    assert dataclasses.is_dataclass(TIEBREAKERS[0])


# --- an event's bounds: validators on the model fields, inherited by the form and the API -------

DAY_SETTINGS = {
    "best_of": 3,
    "win_points": 3,
    "draw_points": 1,
    "loss_points": 0,
    "round_minutes": 50,
    "top_cut": 0,
    "lists_public": "after",
}


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("win_points", 11),
        ("draw_points", 11),
        ("round_minutes", 241),
        ("round_minutes", 4),
        ("rounds", 21),
        ("rounds", 0),
    ],
)
def test_the_page_and_the_api_refuse_the_same_bounds(alice, field: str, value: int) -> None:
    from events.models import Event

    event = make_event(alice, players=2)
    client = logged_in(alice)
    page = client.post(f"/events/{event.pk}/day/settings/", DAY_SETTINGS | {field: value})
    assert page.status_code == 400
    api = client.patch(f"/api/events/{event.pk}/", {field: value}, content_type="application/json")
    assert api.status_code == 400 and field in api.json()
    # and a value inside the bounds is taken by both
    assert client.post(f"/events/{event.pk}/day/settings/", DAY_SETTINGS | {field: 10}).status_code == 302
    assert (
        client.patch(
            f"/api/events/{event.pk}/", {field: 5 + (field != "rounds")}, content_type="application/json"
        ).status_code
        == 200
    )
    assert getattr(Event.objects.get(pk=event.pk), field) == 5 + (field != "rounds")


def test_a_deadline_year_is_bounded_in_the_form_the_api_and_the_model(alice) -> None:
    from django.core.exceptions import ValidationError

    event = make_event(alice, players=2)
    client = logged_in(alice)
    api = client.patch(
        f"/api/events/{event.pk}/", {"deadline": "3001-01-01T00:00:00Z"}, content_type="application/json"
    )
    assert api.status_code == 400 and "2999" in json_text(api)
    page = client.post(
        f"/events/{event.pk}/", {"name": "x", "format": "standard", "deadline": "0001-01-01T00:00", "starts_at": ""}
    )
    assert page.status_code == 400 and "2999" in page.content.decode()
    event.deadline = event.deadline.replace(year=3001)
    with pytest.raises(ValidationError):
        event.full_clean()


def test_a_locked_event_keeps_the_settings_its_lists_were_sent_under(alice) -> None:
    from events import services
    from events.models import Event

    event = make_event(alice, players=2)
    services.lock(event)
    client = logged_in(alice)
    refused = client.patch(f"/api/events/{event.pk}/", {"format": "classic"}, content_type="application/json")
    assert refused.status_code == 400 and Event.objects.get(pk=event.pk).format == "standard"
    # the day's settings still change
    assert client.patch(f"/api/events/{event.pk}/", {"best_of": 1}, content_type="application/json").status_code == 200


def json_text(response) -> str:
    import json

    return json.dumps(response.json(), ensure_ascii=False)
