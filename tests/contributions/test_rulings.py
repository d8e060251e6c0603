"""Rulings: proposed by players (page and API), approved by curators through the contributions
flow, in each card's history and the Atom feeds, reverted, superseded by later rulings, found
with `is:ruled` and from the terms they name."""

from __future__ import annotations

import datetime
from typing import Any

import pytest
from django.test import Client
from django.utils import timezone

from catalog import rulings, terms
from catalog.models import Card, CardChange, Ruling
from contributions import services
from contributions.models import MAX_OPEN, Proposal

pytestmark = pytest.mark.django_db

CARD = "YXJQ-003"
OTHER = "YXJQ-001"
QUESTION = "對手回合時，快速錦囊可以打出嗎？"
ANSWER = "可以：快速的錦囊在任何玩家的回合皆可打出。"


def _draft(**changes: Any) -> dict[str, Any]:
    draft: dict[str, Any] = {
        "question": QUESTION,
        "answer": ANSWER,
        "source_kind": "official",
        "source": "官方FAQ 第二版",
        "url": "https://example.org/faq-v2",
        "decided_on": "2026-03-15",
    }
    draft.update(changes)
    return {k: v for k, v in draft.items() if v is not None}


def _approve(client: Client, proposal_id: int, **body: Any) -> Any:
    return client.post(f"/api/proposals/{proposal_id}/approve/", body, content_type="application/json")


def _enacted(author: Any, curator: Any, code: str = CARD, **changes: Any) -> Ruling:
    proposal = services.propose_ruling(author, Card.objects.get(code=code), _draft(**changes))
    services.approve(proposal.pk, curator)
    return Ruling.objects.get(pk=Proposal.objects.get(pk=proposal.pk).change.ruling_id)


# --- proposing and approving -------------------------------------------------------------------


def test_a_ruling_proposed_over_the_api_is_approved_and_enters_each_cards_history(
    alice, alice_client: Client, charlie_client: Client
) -> None:
    answer = alice_client.post(
        f"/api/cards/{CARD}/rulings/", _draft(cards=[OTHER, CARD]), content_type="application/json"
    )
    assert answer.status_code == 201, answer.content
    proposal = answer.json()
    assert proposal["kind"] == "ruling" and proposal["status"] == "open" and proposal["facts"] == {}
    assert proposal["ruling"]["cards"] == [CARD, OTHER]  # the path's card first, no twice
    assert proposal["ruling"]["replaces"] is None
    # Nothing shows before a curator approves it.
    assert Client().get(f"/api/cards/{CARD}/rulings/").json() == []

    approved = _approve(charlie_client, proposal["id"])
    assert approved.status_code == 200, approved.content
    assert approved.json()["status"] == "approved"

    shown = Client().get(f"/api/cards/{OTHER}/rulings/").json()
    assert len(shown) == 1
    ruling = shown[0]
    assert ruling["question"] == QUESTION and ruling["answer"] == ANSWER
    assert ruling["cards"] == sorted([CARD, OTHER]) and ruling["decided_on"] == "2026-03-15"
    assert ruling["source_kind"] == "official" and ruling["url"] == "https://example.org/faq-v2"
    assert ruling["terms"] == ["fast", "tactic"]  # 快速 and 錦囊, found in the text
    assert ruling["entered_by"] == "alice" and ruling["superseded_by"] is None
    entries = CardChange.objects.filter(ruling_id=ruling["id"])
    assert sorted(e.card.code for e in entries) == sorted([CARD, OTHER])
    assert {e.source for e in entries} == {"contribution"} and entries[0].changes == {"ruling": [None, "in_force"]}
    assert approved.json()["change"] in {e.pk for e in entries}


def test_the_card_page_lists_rulings_newest_first_and_keeps_superseded_ones(alice, bob, charlie) -> None:
    older = _enacted(alice, charlie, decided_on="2025-01-10", answer="不可以。")
    newer = _enacted(bob, charlie, decided_on="2026-05-01", replaces=older.pk, answer="可以，自第二版起。")
    body = Client().get(f"/cards/{CARD}/").content.decode()
    section = body[body.index('id="rulings"') :]
    assert section.index(f'id="ruling-{newer.pk}"') < section.index(f'id="ruling-{older.pk}"')
    assert "可以，自第二版起。" in section and "不可以。" in section  # the older stays, as history
    older_item = section[section.index(f'id="ruling-{older.pk}"') :]
    assert "superseded" in section[section.index(f'id="ruling-{older.pk}"') - 40 :][:80]
    assert f"/rulings/{newer.pk}/" in older_item
    api = Client().get(f"/api/cards/{CARD}/rulings/").json()
    assert [r["id"] for r in api] == [newer.pk, older.pk]
    assert api[1]["superseded_by"] == newer.pk and api[0]["replaces"] == older.pk


