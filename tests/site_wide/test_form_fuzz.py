"""Every page form, sent random and hostile values (NUL, lone surrogates, bidi marks, 100,000
characters, odd numbers, nested brackets): the answer is never a 500, whatever the form."""

from __future__ import annotations

from datetime import timedelta
from urllib.parse import quote

import pytest
from django.test import Client
from django.utils import timezone
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from catalog.models import Scan
from events.models import Event
from groups.services import create_format
from league import services
from tests.support.deck_helpers import make_deck
from tests.support.group_helpers import make_group
from tests.support.pages import paper_sheet

pytestmark = pytest.mark.django_db

HOSTILE = [
    "\x00",
    "\ud800",
    "a\udfffb",
    "\u202egpj.exe",
    "\u2066x\u2069",
    "x" * 100_000,
    "[" * 5000,
    "-1",
    "1e309",
    "99999999999999999999999",
    "０",
    "NaN",
    "<script>alert(1)</script>",
    "../../etc/passwd",
    "%00",
    "",
    " ",
    "武將: 劉備\n3 新兵",
    "YXJQ-003",
    "on",
    "inc",
    "delete",
    "2026-12-21",
    "2026-12-21T10:00",
    "9999-12-31T23:59",
    # Digits that str.isdigit() accepts and int() refuses or reads otherwise (webutil.numbers)
    "²",
    "٣",
    "１２",
    "1" * 4400,  # past int()'s limit on digits
    str(2**40),
    str(2**63),
]
values = st.one_of(st.sampled_from(HOSTILE), st.text(max_size=50), st.integers().map(str))

FORMS: dict[str, list[str]] = {
    "/check/": ["list", "format"],
    "/decks/import/": ["text", "name", "format"],
    "/decks/{deck}/build/": ["name", "format", "description", "visibility", "groups"],
    "/decks/{deck}/change/": ["action", "card", "count", "section"],
    "/decks/{deck}/paste/": ["text"],
    "/collection/cards/YXJQ-003/": ["action", "quantity", "foil_quantity", "next", "compact"],
    "/collection/wanted/YXJQ-003/": ["wanted"],
    "/collection/import/": ["confirm", "mode"],
    "/cards/五道·001/propose/read/": ["photo"],
    "/collection/scan/": ["photos"],
    "/collection/scan/{scan}/": ["card_0", "add_0", "foil_0", "card_1", "add_1", "foil_1"],
    "/accounts/sharing/": ["action", "next"],
    "/events/new/": ["name", "format", "deadline", "starts_at", "rated", "venue", "city", "fee", "cap", "contact"],
    "/events/{event}/": ["name", "format", "deadline", "starts_at", "rated", "venue", "city", "fee", "cap", "contact"],
    "/events/{event}/paper/": ["sheets"],
    "/events/{event}/paper/{paper}/": ["player_name", "text", "action"],
    "/e/{token}/": ["player_name", "deck", "list"],
    "/accounts/signup/": ["username", "password1", "password2"],
    "/accounts/login/": ["username", "password", "next"],
    "/accounts/password/reset/": ["email"],
    "/accounts/delete/": ["password", "events", "new_organiser"],
    "/groups/": ["name"],
    "/groups/join/{invite}/": ["confirm"],
    "/groups/{group}/members/": ["username"],
    "/groups/{group}/members/bob/remove/": ["confirm"],
    "/groups/{group}/games/": ["opponent", "result", "my_deck", "their_deck", "played_on"],
    "/groups/{group}/games/{game}/delete/": ["confirm"],
    "/groups/{group}/formats/new/": ["name", "min_cards", "max_cards", "copy_limit", "banned", "copy_limits", "sets"],
    "/groups/{group}/formats/{format}/": ["name", "min_cards", "max_cards", "copy_limit", "copy_limits", "sets"],
    # what people write for others, and the settings of what they are told
    "/decks/{shown}/comments/": ["body", "parent"],
    "/comments/{comment}/edit/": ["body"],
    "/comments/{comment}/report/": ["reason"],
    "/comments/{comment}/hide/": ["action"],
    "/accounts/profile/": ["display_name", "bio", "hidden", "show_events", "on_leaderboard", "in_site", "emailed"],
    "/u/bob/follow/": ["action"],
    "/u/bob/report/": ["reason"],
    "/moderation/deck-comment/{comment}/": ["action", "reason"],
    "/cards/YXJQ-003/reviews/mine/": ["body"],
    "/reviews/{review}/helpful/": ["helpful"],
    "/reviews/{review}/report/": ["reason"],
    "/moderation/card-review/{review}/": ["action", "reason"],
    "/cards/YXJQ-003/rulings/propose/": [
        "question",
        "answer",
        "source_kind",
        "source",
        "url",
        "decided_on",
        "cards",
        "replaces",
    ],
}
QUERIES: dict[str, list[str]] = {
    "/cards/": ["q", "set", "kind", "cost_min", "sort", "page", "per_page"],
    "/decks/": ["general", "faction", "format", "legal", "sort", "page", "per_page", "card", "without", "q"],
    "/decks/{shown}/": ["comments"],
    "/collection/": ["q", "kind", "page", "per_page"],
    "/decks/compare/": ["a", "b", "a_link", "b_link"],
    "/rulings/": ["term", "page"],
    "/ratings/": ["season", "region"],
    "/events/": ["region", "city", "format", "since", "until", "month", "page"],
    "/events/decks/": ["card", "general", "format", "page"],
    "/events/calendar.ics": ["region", "organiser"],
    "/events/feed/": ["region"],
    "/groups/{group}/seasons/": ["name", "starts_on", "ends_on"],
    "/events/{event}/day/players/link/": ["player", "username"],
    "/decks/{deck}/history/": ["a", "b"],
    "/groups/{group}/": ["general", "faction", "format", "legal", "sort", "page", "per_page"],
}


