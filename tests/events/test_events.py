"""Events: alice organises, bob and charlie send lists through the link before the deadline;
alice sees the verdicts, locks, exports CSV and prints every sheet. Nobody else sees her event."""

from __future__ import annotations

import csv
import io
from datetime import timedelta

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.utils import timezone

from decks.services import DeckData, save_deck, snapshot_of
from events.models import Event, Submission
from tests.support.deck_helpers import LEGAL_MAIN, make_deck
from tests.support.decklists import ILLEGAL, LEGAL_40

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("english")]


def local(moment) -> str:
    return timezone.localtime(moment).strftime("%Y-%m-%dT%H:%M")


@pytest.fixture
def event(alice) -> Event:
    return Event.objects.create(
        organiser=alice, name="台北站", format="standard", deadline=timezone.now() + timedelta(days=2)
    )


def send(client: Client, event: Event, **data: object):
    return client.post(f"/e/{event.token}/", {"player_name": "Bob 王", **data})


def test_an_organiser_creates_an_event_and_gets_a_link(alice_client: Client) -> None:
    deadline = timezone.now() + timedelta(days=3)
    response = alice_client.post(
        "/events/new/",
        {"name": "春季賽", "format": "standard", "deadline": local(deadline), "starts_at": "2026-12-12T13:00"},
    )
    event = Event.objects.get()
    assert response.status_code == 302 and response["Location"] == f"/events/{event.pk}/"
    assert abs((event.deadline - deadline).total_seconds()) < 60  # read in the site's time zone
    page = alice_client.get(f"/events/{event.pk}/").content.decode()
    assert f"http://testserver/e/{event.token}/" in page and "open for lists" in page
    assert "春季賽" in alice_client.get("/events/mine/").content.decode()


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"name": "x", "format": "standard", "deadline": "2020-01-01T10:00"}, "must be in the future"),
        ({"name": "x", "format": "nope", "deadline": "2099-01-01T10:00"}, "Select a valid choice"),
        ({"name": "x", "format": "standard", "deadline": "tomorrow\x00"}, "Enter a valid date/time"),
        ({"name": "", "format": "standard", "deadline": "2099-01-01T10:00"}, "required"),
        ({"name": "x", "format": "standard", "deadline": "9999-12-31T23:59"}, "between the years 2000 and 2999"),
        ({"name": "x", "format": "standard", "deadline": "2026-13-01T10:00"}, "Enter a valid date/time"),
    ],
)
def test_a_bad_event_is_refused(alice_client: Client, data: dict[str, str], message: str) -> None:
    response = alice_client.post("/events/new/", data)
    assert response.status_code == 400 and message in response.content.decode()
    assert not Event.objects.exists()


@pytest.mark.parametrize("deadline", ["0001-01-01T00:00", "9999-12-31T23:59", "1999-12-31T23:59"])
def test_an_edited_deadline_out_of_range_is_refused(event: Event, alice_client: Client, deadline: str) -> None:
    response = alice_client.post(f"/events/{event.pk}/", {"name": "x", "format": "standard", "deadline": deadline})
    assert response.status_code == 400 and "between the years 2000 and 2999" in response.content.decode()
    event.refresh_from_db()
    assert event.name == "台北站"


def test_players_send_replace_and_see_their_verdict(event: Event, bob_client: Client, bob) -> None:
    assert bob_client.get(f"/e/{event.token}/").status_code == 200
    assert send(bob_client, event, list=ILLEGAL).status_code == 302
    page = bob_client.get(f"/e/{event.token}/").content.decode()
    assert "Not legal" in page and "Replace your list" in page
    response = send(bob_client, event, file=SimpleUploadedFile("deck.txt", LEGAL_40.encode()))
    assert response.status_code == 302
    submission = Submission.objects.get()  # one list a player: the second replaced the first
    assert submission.player == bob and submission.text == LEGAL_40 and submission.player_name == "Bob 王"
    assert "✔ Legal" in bob_client.get(f"/e/{event.token}/").content.decode()