def test_a_ruling_replaced_already_cannot_be_replaced_again(alice, bob, charlie) -> None:
    older = _enacted(alice, charlie)
    _enacted(bob, charlie, replaces=older.pk)
    with pytest.raises(services.ContributionError) as refused:
        services.propose_ruling(alice, Card.objects.get(code=CARD), _draft(replaces=older.pk))
    assert refused.value.fact == "replaces"


def test_a_second_approval_replacing_the_same_ruling_is_refused_and_changes_nothing(alice, bob, charlie) -> None:
    older = _enacted(alice, charlie)
    card = Card.objects.get(code=CARD)
    first = services.propose_ruling(alice, card, _draft(replaces=older.pk, answer="甲"))
    second = services.propose_ruling(bob, card, _draft(replaces=older.pk, answer="乙"))
    services.approve(first.pk, charlie)
    with pytest.raises(services.ContributionError) as refused:
        services.approve(second.pk, charlie)
    assert refused.value.status == 409
    assert Proposal.objects.get(pk=second.pk).status == "open"
    assert Ruling.objects.count() == 2


def test_a_curator_cannot_approve_their_own_ruling_nor_edit_it_as_facts(charlie, alice, alice_client) -> None:
    own = services.propose_ruling(charlie, Card.objects.get(code=CARD), _draft())
    with pytest.raises(services.ContributionError) as refused:
        services.approve(own.pk, charlie)
    assert refused.value.status == 403
    other = services.propose_ruling(alice, Card.objects.get(code=CARD), _draft())
    curator = Client()
    curator.force_login(type(charlie).objects.create_user("dora", is_staff=True))
    answer = _approve(curator, other.pk, facts={"cost": 3})
    assert answer.status_code == 400 and Ruling.objects.count() == 0
    photo = alice_client.post(f"/api/proposals/{other.pk}/photos/", {"side": "front"})
    assert photo.status_code == 400


@pytest.mark.parametrize(
    "changes, field",
    [
        ({"question": ""}, "question"),
        ({"question": "問" * 1001}, "question"),
        ({"answer": "答\x00"}, "answer"),
        ({"source_kind": "rumour"}, "source_kind"),
        ({"source": None}, "source"),
        ({"url": "javascript:alert(1)"}, "url"),
        ({"url": "ftp://example.org/x"}, "url"),
        ({"decided_on": "２０２６-０３-１５"}, "decided_on"),  # full-width digits
        ({"decided_on": "2026-02-30"}, "decided_on"),
        ({"decided_on": "1999-01-01"}, "decided_on"),
        ({"decided_on": (timezone.localdate() + datetime.timedelta(days=30)).isoformat()}, "decided_on"),
        ({"cards": ["NOPE-999"]}, "cards"),
        ({"cards": [f"YXJQ-{n:03d}" for n in range(1, 12)]}, "cards"),
        ({"replaces": 99999}, "replaces"),
        ({"replaces": "１"}, "replaces"),
    ],
)
def test_a_bad_ruling_is_refused_with_its_field_and_nothing_stored(
    alice_client: Client, changes: dict[str, Any], field: str
) -> None:
    answer = alice_client.post(f"/api/cards/{CARD}/rulings/", _draft(**changes), content_type="application/json")
    assert answer.status_code == 400, answer.content
    assert field in answer.json()
    assert Proposal.objects.count() == 0


def test_proposing_a_ruling_needs_an_account_and_a_real_card(alice_client: Client) -> None:
    assert Client().post(f"/api/cards/{CARD}/rulings/", _draft(), content_type="application/json").status_code in (
        401,
        403,
    )
    missing = alice_client.post("/api/cards/NOPE-001/rulings/", _draft(), content_type="application/json")
    assert missing.status_code == 404
    assert Client().get("/api/cards/NOPE-001/rulings/").status_code == 404


def test_ruling_proposals_count_toward_the_open_limit(alice) -> None:
    card = Card.objects.get(code=CARD)
    for n in range(MAX_OPEN):
        services.propose_ruling(alice, card, _draft(answer=f"答 {n}"))
    with pytest.raises(services.ContributionError) as refused:
        services.propose_ruling(alice, card, _draft())
    assert refused.value.status == 429


# --- the pages ---------------------------------------------------------------------------------


def test_the_page_form_proposes_a_ruling_and_the_author_edits_it(alice, alice_client: Client) -> None:
    page = alice_client.get(f"/cards/{CARD}/rulings/propose/")
    assert page.status_code == 200 and 'name="question"' in page.content.decode()
    assert 'name="replaces"' not in page.content.decode()  # nothing to replace yet
    sent = alice_client.post(f"/cards/{CARD}/rulings/propose/", {**_draft(), "cards": f"{OTHER}、{CARD}"})
    assert sent.status_code == 302
    proposal = Proposal.objects.get(author=alice)
    assert proposal.is_ruling and proposal.ruling["cards"] == [CARD, OTHER]
    detail = alice_client.get(f"/contributions/{proposal.pk}/").content.decode()
    assert QUESTION in detail and "官方FAQ 第二版" in detail
    edited = alice_client.post(f"/contributions/{proposal.pk}/edit/", {**_draft(answer="改過的答案")})
    assert edited.status_code == 302
    assert Proposal.objects.get(pk=proposal.pk).ruling["answer"] == "改過的答案"
    assert Proposal.objects.get(pk=proposal.pk).ruling["cards"] == [CARD]


