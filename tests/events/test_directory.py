"""Events anyone can find: visibility, the directory and its calendar, registration with a
waiting list, the iCal and Atom feeds read back by parsers, and the API of all of it."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from datetime import date, timedelta

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.test import Client
from django.utils import timezone
from icalendar import Calendar

from events import services
from events.models import Event, Registration, Submission
from people.models import Notification, Profile
from tests.conftest import logged_in
from tests.support.concurrency import at_once
from tests.support.event_helpers import starting

LIST = "武將: 劉備\n3 新兵\n"


def _event(organiser, name: str = "台中週末賽", *, days: int = 5, **fields) -> Event:
    values = {
        "deadline": timezone.now() + timedelta(days=days - 1),
        "starts_at": timezone.now() + timedelta(days=days),
        "visibility": "listed",
        "city": "台中",
        "region": "taiwan",
    }
    return Event.objects.create(organiser=organiser, name=name, **(values | fields))


def _player(name: str):
    return get_user_model().objects.create_user(name, password=f"{name}-password-1")


@pytest.mark.django_db
def test_an_organiser_lists_an_event_with_its_place_and_it_needs_a_start(alice_client: Client, english) -> None:
    form = {
        "name": "台中週末賽",
        "format": "standard",
        "deadline": timezone.localtime(timezone.now() + timedelta(days=3)).strftime("%Y-%m-%dT%H:%M"),
        "visibility": "listed",
        "venue": "桌遊小館",
        "address": "台中市西區公益路 100 號",
        "city": "台中",
        "region": "taiwan",
        "fee": "NT$200",
        "cap": "16",
        "contact": "LINE: zongheng-tc",
    }
    refused = alice_client.post("/events/new/", form)
    assert refused.status_code == 400 and "starts_at" in refused.context["form"].errors
    assert alice_client.post("/events/new/", form | {"cap": "1", "starts_at": "2099-03-01T13:00"}).status_code == 400
    assert (
        alice_client.post("/events/new/", form | {"region": "atlantis", "starts_at": "2099-03-01T13:00"}).status_code
        == 400
    )
    made = alice_client.post("/events/new/", form | {"starts_at": "2099-03-01T13:00"})
    assert made.status_code == 302
    event = Event.objects.get(name="台中週末賽")
    assert (event.visibility, event.cap, event.region, event.fee) == ("listed", 16, "taiwan", "NT$200")
    assert event.day == date(2099, 3, 1) and timezone.localtime(event.starts_at).hour == 13
    page = Client().get(f"/events/{event.pk}/").content.decode()  # anyone reads it now
    assert "桌遊小館" in page and "NT$200" in page and "LINE: zongheng-tc" in page and "0 of 16" in page


@pytest.mark.django_db
def test_only_listed_events_are_found_and_private_ones_stay_behind_their_links(alice, bob) -> None:
    listed = _event(alice)
    unlisted = _event(alice, "朋友小聚", visibility="unlisted")
    private = _event(alice, "私人練習賽", visibility="private")
    visitor = Client()
    directory = visitor.get("/events/").content.decode()
    assert "台中週末賽" in directory and "朋友小聚" not in directory and "私人練習賽" not in directory
    assert visitor.get(f"/events/{listed.pk}/").status_code == 200
    assert visitor.get(f"/events/{unlisted.pk}/").status_code == 302  # to log in: its number says nothing
    assert logged_in(bob).get(f"/events/{unlisted.pk}/").status_code == 404
    assert logged_in(bob).get(f"/events/{private.pk}/").status_code == 404
    by_link = visitor.get(f"/e/{unlisted.token}/").content.decode()  # an unlisted event's link shows its details
    assert "朋友小聚" in by_link and "台中" in by_link
    assert "台中" not in visitor.get(f"/e/{private.token}/").content.decode()
    assert logged_in(alice).get(f"/events/{listed.pk}/").context["form"] is not None  # the organiser's tools


@pytest.mark.django_db
def test_the_directory_filters_by_region_city_format_and_date_and_draws_the_month(alice, english) -> None:
    taipei = _event(alice, "台北公開賽", city="台北", days=3)
    _event(alice, "上海邀請賽", city="上海", region="shanghai", days=4, format="classic")
    _event(alice, "去年的賽事", days=-400)
    visitor = Client()
    shown = visitor.get("/events/").context["events"]
    assert [e.name for e in shown] == ["台北公開賽", "上海邀請賽"]  # upcoming, soonest first; the past not
    assert [e.name for e in visitor.get("/events/?region=shanghai").context["events"]] == ["上海邀請賽"]
    assert [e.name for e in visitor.get("/events/?city=台北").context["events"]] == ["台北公開賽"]
    assert [e.name for e in visitor.get("/events/?format=classic").context["events"]] == ["上海邀請賽"]
    day = taipei.day
    ranged = visitor.get(f"/events/?since={day}&until={day}").context["events"]
    assert [e.name for e in ranged] == ["台北公開賽"]
    month = visitor.get(f"/events/?month={day:%Y-%m}")
    cells = {d.day: [e["name"] for e in d.events] for week in month.context["weeks"] for d in week}
    assert "台北公開賽" in cells[day]
    assert all(len(week) == 7 and week[0].day.weekday() == 0 for week in month.context["weeks"])
    for n in range(4):  # a busy day names three and links to the rest
        _event(alice, f"同日賽{n}", days=40, city="高雄")
    busy = _event(alice, "同日賽4", days=40, city="高雄").day
    crowded = visitor.get(f"/events/?month={busy:%Y-%m}&city=高雄")
    cell = next(d for week in crowded.context["weeks"] for d in week if d.day == busy)
    assert len(cell.events) == 3 and cell.more == 2
    assert f"since={busy}" in crowded.content.decode()
    for bad in (
        "month=2026-13",
        "month=0001-01",
        "region=atlantis",
        "since=99999-01-01",
        "page=9999",
        "city=" + "台" * 60,
    ):
        assert visitor.get(f"/events/?{bad}").status_code == 400, bad


@pytest.mark.django_db
def test_near_me_is_the_region_of_my_profile(alice, bob, english) -> None:
    _event(alice, "上海邀請賽", region="shanghai", city="上海")
    client = logged_in(bob)
    assert "Say where you play" in client.get("/events/").content.decode()
    answer = client.post(
        "/accounts/profile/", {"display_name": "", "bio": "", "show_events": "on", "region": "shanghai"}
    )
    assert answer.status_code == 302 and Profile.objects.get(user=bob).region == "shanghai"
    page = client.get("/events/").content.decode()
    assert 'href="?region=shanghai"' in page and "Near me: Shanghai" in page
    assert client.post("/accounts/profile/", {"region": "atlantis"}).status_code == 400


@pytest.mark.django_db
def test_past_the_cap_players_wait_and_move_up_in_order_and_are_told(
    alice, english, django_capture_on_commit_callbacks
) -> None:
    event = _event(alice, cap=2)
    ann, ben, cat, dan = (_player(n) for n in ("ann", "ben", "cat", "dan"))
    for user in (ann, ben, cat, dan):
        assert logged_in(user).post(f"/events/{event.pk}/registration/").status_code == 302
    assert list(Registration.objects.filter(event=event).in_order().values_list("user__username", "waiting")) == [
        ("ann", False),
        ("ben", False),
        ("cat", True),
        ("dan", True),
    ]
    page = logged_in(dan).get(f"/events/{event.pk}/").content.decode()
    assert "waiting list, number 2" in page
    logged_in(ann).post(f"/events/{event.pk}/registration/")  # registering again changes nothing
    assert Registration.objects.filter(event=event, user=ann).count() == 1
    # a waiting player sends no list; one with a place does
    assert logged_in(cat).post(f"/e/{event.token}/", {"player_name": "cat", "list": LIST}).status_code == 403
    assert logged_in(ben).post(f"/e/{event.token}/", {"player_name": "ben", "list": LIST}).status_code == 302
    with_list = Submission.objects.get(event=event, player=ben)
    with django_capture_on_commit_callbacks(execute=True):
        assert logged_in(ben).post(f"/events/{event.pk}/registration/", {"action": "withdraw"}).status_code == 302
    assert not Submission.objects.filter(pk=with_list.pk).exists()  # the list goes with the place
    assert Registration.objects.get(event=event, user=cat).waiting is False  # the first waiting moves up
    assert Registration.objects.get(event=event, user=dan).waiting is True
    told = Notification.objects.get(recipient=cat, kind="promoted")
    assert told.url == f"/events/{event.pk}/" and told.subject == event.name
    assert not Notification.objects.filter(recipient=dan).exists()
    # a larger cap lets the rest in
    with django_capture_on_commit_callbacks(execute=True):
        services.change_settings(event, {"cap": 5})
    assert Registration.objects.get(event=event, user=dan).waiting is False
    assert Notification.objects.filter(recipient=dan, kind="promoted").count() == 1


@pytest.mark.django_db
def test_registration_is_refused_after_the_deadline_and_for_private_events(alice, bob) -> None:
    closed = _event(alice, deadline=timezone.now() - timedelta(hours=1))
    private = _event(alice, "私人練習賽", visibility="private")
    client = logged_in(bob)
    assert client.post(f"/events/{closed.pk}/registration/").status_code == 403
    assert client.post(f"/events/{private.pk}/registration/").status_code == 404
    assert client.post(f"/e/{private.token}/registration/").status_code == 404
    assert Client().post(f"/events/{closed.pk}/registration/").status_code == 302  # log in first
    assert not Registration.objects.exists()
    open_event = _event(alice, "朋友小聚", visibility="unlisted")
    assert client.post(f"/e/{open_event.token}/registration/").status_code == 302  # the way into an unlisted one
    assert Registration.objects.filter(event=open_event, user=bob, waiting=False).exists()


@pytest.mark.django_db
def test_a_list_sent_to_a_listed_event_without_a_cap_registers_its_player(alice, bob) -> None:
    event = _event(alice)
    assert logged_in(bob).post(f"/e/{event.token}/", {"player_name": "bob", "list": LIST}).status_code == 302
    assert Registration.objects.filter(event=event, user=bob, waiting=False).exists()


@pytest.mark.django_db
def test_each_role_sees_a_listed_event_as_its_own(alice, english) -> None:
    """The organiser, a registered player, a waiting player, another user and a visitor."""
    event = _event(alice, cap=1)
    registered, waiting, other = _player("registered"), _player("waiting"), _player("other")
    services.register(event, registered)
    services.register(event, waiting)
    roles = {
        "organiser": logged_in(alice),
        "registered": logged_in(registered),
        "waiting": logged_in(waiting),
        "other": logged_in(other),
        "anonymous": Client(),
    }
    expected_page = {
        "organiser": "Submission link",
        "registered": "You are registered.",
        "waiting": "waiting list, number 1",
        "other": "Join the waiting list",
        "anonymous": "Log in to register",
    }
    for role, client in roles.items():
        page = client.get(f"/events/{event.pk}/")
        assert page.status_code == 200, role
        assert expected_page[role] in page.content.decode(), role
        answer = client.get(f"/api/events/{event.pk}/").json()
        assert ("best_of" in answer) == (role == "organiser"), role  # the settings are the organiser's
        assert answer["taken"] == 1 if role != "organiser" else answer["cap"] == 1
        mine = client.get(f"/api/events/{event.pk}/registration/")
        assert mine.status_code == (401 if role == "anonymous" else 200), role
        if role in ("registered", "waiting"):
            assert mine.json()["waiting"] == (role == "waiting")
    organiser_page = roles["organiser"].get(f"/events/{event.pk}/").content.decode()
    assert "registered" in organiser_page and "waiting" in organiser_page  # who holds a place, who waits
    as_public = roles["organiser"].get(f"/events/{event.pk}/?as=public").content.decode()
    assert "Submission link" not in as_public and "1 of 1 places taken" in as_public
    assert roles["anonymous"].post(f"/api/events/{event.pk}/registration/").status_code == 401
    assert roles["other"].delete(f"/api/events/{event.pk}/registration/").status_code == 404


@pytest.mark.django_db
def test_the_api_registers_and_withdraws_and_moves_the_waiting_up(alice, bob, charlie) -> None:
    event = _event(alice, cap=1)
    first = logged_in(bob).post(f"/api/events/{event.pk}/registration/")
    assert first.status_code == 201 and first.json() == {"registered": True, "waiting": False, "queue": None}
    second = logged_in(charlie).post(f"/api/events/{event.pk}/registration/")
    assert second.json() == {"registered": True, "waiting": True, "queue": 1}
    assert logged_in(bob).delete(f"/api/events/{event.pk}/registration/").status_code == 204
    assert logged_in(charlie).get(f"/api/events/{event.pk}/registration/").json()["waiting"] is False
    hidden = _event(alice, "朋友小聚", visibility="unlisted")
    assert logged_in(bob).post(f"/api/events/{hidden.pk}/registration/").status_code == 404


@pytest.mark.django_db
def test_the_api_lists_listed_events_in_cursor_pages_with_filters(alice) -> None:
    for n in range(5):
        _event(alice, f"第{n}站", days=n + 2)
    _event(alice, "上海邀請賽", region="shanghai", days=3)
    _event(alice, "私人練習賽", visibility="private")
    visitor = Client()
    names, url = [], "/api/events/?listed=1&region=taiwan&page_size=2"
    while url:
        page = visitor.get(url)
        assert page.status_code == 200
        names += [e["name"] for e in page.json()["results"]]
        url = page.json()["next"]
    assert names == [f"第{n}站" for n in range(5)]
    everything = visitor.get("/api/events/?listed=1").json()["results"]
    assert "上海邀請賽" in [e["name"] for e in everything] and "私人練習賽" not in [e["name"] for e in everything]
    row = everything[0]
    assert row["region_name"] and row["url"] == f"/events/{row['id']}/" and row["organiser"] == "alice"
    for bad in ("region=atlantis", "from=2026-99-01", "format=nope", "cursor=%00", "page_size=0", "listed=yes", "to="):
        assert visitor.get(f"/api/events/?listed=1&{bad}").status_code == 400, bad
    assert visitor.get("/api/events/").status_code == 401  # without listed: the events I run
    assert len(visitor.get("/api/regions/").json()) == 35


@pytest.mark.django_db
def test_the_ical_and_atom_feeds_read_back(alice, bob) -> None:
    taipei = _event(alice, "台北公開賽", venue="桌遊小館", city="台北", fee="NT$200")
    _event(bob, "上海邀請賽", region="shanghai", city="上海")
    _event(alice, "私人練習賽", visibility="private")
    visitor = Client()
    answer = visitor.get("/events/calendar.ics")
    assert answer["Content-Type"].startswith("text/calendar")
    calendar = Calendar.from_ical(answer.content)
    found = {str(e["summary"]): e for e in calendar.walk("VEVENT")}
    assert set(found) == {"台北公開賽", "上海邀請賽"}
    item = found["台北公開賽"]
    assert item.decoded("dtstart") == taipei.starts_at.replace(microsecond=0)
    assert "桌遊小館" in str(item["location"]) and str(item["url"]).endswith(f"/events/{taipei.pk}/")
    by_region = Calendar.from_ical(visitor.get("/events/calendar.ics?region=shanghai").content)
    assert [str(e["summary"]) for e in by_region.walk("VEVENT")] == ["上海邀請賽"]
    by_organiser = Calendar.from_ical(visitor.get("/events/calendar.ics?organiser=alice").content)
    assert [str(e["summary"]) for e in by_organiser.walk("VEVENT")] == ["台北公開賽"]
    assert visitor.get("/events/calendar.ics?region=atlantis").status_code == 400
    atom = ET.fromstring(visitor.get("/events/feed/?region=taiwan").content)
    ns = {"a": "http://www.w3.org/2005/Atom"}
    assert [e.findtext("a:title", namespaces=ns) for e in atom.findall("a:entry", ns)] == ["台北公開賽"]


@pytest.mark.django_db(transaction=True)
def test_two_players_cannot_both_take_the_last_place(racer) -> None:
    organiser = _player("organiser")
    event = _event(organiser, cap=1)
    a, b = _player("first"), _player("second")
    at_once(lambda: services.register(event, a), lambda: services.register(event, b))
    assert Registration.objects.filter(event=event, waiting=False).count() == 1
    assert Registration.objects.filter(event=event, waiting=True).count() == 1


@pytest.mark.django_db(transaction=True)
def test_the_migration_keeps_each_event_on_its_day() -> None:
    executor = MigrationExecutor(connection)
    executor.migrate([("events", "0018_player_claims")])
    old = executor.loader.project_state([("events", "0018_player_claims")]).apps
    user = old.get_model("auth", "User").objects.create(username="old-organiser")
    old_event = old.get_model("events", "Event")
    dated = old_event.objects.create(
        organiser=user, name="有日期", deadline=timezone.now(), starts_on=date(2026, 5, 1), token="a", public_token="b"
    )
    undated = old_event.objects.create(
        organiser=user, name="沒日期", deadline=timezone.now(), token="c", public_token="d"
    )
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(executor.loader.graph.leaf_nodes())
    assert Event.objects.get(pk=dated.pk).day == date(2026, 5, 1)
    assert Event.objects.get(pk=undated.pk).starts_at is None
    assert Event.objects.get(pk=dated.pk).visibility == "private"


@pytest.mark.django_db
def test_a_players_events_over_the_api_follow_their_profile(alice, bob) -> None:
    assert Client().get("/api/users/alice/events/").json() == []
    Profile.objects.create(user=alice, hidden=True)
    assert Client().get("/api/users/alice/events/").status_code == 404
    assert logged_in(alice).get("/api/users/alice/events/").status_code == 200
    assert Client().get("/api/users/nobody/events/").status_code == 404
    assert json.loads(Client().get("/api/users/bob/events/").content) == []
    assert starting(date(2026, 1, 1)).hour == 10
