"""What the community plays (#52): the figures decks.card_stats stores agree with a brute-force
count over hand-built decks whose shares, co-occurrences and synergies are known; the card page
and the API read them."""

from __future__ import annotations

import html
from datetime import UTC, datetime

import pytest
from django.test import Client

from catalog.models import Card
from decks.card_stats import GENERAL_DECKS_AT_LEAST, compute
from decks.models import CardStats, Deck
from tests.support.deck_helpers import make_deck

pytestmark = pytest.mark.django_db

NOW = datetime(2026, 12, 6, 12, tzinfo=UTC)
# Ten public standard decks: six of 劉備 (WJ-001), four of 曹操 (WJ-002). 新兵 (YXJQ-003) in all
# of 劉備's and one of 曹操's; YXJQ-001 in three of 劉備's only; YXJQ-002 everywhere.
LIU, CAO = "WJ-001", "WJ-002"


def _decks(owner) -> list[tuple[str, dict[str, int]]]:
    built = []
    for i in range(6):
        main = {"YXJQ-002": 2, "YXJQ-003": 3 if i % 2 else 1}
        if i < 3:
            main["YXJQ-001"] = 2
        built.append((LIU, main))
    for i in range(4):
        main = {"YXJQ-002": 1}
        if i == 0:
            main["YXJQ-003"] = 2
        built.append((CAO, main))
    for general, main in built:
        make_deck(owner, general=general, main=main, public=True)
    # Neither a private deck nor another format counts.
    make_deck(owner, general=LIU, main={"YXJQ-004": 3})
    make_deck(owner, general=LIU, main={"YXJQ-004": 3}, public=True, fmt="classic")
    return built


def _brute(built: list[tuple[str, dict[str, int]]], code: str) -> dict[str, object]:
    playing = [(g, m) for g, m in built if code in m]
    share = len(playing) / len(built)
    others: dict[str, int] = {}
    for _g, main in playing:
        for other in main:
            if other != code:
                others[other] = others.get(other, 0) + 1
    synergy = {}
    for general in {g for g, _m in built}:
        of_general = [m for g, m in built if g == general]
        if len(of_general) >= GENERAL_DECKS_AT_LEAST and any(code in m for m in of_general):
            mine = sum(code in m for m in of_general) / len(of_general)
            synergy[general] = (mine, mine - share)
    return {
        "deck_count": len(playing),
        "share": share,
        "average_copies": sum(m[code] for _g, m in playing) / len(playing) if playing else None,
        "played_with": {k: (n, n / len(playing)) for k, n in others.items()},
        "synergy": synergy,
    }


def test_the_stored_figures_agree_with_a_brute_force_count(alice) -> None:
    built = _decks(alice)
    Deck.objects.update(created=NOW)
    assert compute(NOW) == 10
    for code in ("YXJQ-001", "YXJQ-002", "YXJQ-003", "YXJQ-004"):
        stats = CardStats.objects.get(card__code=code)
        expected = _brute(built, code)
        assert stats.deck_count == expected["deck_count"], code
        assert stats.share == pytest.approx(expected["share"]), code
        if expected["average_copies"] is None:
            assert stats.average_copies is None
        else:
            assert stats.average_copies == pytest.approx(expected["average_copies"]), code
        assert {p["card"]: (p["deck_count"], pytest.approx(p["share"])) for p in stats.played_with} == expected[
            "played_with"
        ], code
        assert {s["general"]: (pytest.approx(s["share"]), pytest.approx(s["synergy"])) for s in stats.synergy} == (
            expected["synergy"]
        ), code
    recruit = CardStats.objects.get(card__code="YXJQ-003")
    # the numbers themselves: 7 of 10 decks; in all 6 of 劉備's decks (+30 points); 曹操 has 4
    # decks, under the 5 a synergy needs
    assert (recruit.deck_count, recruit.share) == (7, pytest.approx(0.7))
    assert recruit.synergy == [{"general": LIU, "share": 1.0, "synergy": pytest.approx(0.3)}]
    assert recruit.by_month[-1] == {"month": "2026-12", "deck_count": 7, "share": pytest.approx(0.7)}
    assert len(recruit.by_month) == 12 and recruit.by_month[0]["month"] == "2026-01"
    assert CardStats.objects.count() == Card.objects.count()


def test_the_card_page_and_the_api_read_the_stored_figures(alice, english) -> None:
    _decks(alice)
    page = Client().get("/cards/YXJQ-003/").content.decode()
    assert "Not counted yet" in page  # before the first run
    compute()
    page = Client().get("/cards/YXJQ-003/").content.decode()
    assert "In 7 of 10 public decks (70%)" in page and 'href="/cards/YXJQ-002/"' in page
    data = Client().get("/api/cards/YXJQ-003/stats/").json()
    assert data["deck_count"] == 7 and data["share"] == pytest.approx(0.7)
    assert data["average_copies"] == pytest.approx((1 + 3 + 1 + 3 + 1 + 3 + 2) / 7)
    assert data["played_with"][0] == {"card": "YXJQ-002", "deck_count": 7, "share": 1.0}
    assert data["synergy"][0]["general"] == LIU and len(data["by_month"]) == 12
    assert Client().get("/api/cards/NOPE-1/stats/").status_code == 404


