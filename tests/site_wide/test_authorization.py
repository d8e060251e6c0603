"""One table of every URL that shows or changes private data, walked as an anonymous visitor,
as another user (bob) and as the owner (alice): only the owner gets in, and nothing of alice's
shows in bob's lists. For events, alice is the organiser: her event is as private as her decks."""

from __future__ import annotations

import io
import json
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.core.files.base import ContentFile
from django.test import Client
from django.utils import timezone

from catalog.models import Card, CardChange, Scan
from collection.models import CollectionChange
from contributions import reviews, services
from decks.services import set_groups
from events import claims
from events.models import Event, Match, Player, Submission
from groups.services import create_format
from league.services import Side, log_game
from tests.conftest import PASSWORD, logged_in
from tests.support.collection_helpers import own
from tests.support.contribution_helpers import propose
from tests.support.deck_helpers import make_deck
from tests.support.group_helpers import make_group
from tests.support.image_helpers import picture_bytes
from tests.support.pages import paired_round, paper_sheet

pytestmark = pytest.mark.django_db

SECRET = "艾莉絲的秘密牌庫"


@dataclass(frozen=True)
class Route:
    method: str
    url: str  # {deck} and {change} are alice's private deck and one of her collection changes
    owner: int  # the owner's status
    anonymous: tuple[int, ...]  # 302 to log in for pages, 401 for the API, 404 for hidden things
    other: tuple[int, ...]
    data: dict[str, Any] | None = None
    json: bool = False
    member: tuple[int, ...] | None = None  # for a play group's routes: dora, a member of alice's {group}
    # The link is the invitation: whoever holds it reads the event's name (and nothing else of
    # alice's), so SECRET, the event's name, may show there.
    by_link: bool = False


RULING = {
    "question": "快速錦囊能在對手回合打出嗎？",
    "answer": "可以。",
    "source_kind": "judge",
    "source": "台北公開賽裁判",
    "decided_on": "2026-03-15",
}
SEASON = {"name": "春季聯賽", "starts_on": "2026-03-01", "ends_on": "2026-05-31"}
HOUSE_RULES = {"name": "家規", "min_cards": 40, "max_cards": 60, "copy_limit": 3}
HOUSE_FORM = {key: str(value) for key, value in HOUSE_RULES.items()}

