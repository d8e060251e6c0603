"""Events of a play group: held in one of its house formats if the organiser wishes, and their
matches counted in the group's league beside the games its members log."""

from __future__ import annotations

import json
from datetime import timedelta

import pytest
from django.utils import timezone

from events import day, services
from events.models import Event
from groups.models import HouseFormat
from groups.services import create_format, delete_group
from league.queries import league
from tests.conftest import logged_in
from tests.support.deck_helpers import make_deck
from tests.support.decklists import LEGAL_40
from tests.support.group_helpers import make_group
from tests.support.language_check import unmarked_chinese

pytestmark = pytest.mark.django_db

RULES = {"name": "家規", "min_cards": 40, "max_cards": 60, "copy_limit": 3}


def _post(client, url: str, data: dict):
    return client.post(url, json.dumps(data), content_type="application/json")


def _event_body(**more) -> dict:
    deadline = (timezone.now() + timedelta(days=2)).isoformat()
    return {"name": "週末賽", "format": "standard", "deadline": deadline} | more


def test_an_organiser_holds_an_event_for_their_group_in_its_house_format(alice, bob, charlie) -> None:
    group = make_group(alice, bob)
    house = create_format(group, alice, RULES)
    client = logged_in(bob)  # a member, not the owner, may hold the group's event
    made = _post(client, "/api/events/", _event_body(group=group.pk, format=house.key))
    assert made.status_code == 201, made.content
    assert made.json()["group"] == group.pk and made.json()["format"] == house.key
    event = Event.objects.get(pk=made.json()["id"])
    assert event.format_label == "家規"
    # A house format without its group, or another group's: refused, nothing made.
    assert _post(client, "/api/events/", _event_body(format=house.key)).status_code == 400
    other = make_group(charlie, name="別的團")
    theirs = create_format(other, charlie, RULES)
    assert _post(client, "/api/events/", _event_body(group=group.pk, format=theirs.key)).status_code == 400
    assert _post(client, "/api/events/", _event_body(group=other.pk)).status_code == 400  # not bob's group
    assert Event.objects.count() == 1
    # Leaving the group out of the event while it plays the group's format: refused, unchanged.
    patched = client.patch(f"/api/events/{event.pk}/", json.dumps({"group": None}), content_type="application/json")
    assert patched.status_code == 400
    event.refresh_from_db()
    assert event.group_id == group.pk


def test_the_events_page_offers_my_groups_and_their_formats(alice, bob) -> None:
    group = make_group(alice, bob)
    house = create_format(group, alice, RULES)
    client = logged_in(bob)
    page = client.get("/events/new/").content.decode()
    assert f'value="{house.key}"' in page and f'value="{group.pk}"' in page
    deadline = (timezone.localtime() + timedelta(days=2)).strftime("%Y-%m-%dT%H:%M")
    form = {"name": "週末賽", "format": house.key, "deadline": deadline}
    assert client.post("/events/new/", form).status_code == 400  # the group's format needs the group
    assert client.post("/events/new/", form | {"group": str(group.pk)}).status_code == 302
    event = Event.objects.get()
    assert (event.group_id, event.format) == (group.pk, house.key)
    assert "週末賽" in client.get(f"/groups/{group.pk}/").content.decode()


def test_a_house_format_gone_leaves_its_events_in_the_standard_format(alice, bob) -> None:
    group = make_group(alice, bob)
    house = create_format(group, alice, RULES)
    event = Event.objects.create(
        organiser=bob, name="賽", format=house.key, group=group, deadline=timezone.now() + timedelta(days=1)
    )
    services.submit(event, alice, "艾莉絲", LEGAL_40)
    delete_group(group, alice)
    event.refresh_from_db()
    assert (event.format, event.group_id) == ("standard", None)
    assert not HouseFormat.objects.exists()
    assert logged_in(bob).get(f"/events/{event.pk}/").status_code == 200


def _played_event(group, organiser, a, b, a_wins: int, b_wins: int, decks=(None, None)) -> Event:
    event = Event.objects.create(
        organiser=organiser, name="月賽", group=group, deadline=timezone.now() + timedelta(days=1)
    )
    for user, deck in zip((a, b), decks, strict=True):
        services.submit(event, user, user.username, LEGAL_40, deck)
    day.players_from_lists(event)
    event.players.update(checked_in=True, legal=True)
    match = day.pair_next_round(event).matches.get()
    first = match.player_a.user_id == a.pk
    day.enter_result(match, a_wins if first else b_wins, b_wins if first else a_wins, 0)
    return event