def test_the_page_form_says_what_is_wrong(alice_client: Client) -> None:
    answer = alice_client.post(f"/cards/{CARD}/rulings/propose/", {**_draft(), "decided_on": "yesterday"})
    assert answer.status_code == 400
    assert "YYYY-MM-DD" in answer.content.decode()
    assert Proposal.objects.count() == 0


def test_a_curator_approves_a_ruling_on_its_page(alice, charlie_client: Client, english) -> None:
    proposal = services.propose_ruling(alice, Card.objects.get(code=CARD), _draft())
    page = charlie_client.get(f"/contributions/{proposal.pk}/").content.decode()
    assert QUESTION in page and "Approve after editing" not in page  # a ruling is approved as proposed
    assert charlie_client.post(f"/contributions/{proposal.pk}/approve/").status_code == 302
    assert Ruling.objects.filter(cards__code=CARD).count() == 1


def test_history_feed_and_revert_withdraw_and_put_back_a_ruling(
    alice, charlie, charlie_client: Client, english
) -> None:
    ruling = _enacted(alice, charlie, cards=[OTHER])
    history = Client().get(f"/cards/{CARD}/history/").content.decode()
    assert f"Ruling #{ruling.pk} made" in history and QUESTION in history
    feed = Client().get(f"/cards/{OTHER}/history/feed/").content.decode()
    assert f"#{ruling.pk}" in feed and "快速" in feed
    made = CardChange.objects.get(ruling=ruling, card__code=CARD)
    assert charlie_client.post(f"/changes/{made.pk}/revert/", {"confirm": "yes"}).status_code == 302
    ruling.refresh_from_db()
    assert ruling.withdrawn
    assert Client().get(f"/api/cards/{OTHER}/rulings/").json() == []  # gone from both cards
    assert CardChange.objects.filter(ruling=ruling, source="revert").count() == 2
    assert Client().get(f"/rulings/{ruling.pk}/").status_code == 200  # kept as history
    # A revert of the revert puts it back.
    withdrawn = CardChange.objects.get(ruling=ruling, card__code=CARD, source="revert")
    charlie_client.post(f"/changes/{withdrawn.pk}/revert/", {"confirm": "yes"})
    ruling.refresh_from_db()
    assert not ruling.withdrawn
    assert len(Client().get(f"/api/cards/{OTHER}/rulings/").json()) == 1


def test_withdrawing_a_later_ruling_puts_the_earlier_back_in_force(alice, bob, charlie) -> None:
    older = _enacted(alice, charlie)
    newer = _enacted(bob, charlie, replaces=older.pk)
    rulings.revert(CardChange.objects.get(ruling=newer), charlie)
    api = Client().get(f"/api/cards/{CARD}/rulings/").json()
    assert [(r["id"], r["superseded_by"]) for r in api] == [(older.pk, None)]


def test_is_ruled_finds_the_cards_with_rulings(alice, charlie) -> None:
    _enacted(alice, charlie, cards=[OTHER])
    found = Client().get("/api/cards/", {"q": "is:ruled", "page_size": 50}).json()
    assert sorted(c["code"] for c in found["results"]) == sorted([CARD, OTHER])
    chinese = Client().get("/api/cards/", {"q": "是:有裁定", "page_size": 50}).json()
    assert chinese["count"] == 2
    none = Client().get("/api/cards/", {"q": "is!=ruled set:yxjq", "page_size": 50}).json()
    assert CARD not in {c["code"] for c in none["results"]}


def test_a_term_links_to_the_rulings_that_cite_it(alice, charlie) -> None:
    ruling = _enacted(alice, charlie)
    _enacted(alice, charlie, question="武將覺醒後如何計算？", answer="依規則。", source_kind="judge")
    rules = Client().get("/rules/").content.decode()
    assert "/rulings/?term=fast" in rules
    assert "/rulings/?term=mulligan" not in rules  # no ruling names 調度
    cited = Client().get("/rulings/?term=fast").content.decode()
    assert f'id="ruling-{ruling.pk}"' in cited and "武將覺醒後" not in cited
    awaken = Client().get("/rulings/?term=awaken").content.decode()
    assert "武將覺醒後" in awaken and QUESTION not in awaken


def test_a_simplified_question_finds_its_terms_too() -> None:
    assert terms.cited("快速锦囊能在对手回合打出吗？") == ["fast", "tactic"]