ROUTES = [
    # collection pages
    Route("get", "/collection/", 200, (302,), (200,)),
    Route("get", "/collection/completion/", 200, (302,), (200,)),
    Route("get", "/collection/trade/", 200, (302,), (200,)),
    Route("get", "/collection/history/", 200, (302,), (200,)),
    Route("get", "/collection/export.csv", 200, (302,), (200,)),
    Route("get", "/collection/import/", 200, (302,), (200,)),
    Route("post", "/collection/cards/YXJQ-003/", 302, (302,), (302,), {"action": "inc"}),
    Route("post", "/collection/wanted/YXJQ-003/", 302, (302,), (302,), {"wanted": "2"}),
    Route("post", "/collection/history/{change}/undo/", 200, (302,), (404,)),  # asks first
    Route("post", "/collection/history/{change}/undo/", 302, (302,), (404,), {"confirm": "yes"}),
    # account
    Route("get", "/accounts/", 200, (302,), (200,)),
    Route("post", "/accounts/token/", 302, (302,), (302,)),
    Route("post", "/accounts/sharing/", 302, (302,), (302,), {"action": "on"}),
    Route("get", "/accounts/delete/", 200, (302,), (200,)),
    Route("post", "/accounts/delete/", 400, (302,), (400,), {"password": "wrong", "events": "delete"}),
    # decks
    Route("get", "/decks/mine/", 200, (302,), (200,)),
    Route("get", "/decks/{deck}/", 200, (404,), (404,)),
    Route("get", "/decks/{deck}/build/", 200, (302,), (404,)),
    Route("get", "/decks/{deck}/history/", 200, (404,), (404,)),
    Route("get", "/decks/{deck}/export.txt", 200, (404,), (404,)),
    Route("get", "/decks/{deck}/sheet/", 200, (404,), (404,)),
    Route("get", "/decks/{deck}/image.png", 200, (404,), (404,)),
    Route("get", "/decks/{deck}/proxies/", 200, (404,), (404,)),
    Route("post", "/decks/{deck}/change/", 302, (302,), (404,), {"action": "inc", "card": "YXJQ-003"}),
    Route("post", "/decks/{deck}/paste/", 302, (302,), (404,), {"text": "2 新兵"}),
    Route("post", "/decks/{deck}/clone/", 302, (302,), (404,)),
    # a like: never one's own deck (400 to the owner); kept for later: one's own too
    Route("post", "/decks/{deck}/like/", 400, (302,), (404,)),
    Route("post", "/decks/{deck}/bookmark/", 302, (302,), (404,)),
    Route("get", "/decks/saved/", 200, (302,), (200,)),
    # comments: only on public decks (alice's is private: none, even for her); the staff's queue
    Route("post", "/decks/{deck}/comments/", 404, (302,), (404,), {"body": SECRET}),
    Route("get", "/moderation/", 404, (302,), (404,)),
    # a new link for a deck: its owner's to make (alice's deck is private: a link reads nothing)
    Route("post", "/decks/{deck}/link/", 302, (302,), (404,)),
    Route("post", "/decks/{deck}/feature/", 404, (302,), (404,)),  # staff only
    # the profile's settings and the bell: each reader's own
    Route("get", "/accounts/profile/", 200, (302,), (200,)),
    Route("get", "/notifications/", 200, (302,), (200,)),
    Route("post", "/notifications/read/", 302, (302,), (302,)),
    Route("get", "/api/notifications/", 200, (401,), (200,)),
    Route("post", "/api/notifications/read/", 200, (401,), (200,)),
    Route("post", "/decks/{deck}/history/1/restore/", 200, (302,), (404,)),
    Route("post", "/decks/{deck}/history/1/restore/", 302, (302,), (404,), {"confirm": "yes"}),
    Route("post", "/decks/{deck}/history/publish/", 302, (302,), (404,)),
    Route("post", "/decks/{deck}/want-missing/", 302, (302,), (404,)),
    Route("get", "/decks/{deck}/odds/?card=YXJQ-003", 200, (404,), (404,)),
    Route("get", "/decks/{deck}/sample/?seed=1&turn=1", 200, (404,), (404,)),
    Route("get", "/decks/compare/?a={deck}&b={deck}", 200, (404,), (404,)),
    Route("get", "/decks/shopping/?deck={deck}", 200, (302,), (404,)),
    Route("get", "/decks/shopping/?deck={deck}&output=csv", 200, (302,), (404,)),
    Route("post", "/decks/shopping/want/", 302, (302,), (404,), {"deck": "{deck}"}),
    Route("get", "/api/decks/close/", 200, (401,), (200,)),
    Route("get", "/decks/archive/", 200, (302,), (200,)),
    Route("post", "/decks/archive/", 400, (302,), (400,)),
    Route("get", "/decks/archive/decks.zip", 200, (302,), (200,)),
    Route("get", "/decks/archive/everything.zip", 200, (302,), (200,)),
    Route("post", "/decks/{deck}/delete/", 200, (302,), (404,)),
    Route("post", "/decks/{deck}/delete/", 302, (302,), (404,), {"confirm": "yes"}),
    # events (alice organises; {event} is hers, {submission} a list sent to it)
    Route("get", "/events/", 200, (200,), (200,)),  # the directory: listed events, none of alice's private ones
    Route("get", "/events/mine/", 200, (302,), (200,)),
    Route("get", "/events/new/", 200, (302,), (200,)),
    Route("get", "/events/calendar.ics", 200, (200,), (200,)),
    Route("get", "/events/calendar.ics?organiser=alice", 200, (200,), (200,)),
    Route("get", "/events/feed/", 200, (200,), (200,)),
    Route("get", "/events/decks/?card=YXJQ-003", 200, (200,), (200,)),  # records of public lists only
    Route("post", "/events/{event}/registration/", 404, (404,), (404,)),  # not listed: no address by id
    Route("post", "/e/{token}/registration/", 404, (302,), (404,), by_link=True),  # private: its link alone
    Route("get", "/events/{event}/", 200, (302,), (404,)),
    Route(
        "post",
        "/events/{event}/",
        302,
        (302,),
        (404,),
        {"name": "x", "format": "standard", "deadline": "2099-01-01T10:00"},
    ),
    Route("get", "/events/{event}/export.csv", 200, (302,), (404,)),
    # saving the batch check's files as an event: any logged-in organiser; nothing named here
    Route("post", "/events/from-files/", 400, (403,), (400,)),
    Route("get", "/events/{event}/sheets/", 200, (302,), (404,)),
    # paper lists ({paper} is a sheet read for alice's event)
    Route("get", "/events/{event}/paper/", 200, (302,), (404,)),
    Route("post", "/events/{event}/paper/", 400, (302,), (404,)),  # no file
    Route("get", "/events/{event}/paper/{paper}/", 200, (302,), (404,)),
    Route("get", "/events/{event}/paper/{paper}/lines/0.webp", 200, (302,), (404,)),
    Route("post", "/events/{event}/paper/{paper}/", 302, (302,), (404,), {"player_name": "阿華", "text": "3 YXJQ-003"}),
    Route("post", "/events/{event}/paper/{paper}/", 302, (302,), (404,), {"action": "discard"}),
    Route("post", "/events/{event}/lock/", 200, (302,), (404,)),
    Route("post", "/events/{event}/lock/", 302, (302,), (404,), {"confirm": "yes"}),
    Route("post", "/events/{event}/link/", 302, (302,), (404,)),
    Route("post", "/events/{event}/submissions/{submission}/remove/", 200, (302,), (404,)),
    Route("post", "/events/{event}/submissions/{submission}/remove/", 302, (302,), (404,), {"confirm": "yes"}),
    Route("post", "/events/{event}/delete/", 200, (302,), (404,)),
    Route("post", "/events/{event}/delete/", 302, (302,), (404,), {"confirm": "yes"}),
    # the tournament day ({player} and {match} are of alice's event; its round 1 is paired)
    Route("get", "/events/{event}/day/", 200, (302,), (404,)),
    Route("post", "/events/{event}/day/settings/", 400, (302,), (404,)),
    Route("post", "/events/{event}/day/judges/", 400, (302,), (404,), {"username": "nobody"}),
    Route("post", "/events/{event}/day/players/add/", 400, (302,), (404,)),
    Route("post", "/events/{event}/day/players/{player}/", 302, (302,), (404,), {"action": "check_in"}),
    Route("post", "/events/{event}/day/pair/", 302, (302,), (404,)),
    Route("post", "/events/{event}/day/swap/", 400, (302,), (404,), {"first": "x", "second": "y"}),
    Route("post", "/api/events/{event}/top-cut/", 400, (401,), (404,), {}, json=True),
    Route("post", "/events/{event}/day/results/{match}/", 302, (302,), (404,), {"wins": 2, "losses": 1, "draws": 0}),
    Route("get", "/events/{event}/standings.csv", 200, (302,), (404,)),
    Route("get", "/events/{event}/pairings/", 200, (302,), (404,)),
    Route("post", "/events/{event}/day/rounds/1/clock/", 302, (302,), (404,), {"action": "add", "minutes": 5}),
    Route("post", "/events/{event}/day/rounds/1/tables/", 400, (302,), (404,), {"action": "remove", "table": "99"}),
    Route("post", "/events/{event}/day/rounds/1/delete/", 200, (302,), (404,)),  # asks first
    Route("post", "/events/{event}/day/penalties/", 302, (302,), (404,), {"player": "{player}", "kind": "warning"}),
    Route("post", "/events/{event}/day/rounds/1/deck-checks/", 302, (302,), (404,), {"tables": "1"}),
    Route("get", "/events/{event}/day/deck-checks/{check}/", 200, (302,), (404,)),
    Route("post", "/events/{event}/day/lists/", 400, (302,), (404,), {"player": "{player}", "text": ""}),
    Route("post", "/events/{event}/day/rounds/1/publish/", 400, (302,), (404,)),  # published already
    Route("post", "/events/{event}/day/seating/", 302, (302,), (404,), {"player": "{player}", "fixed_table": "3"}),
    Route("post", "/events/{event}/day/check-in/", 400, (302,), (404,)),  # round 1 is paired already
    # a player's own part of the event link: alice sent no list, so she has none either
    # the event's link: a visitor sees which event it is and both ways in (sign up, log in)
    Route("get", "/e/{token}/", 200, (200,), (200,), by_link=True),
    Route("post", "/e/{token}/", 400, (302,), (400,), by_link=True),
    Route("post", "/e/{token}/check-in/", 404, (302,), (404,)),
    Route("post", "/e/{token}/report/", 404, (302,), (404,), {"wins": 2, "losses": 0, "draws": 0}),
    Route("post", "/e/{token}/drop/", 404, (302,), (404,), {"confirm": "yes"}),
    Route("get", "/api/events/", 200, (401,), (200,)),
    Route("get", "/api/events/{event}/", 200, (404,), (404,)),  # anyone reads a listed event; this one is not
    Route("get", "/api/events/?listed=1", 200, (200,), (200,)),  # listed events only: alice's is private
    Route("post", "/api/events/{event}/registration/", 404, (401,), (404,)),  # a private event takes none
    Route("delete", "/api/events/{event}/registration/", 404, (401,), (404,)),
    Route("get", "/api/users/alice/events/", 200, (200,), (200,)),
    Route("get", "/api/regions/", 200, (200,), (200,)),
    Route("patch", "/api/events/{event}/", 200, (401,), (404,), {"round_minutes": 45}, json=True),
    Route("get", "/api/events/{event}/players/", 200, (401,), (404,)),
    Route("post", "/api/events/{event}/players/", 400, (401,), (404,), {"user": "nobody"}, json=True),
    Route("patch", "/api/events/{event}/players/{player}/", 200, (401,), (404,), {"checked_in": True}, json=True),
    Route("get", "/api/events/{event}/rounds/", 200, (401,), (404,)),
    Route("post", "/api/events/{event}/rounds/", 201, (401,), (404,), {}, json=True),
    Route(
        "post",
        "/api/events/{event}/rounds/1/results/",
        200,
        (401,),
        (404,),
        {"table": 1, "wins": 2, "losses": 0, "draws": 0},
        json=True,
    ),
    Route("post", "/api/events/{event}/rounds/1/clock/", 200, (401,), (404,), {"action": "add"}, json=True),
    Route("get", "/api/events/{event}/rounds/1/", 200, (401,), (404,)),
    Route("delete", "/api/events/{event}/rounds/1/", 400, (401,), (404,)),  # a result is in
    Route("patch", "/api/events/{event}/rounds/1/tables/99/", 400, (401,), (404,), {}, json=True),
    Route("delete", "/api/events/{event}/rounds/1/tables/99/", 400, (401,), (404,)),
    Route("get", "/api/events/{event}/rounds/1/deck-checks/", 200, (401,), (404,)),
    Route("post", "/api/events/{event}/rounds/1/deck-checks/", 201, (401,), (404,), {"tables": 1}, json=True),
    Route("post", "/api/events/{event}/rounds/1/publish/", 400, (401,), (404,), {}, json=True),
    Route("get", "/api/events/{event}/penalties/", 200, (401,), (404,)),
    Route("post", "/api/events/{event}/penalties/", 400, (401,), (404,), {"player": 0, "kind": "warning"}, json=True),
    Route("get", "/api/events/{event}/standings/", 200, (401,), (404,)),
    Route("get", "/api/events/{event}/export/", 200, (401,), (404,)),
    Route("get", "/api/events/{event}/top-cut/", 200, (401,), (404,)),
    # API
    Route("get", "/api/collection/", 200, (401,), (200,)),
    Route("get", "/api/collection/stats/", 200, (401,), (200,)),
    Route("get", "/api/collection/YXJQ-003/", 200, (401,), (200,)),
    Route("patch", "/api/collection/YXJQ-003/", 200, (401,), (200,), {"add": 1}, json=True),
    # counting by photo: {scan} is alice's, read; sending a photo is anyone's who is logged in
    Route("post", "/api/scans/", 400, (401,), (400,), {"note": "no image"}),
    Route("get", "/api/scans/{scan}/", 200, (401,), (404,)),
    Route("get", "/collection/scan/", 200, (302,), (200,)),
    Route("post", "/collection/scan/", 400, (302,), (400,)),
    Route("get", "/collection/scan/{scan}/", 200, (302,), (404,)),
    Route("get", "/collection/scan/{scan}/crop/0.webp", 200, (302,), (404,)),
    Route("post", "/collection/scan/{scan}/", 302, (302,), (404,), {"card_0": "WJ-001", "add_0": "1"}),
    Route(
        "post", "/api/scans/{scan}/apply/", 200, (401,), (404,), {"cards": [{"card": "YXJQ-003", "add": 1}]}, json=True
    ),
    Route("get", "/api/decks/", 200, (200,), (200,)),
    # The rules and their terms are for everyone.
    Route("get", "/rules/", 200, (200,), (200,)),
    Route("get", "/api/rules/", 200, (200,), (200,)),
    Route("get", "/api/terms/", 200, (200,), (200,)),
    # A review's form is the reader's own (the author/reader/staff/banned table of
    # tests/contributions/test_reviews.py says who may do what to a review).
    Route("get", "/cards/YXJQ-003/reviews/mine/", 200, (302,), (200,)),
    Route("get", "/api/cards/YXJQ-003/reviews/", 200, (200,), (200,)),
    Route("post", "/cards/WJ-001/reviews/mine/", 302, (302,), (302,), {"body": "改寫"}),
    Route("post", "/api/cards/WJ-001/reviews/", 200, (401,), (201,), {"body": "改寫"}, json=True),
    Route("post", "/reviews/{review}/delete/", 302, (302,), (404,)),
    Route("post", "/reviews/{review}/helpful/", 302, (302,), (302,)),
    Route("post", "/reviews/{review}/report/", 302, (302,), (302,)),
    Route("post", "/api/reviews/{review}/helpful/", 403, (401,), (200,), {}, json=True),
    Route("delete", "/api/reviews/{review}/helpful/", 403, (401,), (200,)),
    Route("get", "/api/cards/YXJQ-003/stats/", 200, (200,), (200,)),
    Route("get", "/cards/WJ-001/decks/", 200, (200,), (200,)),
    Route("get", "/api/decks/{deck}/", 200, (404,), (404,)),
    Route("patch", "/api/decks/{deck}/", 200, (401,), (404,), {"name": "x"}, json=True),
    Route("get", "/api/decks/{deck}/legality/", 200, (404,), (404,)),
    Route("post", "/api/decks/{deck}/like/", 400, (401,), (404,)),
    Route("delete", "/api/decks/{deck}/like/", 200, (401,), (404,)),
    Route("post", "/api/decks/{deck}/bookmark/", 200, (401,), (404,)),
    Route("delete", "/api/decks/{deck}/bookmark/", 200, (401,), (404,)),
    Route("get", "/api/decks/?saved=1", 200, (401,), (200,)),
    Route("get", "/api/decks/{deck}/comments/", 404, (404,), (404,)),
    Route("post", "/api/decks/{deck}/comments/", 404, (401,), (404,), {"body": "x"}, json=True),
    Route("get", "/api/decks/{deck}/missing/", 200, (401,), (404,)),
    Route("get", "/api/decks/{deck}/export/", 200, (404,), (404,)),
    Route("get", "/api/decks/{deck}/odds/?card=YXJQ-003&k=1", 200, (404,), (404,)),
    Route("get", "/api/decks/compare/?a={deck}&b={deck}", 200, (404,), (404,)),
    Route("patch", "/api/decks/{deck}/", 200, (401,), (404,), {"built": True, "tags": ["x"]}, json=True),
    Route("delete", "/api/decks/{deck}/", 204, (401,), (404,)),
    # contributions: {proposal} is alice's, open, with a photo; alice is no curator, so she
    # may not review (not even her own); {cardchange} is a change to a card's facts
    Route("get", "/cards/五道·001/propose/", 200, (302,), (200,)),
    # a photo of the card read for a proposal: {reading} is alice's
    Route("post", "/cards/五道·001/propose/read/", 400, (302,), (400,)),
    Route("get", "/cards/五道·001/propose/?scan={reading}", 200, (302,), (404,)),
    Route("get", "/contributions/", 200, (302,), (200,)),
    Route("get", "/contributions/{proposal}/", 200, (302,), (404,)),
    Route("get", "/contributions/{proposal}/edit/", 200, (302,), (404,)),
    Route("post", "/contributions/{proposal}/edit/", 302, (302,), (404,), {"note": "x", "cost": "4"}),
    Route("get", "/contributions/{proposal}/photos/front/", 200, (302,), (404,)),
    Route("post", "/contributions/{proposal}/withdraw/", 200, (302,), (404,)),
    Route("post", "/contributions/{proposal}/withdraw/", 302, (302,), (404,), {"confirm": "yes"}),
    Route("post", "/contributions/{proposal}/approve/", 403, (302,), (404,)),
    Route("post", "/contributions/{proposal}/reject/", 403, (302,), (404,), {"reason": "x"}),
    Route("get", "/review/", 403, (302,), (403,)),
    # a typed-in player linked to an account: {claim} asks alice (bob's event); the day's form
    # is the organiser's ({event} is alice's)
    Route("get", "/events/claims/{claim}/", 200, (302,), (404,)),
    Route("post", "/events/claims/{claim}/", 302, (302,), (404,), {"action": "decline"}),
    Route(
        "post", "/events/{event}/day/players/link/", 400, (302,), (404,), {"player": "{player}", "username": "nobody"}
    ),
    # ratings: a season's leaderboard is public
    Route("get", "/ratings/", 200, (200,), (200,)),
    Route("get", "/api/ratings/?season=2026", 200, (200,), (200,)),
    # rulings: anyone reads them; anyone logged in proposes one; {ruling_proposal} is alice's
    Route("get", "/rulings/", 200, (200,), (200,)),
    Route("get", "/rulings/{ruling}/", 200, (200,), (200,)),
    Route("get", "/cards/YXJQ-003/rulings/propose/", 200, (302,), (200,)),
    Route("post", "/cards/YXJQ-003/rulings/propose/", 302, (302,), (302,), RULING),
    Route("get", "/contributions/{ruling_proposal}/edit/", 200, (302,), (404,)),
    Route("post", "/contributions/{ruling_proposal}/edit/", 302, (302,), (404,), RULING),
    Route("get", "/api/cards/YXJQ-003/rulings/", 200, (200,), (200,)),
    Route("post", "/api/cards/YXJQ-003/rulings/", 201, (401,), (201,), RULING, json=True),
    Route("post", "/changes/{cardchange}/revert/", 403, (302,), (403,), {"confirm": "yes"}),
    Route(
        "post", "/api/cards/五道·001/proposals/", 201, (401,), (201,), {"facts": {"cost": 2}, "note": "x"}, json=True
    ),
    Route("get", "/api/proposals/", 200, (401,), (200,)),
    Route("get", "/api/proposals/{proposal}/", 200, (401,), (404,)),
    Route("post", "/api/proposals/{proposal}/photos/", 400, (401,), (404,), {"side": "front"}),
    Route("post", "/api/proposals/{proposal}/approve/", 403, (401,), (404,), {}, json=True),
    Route("post", "/api/proposals/{proposal}/reject/", 403, (401,), (404,), {"reason": "x"}, json=True),
    # play groups: alice owns {group} (its name is no secret: the invite link shows it), dora is
    # a member, bob is not; alice's secret deck is shared with it; {game} is alice v dora, not
    # yet confirmed
    Route("get", "/groups/", 200, (302,), (200,), member=(200,)),
    Route("post", "/groups/", 400, (302,), (400,), {"name": ""}, member=(400,)),
    Route("get", "/groups/{group}/", 200, (302,), (404,), member=(200,)),
    Route("get", "/groups/join/{invite}/", 200, (200,), (200,), member=(200,)),  # a visitor: the invitation
    Route("post", "/groups/join/{invite}/", 302, (302,), (302,), member=(302,)),
    Route("post", "/groups/{group}/members/", 302, (302,), (404,), {"username": "bob"}, member=(302,)),
    Route("post", "/groups/{group}/members/dora/remove/", 200, (302,), (404,), member=(200,)),
    Route("post", "/groups/{group}/members/dora/remove/", 302, (302,), (404,), {"confirm": "yes"}, member=(302,)),
    Route("post", "/groups/{group}/invite/", 302, (302,), (404,), member=(302,)),
    Route("post", "/groups/{group}/delete/", 200, (302,), (404,), member=(302,)),
    Route("post", "/groups/{group}/delete/", 302, (302,), (404,), {"confirm": "yes"}, member=(302,)),
    Route("post", "/groups/{group}/games/", 302, (302,), (404,), {"opponent": "dora", "result": "me"}, member=(400,)),
    Route("post", "/groups/{group}/games/{game}/confirm/", 302, (302,), (404,), member=(302,)),
    Route("post", "/groups/{group}/games/{game}/delete/", 200, (302,), (404,), member=(200,)),
    Route("post", "/groups/{group}/games/{game}/delete/", 302, (302,), (404,), {"confirm": "yes"}, member=(302,)),
    Route("get", "/api/groups/", 200, (401,), (200,), member=(200,)),
    Route("post", "/api/groups/", 201, (401,), (201,), {"name": "x"}, json=True, member=(201,)),
    Route("get", "/api/groups/{group}/", 200, (401,), (404,), member=(200,)),
    Route("patch", "/api/groups/{group}/", 200, (401,), (404,), {"name": "y"}, json=True, member=(403,)),
    Route("delete", "/api/groups/{group}/", 204, (401,), (404,), member=(403,)),
    Route("post", "/api/groups/join/", 200, (401,), (201,), {"invite": "{invite}"}, json=True, member=(200,)),
    Route("post", "/api/groups/{group}/invite/", 200, (401,), (404,), {}, json=True, member=(403,)),
    Route("get", "/api/groups/{group}/members/", 200, (401,), (404,), member=(200,)),
    Route("post", "/api/groups/{group}/members/", 201, (401,), (404,), {"user": "bob"}, json=True, member=(403,)),
    Route("delete", "/api/groups/{group}/members/dora/", 204, (401,), (404,), member=(204,)),
    Route("get", "/api/groups/{group}/decks/", 200, (401,), (404,), member=(200,)),
    Route("get", "/api/groups/{group}/games/", 200, (401,), (404,), member=(200,)),
    Route(
        "post",
        "/api/groups/{group}/games/",
        201,
        (401,),
        (404,),
        {"players": ["alice", "dora"], "winner": "alice"},
        json=True,
        member=(201,),
    ),
    Route("get", "/api/groups/{group}/games/{game}/", 200, (401,), (404,), member=(200,)),
    Route("post", "/api/groups/{group}/games/{game}/confirm/", 403, (401,), (404,), {}, json=True, member=(200,)),
    Route("delete", "/api/groups/{group}/games/{game}/", 204, (401,), (404,), member=(204,)),
    Route("get", "/api/groups/{group}/league/", 200, (401,), (404,), member=(200,)),
    Route("get", "/api/groups/{group}/league/?season=all", 200, (401,), (404,), member=(200,)),
    Route("get", "/api/groups/{group}/seasons/", 200, (401,), (404,), member=(200,)),
    Route("post", "/api/groups/{group}/seasons/", 201, (401,), (404,), SEASON, json=True, member=(403,)),
    Route("get", "/groups/{group}/?season=all", 200, (302,), (404,), member=(200,)),
    Route("post", "/groups/{group}/seasons/", 302, (302,), (404,), SEASON, member=(403,)),
    # {format} is a house format of alice's group: every member reads it, only she changes it
    Route("get", "/groups/{group}/formats/new/", 200, (302,), (404,), member=(403,)),
    Route("post", "/groups/{group}/formats/new/", 302, (302,), (404,), HOUSE_FORM, member=(403,)),
    Route("get", "/groups/{group}/formats/{format}/", 200, (302,), (404,), member=(200,)),
    Route("post", "/groups/{group}/formats/{format}/", 302, (302,), (404,), HOUSE_FORM, member=(403,)),
    Route("post", "/groups/{group}/formats/{format}/delete/", 200, (302,), (404,), member=(403,)),
    Route("post", "/groups/{group}/formats/{format}/delete/", 302, (302,), (404,), {"confirm": "yes"}, member=(403,)),
    Route("get", "/api/groups/{group}/formats/", 200, (401,), (404,), member=(200,)),
    Route("post", "/api/groups/{group}/formats/", 201, (401,), (404,), HOUSE_RULES, json=True, member=(403,)),
    Route("get", "/api/groups/{group}/formats/{format}/", 200, (401,), (404,), member=(200,)),
    Route(
        "patch",
        "/api/groups/{group}/formats/{format}/",
        200,
        (401,),
        (404,),
        {"copy_limit": 2},
        json=True,
        member=(403,),
    ),
    Route("delete", "/api/groups/{group}/formats/{format}/", 204, (401,), (404,), member=(403,)),
]


