"""Two curators approving one proposal at the same moment apply it once; two tabs proposing at
the open-proposal limit never pass it. Real threads and transactions, on SQLite and PostgreSQL."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from catalog.loading import load_catalog
from catalog.models import Card, CardChange
from contributions.models import MAX_OPEN, Proposal
from tests.support.concurrency import at_once
from tests.support.contribution_helpers import WD_CARD, make_curator, propose

PASSWORD = "x-very-long-password-1"


def _client(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


@pytest.mark.django_db(transaction=True)
def test_two_curators_approving_at_once_apply_it_once() -> None:
    load_catalog()  # real transactions: this test brings its own committed catalogue
    users = get_user_model().objects
    author = users.create_user("author", password=PASSWORD)
    first, second = (make_curator(users.create_user(n, password=PASSWORD)) for n in ("curator1", "curator2"))
    proposal = propose(author, cost="3")
    clients = [_client(first), _client(second)]
    statuses = at_once(
        *[
            (
                lambda c=c: (
                    c.post(f"/api/proposals/{proposal.pk}/approve/", {}, content_type="application/json").status_code
                )
            )
            for c in clients
        ]
    )
    assert sorted(statuses) == [200, 409]
    assert CardChange.objects.filter(card__code=WD_CARD).count() == 1
    assert Card.objects.get(code=WD_CARD).cost == 3
    assert Proposal.objects.get(pk=proposal.pk).status == "approved"


@pytest.mark.django_db(transaction=True)
def test_two_tabs_at_the_limit_open_one_proposal_more_not_two() -> None:
    load_catalog()
    author = get_user_model().objects.create_user("author", password=PASSWORD)
    for i in range(MAX_OPEN - 1):
        propose(author, text=f"第{i}版")
    tabs = [_client(author), _client(author)]
    statuses = at_once(
        *[
            (
                lambda c=c, i=i: (
                    c.post(
                        f"/api/cards/{WD_CARD}/proposals/",
                        {"facts": {"cost": i + 1}, "note": "my copy"},
                        content_type="application/json",
                    ).status_code
                )
            )
            for i, c in enumerate(tabs)
        ]
    )
    assert sorted(statuses) == [201, 429]
    assert Proposal.objects.filter(author=author, status="open").count() == MAX_OPEN


@pytest.mark.django_db(transaction=True)
def test_two_rulings_approved_at_once_never_both_supersede_one() -> None:
    """Each ruling replaces the same earlier one; approved at the same moment by two curators,
    one is made and the other is refused (the earlier ruling's row is the lock)."""
    from catalog.models import Ruling
    from contributions import services

    load_catalog()
    users = get_user_model().objects
    author, other = (users.create_user(n, password=PASSWORD) for n in ("author", "other"))
    first, second = (make_curator(users.create_user(n, password=PASSWORD)) for n in ("curator1", "curator2"))
    card = Card.objects.get(code="YXJQ-003")
    draft = {
        "question": "快速錦囊能在對手回合打出嗎？",
        "answer": "不可以。",
        "source_kind": "judge",
        "source": "王裁判",
        "decided_on": "2025-01-01",
    }
    earlier = services.approve(services.propose_ruling(author, card, draft).pk, first)
    assert earlier.change is not None
    replacing = {"replaces": earlier.change.ruling_id, "decided_on": "2026-01-01"}
    proposals = [services.propose_ruling(u, card, draft | replacing | {"answer": u.username}) for u in (author, other)]
    clients = [_client(first), _client(second)]
    statuses = at_once(
        *[
            (
                lambda c=c, p=p: (
                    c.post(f"/api/proposals/{p.pk}/approve/", {}, content_type="application/json").status_code
                )
            )
            for c, p in zip(clients, proposals, strict=True)
        ]
    )
    assert sorted(statuses) == [200, 409]
    assert Ruling.objects.filter(replaces_id=earlier.change.ruling_id).count() == 1
    assert sorted(Proposal.objects.filter(pk__in=[p.pk for p in proposals]).values_list("status", flat=True)) == [
        "approved",
        "open",
    ]