def _encode(fields: dict[str, str]) -> bytes:
    # Lone surrogates cannot be UTF-8: they go on the wire as the bytes a broken client sends.
    return "&".join(f"{quote(k)}={quote(v.encode('utf-8', 'surrogatepass'))}" for k, v in fields.items()).encode()


@pytest.fixture
def places(alice, bob):
    deck = make_deck(alice)
    event = Event.objects.create(organiser=alice, name="賽", deadline=timezone.now() + timedelta(days=1))
    found = [
        {
            "card": code,
            "confidence": 0.9,
            "box": [0, 0, 9, 9],
            "text": "",
            "alternatives": [{"card": "YXJQ-003", "confidence": 0.5}],
        }
        for code in ("WJ-001", "YXJQ-004")
    ]
    scan = Scan.objects.create(user=alice, status=Scan.Status.DONE, result={"cards": found, "unmatched": []})
    group = make_group(alice, bob)
    game = services.log_game(group, alice, (services.Side("alice"), services.Side("bob")), "bob")
    house = create_format(group, alice, {"name": "家規", "min_cards": 40, "max_cards": 60, "copy_limit": 3})
    # A public deck of alice's with bob's comment: alice is its owner and staff, so every form of
    # the comments and the moderation queue answers her.
    shown = make_deck(alice, name="公開", public=True)
    from decks import comments

    comment = comments.write(shown, bob, "bob 的留言")
    type(alice).objects.filter(pk=alice.pk).update(is_staff=True)
    from people.profiles import update

    update(bob, {"display_name": "Bob", "bio": "寫了點東西"})
    from catalog.models import Card
    from contributions import reviews

    review, _new = reviews.write(Card.objects.get(code="WJ-001"), bob, "bob 的評價")
    return {
        "review": review.pk,
        "shown": shown.pk,
        "comment": comment.pk,
        "format": house.pk,
        "deck": deck.pk,
        "event": event.pk,
        "token": event.token,
        "scan": scan.pk,
        **paper_sheet(event),
        "group": group.pk,
        "invite": group.invite,
        "game": game.pk,
    }


@pytest.mark.parametrize("url", FORMS)
def test_page_forms_never_answer_500(url: str, alice, places) -> None:
    client = Client(raise_request_exception=False)
    client.force_login(alice)
    target = url.format(**places)

    @settings(max_examples=40, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck))
    @given(st.fixed_dictionaries({}, optional={name: values for name in FORMS[url]}))
    def send(fields: dict[str, str]) -> None:
        response = client.post(target, _encode(fields), content_type="application/x-www-form-urlencoded")
        assert response.status_code < 500, (fields, response.status_code)

    send()


@pytest.mark.parametrize("url", QUERIES)
def test_page_queries_never_answer_500(url: str, alice, places) -> None:
    client = Client(raise_request_exception=False)
    client.force_login(alice)
    target = url.format(**places)

    @settings(max_examples=40, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck))
    @given(st.fixed_dictionaries({}, optional={name: values for name in QUERIES[url]}))
    def visit(fields: dict[str, str]) -> None:
        response = client.get(f"{target}?{_encode(fields).decode()}")
        assert response.status_code < 500, (fields, response.status_code)

    visit()