@pytest.fixture
def world(alice, bob, charlie, media_root):
    own(alice, YXJQ_003=5, WJ_001=(1, 1))
    deck = make_deck(alice, name=SECRET)
    change = CollectionChange.objects.filter(user=alice).first()
    event = Event.objects.create(organiser=alice, name=SECRET, deadline=timezone.now() + timedelta(days=1))
    submission = Submission.objects.create(event=event, player_name="阿明", text="3 YXJQ-003\n武將: WJ-001\n")
    check = paired_round(event)
    match = Match.objects.filter(round__event=event, player_b__isnull=False).order_by("table").first()
    proposal = propose(alice, cost="3", note=SECRET)
    services.add_photo(proposal.pk, alice, "front", io.BytesIO(picture_bytes("PNG", (30, 40))))
    other = propose(bob, code="五道·002", cost="2")
    services.approve(other.pk, charlie)
    scan = Scan.objects.create(
        user=alice,
        status=Scan.Status.DONE,
        result={
            "cards": [{"card": "WJ-001", "confidence": 0.97, "box": [0, 0, 9, 9], "text": SECRET, "alternatives": []}]
        },
    )
    scan.image.save("scan.webp", ContentFile(picture_bytes("PNG", (60, 60))))
    reading = Scan.objects.create(
        user=alice,
        purpose=Scan.Purpose.PROPOSAL,
        card=Card.objects.get(code="五道·001"),
        status=Scan.Status.DONE,
        result={"facts": {"text": {"value": SECRET, "confidence": 0.95}}},
    )
    dora = get_user_model().objects.create_user("dora", "dora@example.org", PASSWORD)
    group = make_group(alice, dora, name="艾莉絲的牌友會")
    set_groups(deck, [group])
    game = log_game(group, alice, (Side("alice"), Side("dora")), "alice")
    house = create_format(group, alice, HOUSE_RULES | {"banned": ["酒"]})
    # alice's review of 劉備: hers to change or delete, others' to mark helpful or report
    review, _new = reviews.write(Card.objects.get(code="WJ-001"), alice, "好用的主將")
    ruling_proposal = services.propose_ruling(alice, Card.objects.get(code="YXJQ-003"), RULING | {"answer": SECRET})
    made = services.propose_ruling(bob, Card.objects.get(code="YXJQ-003"), RULING)
    services.approve(made.pk, charlie)
    bobs = Event.objects.create(organiser=bob, name="bob 的賽事", deadline=timezone.now() + timedelta(days=1))
    typed = Player.objects.create(event=bobs, name="艾莉絲")
    claim = claims.ask(bobs, typed.pk, "alice", bob)
    return {
        "claim": claim.pk,
        "ruling_proposal": ruling_proposal.pk,
        "ruling": CardChange.objects.get(ruling__isnull=False).ruling_id,
        "review": review.pk,
        "format": house.pk,
        **paper_sheet(event),
        "group": group.pk,
        "invite": group.invite,
        "game": game.pk,
        "reading": reading.pk,
        "scan": scan.pk,
        "proposal": proposal.pk,
        "cardchange": CardChange.objects.get(card__code="五道·002").pk,
        "deck": deck.pk,
        "change": change.pk,
        "event": event.pk,
        "submission": submission.pk,
        "token": event.token,
        "player": event.players.first().pk,
        "match": match.pk,
        "check": check,
    }