def test_a_saved_deck_is_sent_as_it_stands_then(event: Event, bob_client: Client, bob) -> None:
    deck = make_deck(bob, name="Bob 的牌庫")
    assert send(bob_client, event, deck=deck.pk).status_code == 302
    sent = Submission.objects.get()
    assert sent.deck == deck and "3 新兵 (YXJQ-003)" in sent.text and "(WJ-001)" in sent.text
    data = snapshot_of(deck)
    save_deck(deck, DeckData(data.name, data.format, data.general, {"YXJQ-003": 60}, {}))  # edited afterwards
    assert Submission.objects.get().text == sent.text  # the registered list did not move


@pytest.mark.parametrize(
    "data",
    [
        {},  # nothing
        {"list": "   "},
        {"list": LEGAL_40, "file": SimpleUploadedFile("d.txt", LEGAL_40.encode())},  # two at once
        {"file": SimpleUploadedFile("d.txt", b"\xff\xfe\x00garbage\x00")},
        {"file": SimpleUploadedFile("d.txt", b"3 YXJQ-003\n" * 7000)},  # over 64 KiB
        {"list": "x\x00" * 10},
        {"player_name": "", "list": LEGAL_40},
        {"player_name": "n" * 101, "list": LEGAL_40},
        {"deck": "99999999"},
        {"deck": "abc"},
    ],
)
def test_bad_submissions_are_refused_and_nothing_is_stored(event: Event, bob_client: Client, data: dict) -> None:
    response = send(bob_client, event, **data)
    assert response.status_code == 400
    assert 'class="error-box"' in response.content.decode()
    assert not Submission.objects.exists()


def test_someone_elses_deck_cannot_be_sent(event: Event, alice, bob_client: Client) -> None:
    secret = make_deck(alice, name="艾莉絲的秘密")
    response = send(bob_client, event, deck=secret.pk)
    assert response.status_code == 400 and "艾莉絲的秘密" not in response.content.decode()
    assert not Submission.objects.exists()


def test_the_link_needs_a_login_and_a_right_token(event: Event, client: Client, bob_client: Client) -> None:
    response = client.get(f"/e/{event.token}/")  # a visitor: the invitation (tests/accounts/test_invitations.py)
    assert response.status_code == 200 and "/accounts/login/?next=" in response.content.decode()
    assert send(client, event, list=LEGAL_40).status_code == 302 and not Submission.objects.exists()
    assert bob_client.get("/e/not-a-token/").status_code == 404


def test_no_list_after_the_deadline(event: Event, bob_client: Client) -> None:
    assert send(bob_client, event, list=LEGAL_40).status_code == 302
    Event.objects.filter(pk=event.pk).update(deadline=timezone.now() - timedelta(seconds=1))
    response = send(bob_client, event, list=ILLEGAL)
    assert response.status_code == 403 and "deadline has passed" in response.content.decode()
    assert Submission.objects.get().text == LEGAL_40
    page = bob_client.get(f"/e/{event.token}/").content.decode()
    assert "deadline has passed" in page and "<textarea" not in page


def test_nothing_changes_after_the_lock(event: Event, alice_client: Client, bob_client: Client) -> None:
    send(bob_client, event, list=LEGAL_40)
    submission = Submission.objects.get()
    assert alice_client.post(f"/events/{event.pk}/lock/", {"confirm": "yes"}).status_code == 302
    event.refresh_from_db()
    assert event.locked
    for response in (
        send(bob_client, event, list=ILLEGAL),
        alice_client.post(f"/events/{event.pk}/submissions/{submission.pk}/remove/", {"confirm": "yes"}),
        alice_client.post(f"/events/{event.pk}/", {"name": "x", "format": "classic", "deadline": "2099-01-01T10:00"}),
    ):
        assert response.status_code == 403 and "locked" in response.content.decode()
    assert Submission.objects.get().text == LEGAL_40
    event.refresh_from_db()
    assert (event.name, event.format) == ("台北站", "standard")
    locked_at = event.locked_at
    alice_client.post(f"/events/{event.pk}/lock/", {"confirm": "yes"})  # a second lock changes nothing
    event.refresh_from_db()
    assert event.locked_at == locked_at


