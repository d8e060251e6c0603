"""Writes that two people or two tabs can make at once, made at once: real threads, real
transactions, on SQLite here and PostgreSQL in CI. Each fails without its row lock."""

from __future__ import annotations

import json

import pytest
from django.contrib.auth import get_user_model
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client

from catalog.loading import load_catalog
from collection.models import CollectionChange, CollectionEntry
from collection.services import change_counts
from decks.models import Deck
from decks.services import snapshot_of
from tests.support.concurrency import at_once
from tests.support.deck_helpers import make_deck

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def racer():
    load_catalog()  # real transactions: each test brings its own committed catalogue
    return get_user_model().objects.create_user("racer", password="x-very-long-password-1")


def client_for(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_ten_plus_ones_on_one_builder_line_all_land(racer) -> None:
    deck = make_deck(racer, main={"YXJQ-003": 1})

    def plus_one() -> int:
        response = client_for(racer).post(f"/decks/{deck.pk}/change/", {"action": "inc", "card": "YXJQ-003"})
        return response.status_code

    assert at_once(*[plus_one] * 10) == [302] * 10
    assert snapshot_of(Deck.objects.get(pk=deck.pk)).main["YXJQ-003"] == 11


def test_a_name_patch_racing_a_cards_patch_keeps_both(racer) -> None:
    deck = make_deck(racer, main={"YXJQ-003": 1})
    url = f"/api/decks/{deck.pk}/"

    def rename() -> int:
        return client_for(racer).patch(url, json.dumps({"name": "新名"}), content_type="application/json").status_code

    def recard() -> int:
        body = json.dumps({"cards": [{"card": "YXJQ-003", "count": 3}]})
        return client_for(racer).patch(url, body, content_type="application/json").status_code

    for _ in range(3):
        assert at_once(rename, recard) == [200, 200]
        saved = snapshot_of(Deck.objects.get(pk=deck.pk))
        assert saved.name == "新名" and saved.main == {"YXJQ-003": 3}
        Deck.objects.filter(pk=deck.pk).update(name="舊名")


def test_confirming_an_import_twice_at_once_applies_it_once(racer) -> None:
    first = client_for(racer)
    upload = SimpleUploadedFile("c.csv", b"code,quantity\nYXJQ-003,2\nYXJQ-004,1\n", "text/csv")
    assert first.post("/collection/import/", {"file": upload, "mode": "add"}).status_code == 200
    second = Client()
    second.cookies = first.cookies  # the same browser: one session, two tabs (or a double click)

    statuses = at_once(
        lambda: first.post("/collection/import/", {"confirm": "1"}).status_code,
        lambda: second.post("/collection/import/", {"confirm": "1"}).status_code,
    )
    assert sorted(statuses) == [302, 400]
    assert CollectionEntry.objects.get(user=racer, card__code="YXJQ-003").quantity == 2
    assert CollectionChange.objects.filter(user=racer, source="import").count() == 2


def test_an_import_racing_a_plus_one_for_a_new_card_never_500s(racer) -> None:
    from catalog.models import Card

    client = client_for(racer)
    upload = SimpleUploadedFile("c.csv", b"code,quantity\nYXJQ-005,2\n", "text/csv")
    assert client.post("/collection/import/", {"file": upload, "mode": "add"}).status_code == 200
    card = Card.objects.get(code="YXJQ-005")

    results = at_once(
        lambda: client.post("/collection/import/", {"confirm": "1"}).status_code,
        lambda: change_counts(racer, card, add=1).quantity,
    )
    assert results[0] in (302, 400)
    quantity = CollectionEntry.objects.get(user=racer, card=card).quantity
    assert quantity == (3 if results[0] == 302 else 1)  # applied after the +1 was seen, or refused whole


def test_undoing_one_change_twice_at_once_undoes_it_once(racer) -> None:
    from catalog.models import Card

    card = Card.objects.get(code="YXJQ-003")
    change_counts(racer, card, add=2)
    change = CollectionChange.objects.get(user=racer)

    def undo() -> int:
        return client_for(racer).post(f"/collection/history/{change.pk}/undo/", {"confirm": "yes"}).status_code

    statuses = at_once(undo, undo)
    assert sorted(statuses)[0] in (200, 302) and 500 not in statuses
    assert CollectionEntry.objects.get(user=racer, card=card).quantity == 0


def test_two_tabs_building_a_deck_while_its_cards_change_set_aside_one_true_allocation(racer) -> None:
    from collection.models import AllocatedCard, Allocation

    deck = make_deck(racer, main={"YXJQ-003": 1}, general=None)
    url = f"/api/decks/{deck.pk}/"

    def build() -> int:
        return client_for(racer).patch(url, json.dumps({"built": True}), content_type="application/json").status_code

    def plus_one() -> int:
        return client_for(racer).post(f"/decks/{deck.pk}/change/", {"action": "inc", "card": "YXJQ-003"}).status_code

    assert sorted(at_once(build, build, plus_one, plus_one)) == [200, 200, 302, 302]
    assert Allocation.objects.filter(user=racer).count() == 1
    held = AllocatedCard.objects.get(allocation__user=racer)
    assert held.copies == snapshot_of(Deck.objects.get(pk=deck.pk)).main["YXJQ-003"] == 3


def _tournament(racer, players: int = 4):
    from datetime import timedelta

    from django.utils import timezone

    from events import day
    from events.models import Event, Submission
    from tests.support.decklists import LEGAL_40

    event = Event.objects.create(organiser=racer, name="race", deadline=timezone.now() + timedelta(days=1))
    for n in range(players):
        Submission.objects.create(event=event, player_name=f"p{n}", text=LEGAL_40)
    day.players_from_lists(event)
    event.players.update(checked_in=True)
    return event


def test_two_organiser_tabs_pairing_at_once_pair_one_round(racer) -> None:
    from events.models import Match, Round

    event = _tournament(racer)

    def pair() -> int:
        return (
            client_for(racer).post(f"/api/events/{event.pk}/rounds/", "{}", content_type="application/json").status_code
        )

    assert sorted(at_once(pair, pair)) == [201, 400]
    assert Round.objects.filter(event=event).count() == 1 and Match.objects.filter(round__event=event).count() == 2


def test_both_reports_at_once_agree_once_and_a_report_racing_the_organiser_loses_nothing(racer) -> None:
    from events import day
    from events.models import Match, Player

    event = _tournament(racer, players=2)
    match = day.pair_next_round(event).matches.get()
    a, b = Player.objects.get(pk=match.player_a_id), Player.objects.get(pk=match.player_b_id)
    for _ in range(3):
        Match.objects.filter(pk=match.pk).update(a_wins=None, b_wins=None, draws=None, decided_by="", disputed=False)
        match.reports.all().delete()
        at_once(lambda: day.report(match, a, 2, 1, 0), lambda: day.report(match, b, 1, 2, 0))
        settled = Match.objects.get(pk=match.pk)
        assert (settled.a_wins, settled.b_wins, settled.decided_by, settled.disputed) == (2, 1, "agreed", False)
    # A player's report racing the organiser's entry: the organiser's result stands either way.
    Match.objects.filter(pk=match.pk).update(a_wins=None, b_wins=None, draws=None, decided_by="", disputed=False)
    match.reports.all().delete()

    def player() -> str:
        try:
            day.report(match, b, 2, 0, 0)
        except day.TournamentError:
            return "refused"
        return "reported"

    results = at_once(lambda: day.enter_result(match, 2, 0, 0) and "entered", player)
    final = Match.objects.get(pk=match.pk)
    assert (final.a_wins, final.b_wins, final.decided_by) == (2, 0, "organiser")
    assert results[1] in ("refused", "reported")


def test_a_report_racing_a_round_paired_again_is_refused_or_lands_never_an_error(racer) -> None:
    from events import day
    from events.models import Match, Player, Round

    event = _tournament(racer, players=4)
    for _ in range(10):
        round_ = day.pair_next_round(event) if not Round.objects.filter(event=event).exists() else Round.objects.get()
        match = round_.matches.first()
        assert match is not None
        player = Player.objects.get(pk=match.player_a_id)

        def again() -> str:
            try:
                day.repair_round(event, 1)
            except day.TournamentError:
                return "kept"  # the report came first: a result is in
            return "paired again"

        def report() -> str:
            try:
                day.report(match, player, 2, 0, 0)
            except day.TournamentError:
                return "refused"  # the round was paired again first
            return "reported"

        outcome = at_once(again, report)
        assert outcome in (["paired again", "refused"], ["kept", "reported"], ["paired again", "reported"])
        assert Round.objects.filter(event=event).count() == 1 and Match.objects.filter(round__event=event).count() == 2
        Match.objects.filter(round__event=event).update(a_wins=None, b_wins=None, draws=None, decided_by="")
        for left in Match.objects.filter(round__event=event):
            left.reports.all().delete()


def test_a_report_a_round_paired_again_and_changes_by_hand_at_once_never_error(racer) -> None:
    """Four at once on one table: the player's report, the round paired again, the table removed
    by one organiser and a match loss given by another. Each lands or is refused with a message
    (no deadlock, no 500), and nobody ends up at two tables or with a report on no match."""
    from events import day, tools
    from events.models import Match, Player, Report, Round

    event = _tournament(racer, players=6)
    for _ in range(8):
        Round.objects.filter(event=event).delete()
        round_ = day.pair_next_round(event)
        match = round_.matches.filter(player_b__isnull=False).first()
        assert match is not None
        player = Player.objects.get(pk=match.player_a_id)

        def attempt(call) -> str:
            try:
                call()
            except day.TournamentError:
                return "refused"
            return "done"

        outcome = at_once(
            lambda: attempt(lambda: day.report(match, player, 2, 0, 0)),
            lambda: attempt(lambda: day.repair_round(event, 1)),
            lambda: attempt(lambda: tools.remove_table(event, 1, match.table, racer)),
            lambda: attempt(lambda: tools.match_loss(event, 1, match.player_b_id, racer)),
        )
        assert "done" in outcome
        newest = Round.objects.get(event=event)
        seats = [p for m in newest.matches.all() for p in (m.player_a_id, m.player_b_id) if p]
        assert len(seats) == len(set(seats))
        assert not Report.objects.filter(match__round__event=event).exclude(match__round=newest).exists()
        assert Match.objects.filter(round__event=event).count() <= 3