def test_the_matches_of_the_groups_events_count_for_its_league(alice, bob, charlie) -> None:
    group = make_group(alice, bob)
    red = make_deck(alice, name="紅")
    _played_event(group, alice, alice, bob, 2, 1, decks=(red, None))
    _played_event(group, alice, alice, bob, 1, 1)  # a drawn match
    _played_event(None, alice, alice, bob, 0, 2)  # no group: not this league's
    other = make_group(charlie, alice, name="別的團")
    _played_event(other, charlie, alice, charlie, 0, 2)  # another group's event
    names = dict(group.memberships.values_list("user_id", "user__username"))
    table = league(group, names, alice)
    players = {r.label: (r.games, r.wins, r.draws, r.losses) for r in table.players}
    assert players == {"alice": (2, 1, 1, 0), "bob": (2, 0, 1, 1)}
    assert [(r.label, r.games, r.wins) for r in table.decks] == [("紅", 1, 1)]
    liu_bei = [r for r in table.generals if r.label == "劉備"]
    assert liu_bei and liu_bei[0].games == 4  # both sides of both matches played 劉備
    answer = logged_in(bob).get(f"/api/groups/{group.pk}/league/").json()
    assert {row["player"]: row["games"] for row in answer} == {"alice": 2, "bob": 2}


def _event_in(house: HouseFormat, organiser, **fields) -> Event:
    when = {"deadline": timezone.now() + timedelta(days=1)} | fields
    return Event.objects.create(organiser=organiser, name="冬季賽", format=house.key, group=house.group, **when)


@pytest.mark.parametrize(
    "closed",
    [{"locked_at": timezone.now()}, {"deadline": timezone.now() - timedelta(minutes=1)}],
    ids=["locked", "past its deadline"],
)
def test_a_format_whose_event_has_closed_its_lists_keeps_its_rules(alice, bob, closed) -> None:
    """The lists of a locked event were judged by the format's rules, and the day is paired on
    them: the owner can neither change the rules nor delete the format under it (409), only
    rename it; nothing else is written."""
    house = create_format(make_group(alice, bob), alice, RULES)
    event = _event_in(house, bob, **closed)
    owner = logged_in(alice)
    url = f"/api/groups/{house.group_id}/formats/{house.pk}/"
    changed = owner.patch(url, json.dumps({"copy_limit": 1}), content_type="application/json")
    assert changed.status_code == 409
    assert "冬季賽" in changed.json()["detail"]
    assert owner.delete(url).status_code == 409
    house.refresh_from_db()
    event.refresh_from_db()
    assert (house.copy_limit, event.format) == (3, house.key)
    renamed = owner.patch(url, json.dumps({"name": "冬季家規", "copy_limit": 3}), content_type="application/json")
    assert renamed.status_code == 200, renamed.content
    house.refresh_from_db()
    assert (house.name, house.copy_limit) == ("冬季家規", 3)


def test_the_format_page_says_beforehand_and_refuses_a_deletion(alice, bob) -> None:
    house = create_format(make_group(alice, bob), alice, RULES)
    owner = logged_in(alice)
    page = f"/groups/{house.group_id}/formats/{house.pk}/"
    assert "冬季賽" not in owner.get(page).content.decode()
    _event_in(house, bob, locked_at=timezone.now())
    shown = owner.get(page).content.decode()
    assert 'class="warning"' in shown and "「冬季賽」" in shown
    english = logged_in(alice)
    english.post("/i18n/setlang/", {"language": "en", "next": "/"})
    shown = english.get(page).content.decode()
    assert "plays this format" in shown and unmarked_chinese(shown) == []  # the event's name is marked
    form = {"name": RULES["name"], "min_cards": 30, "max_cards": 60, "copy_limit": 3}
    refused = owner.post(page, form)
    assert refused.status_code == 400 and "「冬季賽」" in refused.content.decode()
    gone = owner.post(f"/groups/{house.group_id}/formats/{house.pk}/delete/", {"confirm": "yes"}, follow=True)
    assert "「冬季賽」" in gone.content.decode()
    house.refresh_from_db()
    assert house.min_cards == 40


def test_an_event_still_taking_lists_lets_its_format_change(alice, bob, django_capture_on_commit_callbacks) -> None:
    house = create_format(make_group(alice, bob), alice, RULES)
    event = _event_in(house, bob)
    owner = logged_in(alice)
    url = f"/api/groups/{house.group_id}/formats/{house.pk}/"
    with django_capture_on_commit_callbacks(execute=True):
        assert owner.patch(url, json.dumps({"copy_limit": 2}), content_type="application/json").status_code == 200
    assert owner.delete(url).status_code == 204
    event.refresh_from_db()
    assert event.format == "standard"