def test_the_organiser_sees_every_list_with_its_verdict(
    event: Event, alice_client: Client, bob_client: Client, charlie
) -> None:
    from tests.conftest import logged_in

    send(bob_client, event, list=LEGAL_40)
    send(logged_in(charlie), event, list=ILLEGAL, player_name="=HYPERLINK(1)")
    html = alice_client.get(f"/events/{event.pk}/").content.decode()
    assert html.count('<tr class="legal">') == 1 and html.count('<tr class="illegal">') == 1
    assert "Bob 王" in html and "@bob" in html and "@charlie" in html
    assert "2 lists" in html and "legal: 1" in html

    response = alice_client.get(f"/events/{event.pk}/export.csv")
    assert response["Content-Type"] == "text/csv; charset=utf-8"
    rows = list(csv.DictReader(io.StringIO(response.content.decode("utf-8-sig"))))
    by_user = {r["user"]: r for r in rows}
    assert (
        by_user["bob"]["legal"] == "yes" and by_user["bob"]["count"] == "40" and by_user["bob"]["general"] == "WJ-001"
    )
    assert by_user["charlie"]["legal"] == "no" and "too_many_copies" in by_user["charlie"]["problems"]
    assert by_user["charlie"]["player"] == "'=HYPERLINK(1)"  # a formula is never a formula in Excel
    assert by_user["bob"]["list"] == LEGAL_40.strip() or by_user["bob"]["list"] == LEGAL_40

    sheets = alice_client.get(f"/events/{event.pk}/sheets/").content.decode()
    assert sheets.count('<section class="sheet-page">') == 2
    assert "Bob 王" in sheets and "台北站" in sheets and '<td class="code">YXJQ-003</td>' in sheets


def test_the_lists_verdicts_follow_a_catalogue_change(event: Event, alice_client: Client, bob_client: Client) -> None:
    # Verdicts are remembered between views (decks.legality.remembered_verdict), per catalogue
    # version: a correction in the catalogue shows at once.
    from catalog import cache_version
    from catalog.models import Card

    send(bob_client, event, list=LEGAL_40)
    for _ in range(2):  # the second view is answered from what the first remembered
        assert alice_client.get(f"/events/{event.pk}/").content.decode().count('<tr class="legal">') == 1
    Card.objects.filter(code="YXJQ-003").update(kind="general")  # 新兵 turns out to be a general
    cache_version.bump()
    html = alice_client.get(f"/events/{event.pk}/").content.decode()
    assert '<tr class="legal">' not in html and html.count('<tr class="illegal">') == 1
    Card.objects.filter(code="YXJQ-003").update(kind="troop")
    cache_version.bump()
    assert alice_client.get(f"/events/{event.pk}/").content.decode().count('<tr class="legal">') == 1


def test_remembered_verdicts_are_few_and_right(monkeypatch: pytest.MonkeyPatch) -> None:
    from decks import legality

    monkeypatch.setattr(legality, "REMEMBERED_VERDICTS", 2)
    monkeypatch.setattr(legality, "_remembered", legality.OrderedDict())
    for text in (LEGAL_40, ILLEGAL, LEGAL_40 + "\n"):
        legality.remembered_verdict(text)
    assert len(legality._remembered) == 2  # the oldest went first
    assert legality.remembered_verdict(LEGAL_40).legal and not legality.remembered_verdict(ILLEGAL).legal
    assert legality.remembered_verdict(ILLEGAL, "standard") is legality.remembered_verdict(ILLEGAL, "standard")


def test_the_organiser_can_remove_a_list_and_replace_the_link(
    event: Event, alice_client: Client, bob_client: Client
) -> None:
    send(bob_client, event, list=LEGAL_40)
    submission = Submission.objects.get()
    assert (
        alice_client.post(f"/events/{event.pk}/submissions/{submission.pk}/remove/", {"confirm": "yes"}).status_code
        == 302
    )
    assert not Submission.objects.exists()
    old = event.token
    alice_client.post(f"/events/{event.pk}/link/")
    event.refresh_from_db()
    assert event.token != old
    assert bob_client.get(f"/e/{old}/").status_code == 404
    assert bob_client.get(f"/e/{event.token}/").status_code == 200