def call(client: Client, route: Route, world: dict[str, int]):
    url = route.url.format(**world)
    if route.json:
        data = {k: v.format(**world) if isinstance(v, str) else v for k, v in (route.data or {}).items()}
        return getattr(client, route.method)(url, json.dumps(data), content_type="application/json")
    if route.method == "get":
        return client.get(url)
    data = {k: v.format(**world) if isinstance(v, str) else v for k, v in (route.data or {}).items()}
    return getattr(client, route.method)(url, data)


@pytest.mark.parametrize(
    "route", ROUTES, ids=lambda r: f"{r.method} {r.url}{' confirmed' if r.data and r.data.get('confirm') else ''}"
)
def test_anonymous(route: Route, world, client: Client) -> None:
    response = call(client, route, world)
    assert response.status_code in route.anonymous, response.status_code
    if response.status_code == 302:
        assert response["Location"].startswith("/accounts/login/")
    body = response.content.decode("utf-8", "replace")
    assert SECRET not in (body.replace(SECRET, "", 2) if route.by_link else body)  # the title and the heading


@pytest.mark.parametrize(
    "route", ROUTES, ids=lambda r: f"{r.method} {r.url}{' confirmed' if r.data and r.data.get('confirm') else ''}"
)
def test_another_user(route: Route, world, bob_client: Client) -> None:
    response = call(bob_client, route, world)
    assert response.status_code in route.other, response.status_code
    body = response.content.decode("utf-8-sig", "replace")
    assert SECRET not in (body.replace(SECRET, "", 2) if route.by_link else body)  # the title and the heading
    if route.method == "get":
        # alice's cards never in bob's data (the deck filters' example of a general aside)
        data = body.replace('placeholder="WJ-001"', "")
        assert "WJ-001," not in data and '"WJ-001"' not in data


@pytest.mark.parametrize(
    "route", ROUTES, ids=lambda r: f"{r.method} {r.url}{' confirmed' if r.data and r.data.get('confirm') else ''}"
)
def test_the_owner(route: Route, world, alice_client: Client) -> None:
    response = call(alice_client, route, world)
    assert response.status_code == route.owner, (response.status_code, response.content[:300])


@pytest.mark.parametrize(
    "route",
    [r for r in ROUTES if r.member is not None],
    ids=lambda r: f"{r.method} {r.url}{' confirmed' if r.data and r.data.get('confirm') else ''}",
)
def test_a_member(route: Route, world) -> None:
    assert route.member is not None
    dora = get_user_model().objects.get(username="dora")
    response = call(logged_in(dora), route, world)
    assert response.status_code in route.member, (response.status_code, response.content[:300])