def test_public_deck_saves_queue_one_run_a_minute_on(alice, settings, django_capture_on_commit_callbacks) -> None:
    from django_tasks_db.models import DBTaskResult

    settings.TASKS = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend", "QUEUES": ["default"]}}

    with django_capture_on_commit_callbacks(execute=True):
        for i in range(3):
            make_deck(alice, name=f"公開{i}", public=True)
    queued = DBTaskResult.objects.filter(task_path="decks.tasks.recompute_card_stats", status="READY")
    assert queued.count() == 1 and queued.get().run_after is not None
    DBTaskResult.objects.all().delete()
    with django_capture_on_commit_callbacks(execute=True):
        make_deck(alice, name="私人")  # a private deck counts in no figure
    assert not DBTaskResult.objects.exists()


def test_before_the_first_count_the_api_answers_zeros(client: Client) -> None:
    data = client.get("/api/cards/YXJQ-003/stats/").json()
    assert data["deck_count"] == 0 and data["computed"] is None and data["by_month"] == []


def test_a_generals_top_cards_and_average_deck_from_its_decks(alice, english) -> None:
    from decks.legality import RequestedEntry, check_structured
    from tests.support.deck_helpers import LEGAL_MAIN

    # Five decks of 劉備: the legal forty in each; in three of them YXJQ-010 at 2 copies in
    # place of one copy each of YXJQ-003 and YXJQ-004 (still forty cards).
    for i in range(5):
        main = dict(LEGAL_MAIN)
        if i < 3:
            main["YXJQ-003"], main["YXJQ-004"], main["YXJQ-010"] = 2, 2, 2
        make_deck(alice, name=f"劉備{i}", general=LIU, main=main, public=True)
    make_deck(alice, name="曹操", general=CAO, main=dict(LEGAL_MAIN), public=True)
    compute()
    stats = CardStats.objects.get(card__code=LIU)
    top = {row["card"]: row for row in stats.top_cards}
    assert top["YXJQ-010"]["share"] == pytest.approx(0.6)  # 3 of its 5 decks
    # of all 6 decks 3 play it: 0.6 - 0.5
    assert top["YXJQ-010"]["synergy"] == pytest.approx(0.1)
    assert top["YXJQ-003"]["share"] == 1.0 and top["YXJQ-003"]["synergy"] == pytest.approx(0.0)
    average = {row["card"]: row["count"] for row in stats.average_deck}
    # the most common counts: 2 copies of 003 and 004 (3 decks of 5), 2 of 010; the rest as built
    assert average["YXJQ-003"] == 2 and average["YXJQ-010"] == 2
    assert sum(average.values()) >= 40
    verdict = check_structured(LIU, [RequestedEntry(c, n) for c, n in average.items()], [])
    assert verdict.legal, verdict.problems
    assert CardStats.objects.get(card__code=CAO).average_deck == []  # one deck: too few

    page = Client().get(f"/cards/{LIU}/decks/").content.decode()
    assert "The average deck" in page and 'href="/cards/YXJQ-010/"' in page and "劉備4" in page
    assert Client().get("/cards/YXJQ-003/decks/").status_code == 404  # not a general
    assert "Too few public decks" in Client().get(f"/cards/{CAO}/decks/").content.decode()
    data = Client().get(f"/api/cards/{LIU}/stats/").json()
    assert {row["card"]: row["count"] for row in data["average_deck"]} == average
    assert "average_deck" not in Client().get("/api/cards/YXJQ-003/stats/").json()
    # opened in the builder: a new deck of the reader's, legal
    reader = Client()
    reader.force_login(alice)
    form = reader.get(f"/cards/{LIU}/decks/").content.decode()
    text = html.unescape(form.split('name="text" value="')[1].split('"')[0])
    made = reader.post("/decks/import/", {"text": text, "name": "平均", "format": "standard"})
    assert made.status_code == 302
    opened = Deck.objects.get(name="平均")
    assert opened.is_legal and opened.main_count == sum(average.values())


def test_no_public_decks_count_zeros_and_a_second_run_writes_over(alice) -> None:
    make_deck(alice, name="私人")
    assert compute() == 0
    recruit = CardStats.objects.get(card__code="YXJQ-003")
    assert (recruit.deck_count, recruit.share, recruit.average_copies, recruit.played_with) == (0, 0.0, None, [])
    make_deck(alice, name="公開", main={"YXJQ-003": 3}, public=True)
    assert compute() == 1
    assert CardStats.objects.get(card__code="YXJQ-003").deck_count == 1
    assert CardStats.objects.count() == Card.objects.count()