def test_one_organiser_never_sees_anothers_event(event: Event, bob_client: Client, charlie) -> None:
    from tests.conftest import logged_in

    send(logged_in(charlie), event, list=LEGAL_40)
    submission = Submission.objects.get()
    for url in (f"/events/{event.pk}/", f"/events/{event.pk}/export.csv", f"/events/{event.pk}/sheets/"):
        assert bob_client.get(url).status_code == 404
    for url in (
        f"/events/{event.pk}/lock/",
        f"/events/{event.pk}/link/",
        f"/events/{event.pk}/submissions/{submission.pk}/remove/",
        f"/events/{event.pk}/",
    ):
        assert (
            bob_client.post(url, {"name": "taken", "format": "standard", "deadline": "2099-01-01T10:00"}).status_code
            == 404
        )
    assert "台北站" not in bob_client.get("/events/mine/").content.decode()
    event.refresh_from_db()
    assert not event.locked and event.name == "台北站" and Submission.objects.count() == 1


def test_the_batch_page_saves_its_lists_as_an_event(alice_client: Client, alice, client: Client) -> None:
    def files() -> list[SimpleUploadedFile]:
        return [
            SimpleUploadedFile("a.txt", ("Player: 阿明\n" + LEGAL_40).encode()),
            SimpleUploadedFile("b.txt", ILLEGAL.encode()),
            SimpleUploadedFile("c.txt", b"\xff\xfe\x00garbage"),
        ]

    # the check page hands a named save over to the events app, keeping the method and files
    handed = client.post("/check/many/", {"files": files(), "format": "standard", "save_as": "x"})
    assert handed.status_code == 307 and handed["Location"] == "/events/from-files/"

    refused = client.post("/events/from-files/", {"files": files(), "format": "standard", "save_as": "x"})
    assert refused.status_code == 403 and "Log in" in refused.content.decode() and not Event.objects.exists()
    unnamed = alice_client.post("/events/from-files/", {"files": files(), "format": "standard"})
    assert unnamed.status_code == 400 and not Event.objects.exists()

    response = alice_client.post("/events/from-files/", {"files": files(), "format": "classic", "save_as": "秋季賽"})
    event = Event.objects.get()
    assert response.status_code == 302 and response["Location"] == f"/events/{event.pk}/"
    assert (event.organiser, event.name, event.format) == (alice, "秋季賽", "classic")
    assert not event.open_at()  # lists from files: the link takes no more
    assert sorted(Submission.objects.values_list("player_name", "file_name")) == [("b.txt", "b.txt"), ("阿明", "a.txt")]
    page = alice_client.get(response["Location"])
    assert "Not saved, unreadable: c.txt" in page.content.decode()


def test_a_player_withdraws_until_the_deadline(event: Event, bob_client: Client, alice_client: Client) -> None:
    send(bob_client, event, list=LEGAL_40)
    assert alice_client.post(f"/e/{event.token}/withdraw/").status_code == 302  # alice sent nothing: no change
    assert Submission.objects.count() == 1
    assert bob_client.post(f"/e/{event.token}/withdraw/").status_code == 302
    assert not Submission.objects.exists()
    send(bob_client, event, list=LEGAL_40)
    Event.objects.filter(pk=event.pk).update(locked_at=timezone.now())
    response = bob_client.post(f"/e/{event.token}/withdraw/")
    assert response.status_code == 403 and Submission.objects.count() == 1
    assert "Withdraw my list" not in bob_client.get(f"/e/{event.token}/").content.decode()


def test_an_organiser_deletes_an_event_only_when_sure(event: Event, alice_client: Client, bob_client: Client) -> None:
    send(bob_client, event, list=LEGAL_40)
    assert bob_client.post(f"/events/{event.pk}/delete/", {"confirm": "yes"}).status_code == 404
    asked = alice_client.post(f"/events/{event.pk}/delete/")  # the box not ticked: asked again
    assert asked.status_code == 200 and 'name="confirm" value="yes"' in asked.content.decode()
    assert Event.objects.exists()
    response = alice_client.post(f"/events/{event.pk}/delete/", {"confirm": "yes"})
    assert response.status_code == 302 and response["Location"] == "/events/mine/"
    assert not Event.objects.exists() and not Submission.objects.exists()


def test_a_pasted_deck_code_is_sent_as_its_list(event: Event, bob_client: Client, bob) -> None:
    from decks import deckcode

    code = deckcode.encode("standard", "WJ-001", LEGAL_MAIN, {})
    send(bob_client, event, list=code)
    submission = Submission.objects.get()
    assert "劉備" in submission.text and code not in submission.text
