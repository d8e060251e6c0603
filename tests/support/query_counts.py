"""How many SQL queries each main page and endpoint costs with 10 and with 200 cards shown.

Shared by tests/site_wide/test_query_counts.py (which requires the two to be equal) and bench/queries.py
(which prints the report).
"""

from __future__ import annotations

import json
from datetime import date, timedelta
from typing import Any
from urllib.parse import quote

from django.contrib.auth import get_user_model
from django.core.cache import cache
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from catalog.images import pictures_for
from catalog.lookup import catalog_index
from catalog.models import Card, CardChange, Ruling, Scan
from collection.services import set_counts
from contributions.models import Helpful, Proposal, Review
from decks.card_stats import compute as compute_card_stats
from decks.data import DeckData
from decks.models import Deck, DeckBookmark, DeckComment
from decks.services import refresh_verdicts, save_deck
from events import claims, day, tools
from events.models import Event, EventDeck, EventDeckName, Match, PaperList, Player, Registration, Round, Submission
from events.ratings import recompute as recompute_ratings
from groups.models import MAX_FORMATS, Group, HouseFormat, Membership
from groups.services import create_group
from league.models import Game
from league.services import add_season
from people.models import Notification


def _client_of(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


def _count(client: Client, method: str, url: str, data: Any = None) -> int:
    cache.clear()  # measure the work, not a cached answer
    with CaptureQueriesContext(connection) as ctx:
        if method == "get":
            response = client.get(url)
        elif method == "json":
            response = client.post(url, json.dumps(data), content_type="application/json")
        else:
            response = client.post(url, data or {}, HTTP_HX_REQUEST="true")
    assert response.status_code in (200, 302), (url, response.status_code)
    return len(ctx.captured_queries)


def report() -> dict[str, dict[str, int]]:
    users = get_user_model().objects
    cards = list(Card.objects.order_by("position"))
    deck_cards = [c for c in cards if c.is_deck_card]
    setups: dict[int, dict[str, Any]] = {}
    for size in (10, 200):
        user = users.create_user(f"counter{size}", password="query-count-password-1")
        for card in cards[:size]:
            set_counts(user, card, quantity=2)
        chosen = (deck_cards * 2)[:size] if size > len(deck_cards) else deck_cards[:size]
        main = {c.code: 2 for c in chosen} if size <= len(deck_cards) else {c.code: 2 for c in cards[:size]}
        deck = save_deck(Deck(owner=user, public=True), DeckData(f"deck{size}", "standard", "WJ-001", main, {}))
        client = Client()
        client.force_login(user)
        text = "\n".join(f"1 {c.code}" for c in cards[:size])
        event = Event.objects.create(organiser=user, name=f"event{size}", deadline=timezone.now() + timedelta(days=1))
        Submission.objects.bulk_create([Submission(event=event, player_name=f"p{i}", text=text) for i in range(size)])
        for i in range(size - 1):  # `size` decks of the user's own, all public
            save_deck(Deck(owner=user, public=True), DeckData(f"deck{size}-{i}", "standard", "WJ-001", main, {}))
        # A tournament day of `size` players: two rounds paired, every result in.
        day.players_from_lists(event)
        event.players.update(checked_in=True, legal=True)
        for _round in range(2):
            for match in day.pair_next_round(event).matches.filter(player_b__isnull=False):
                day.enter_result(match, 2, 1, 0)
        # Contributions: `size` proposals of the user's (a curator's queue too), `size` changes of a card.
        user.is_staff = True
        user.save(update_fields=["is_staff"])
        Proposal.objects.bulk_create(
            [Proposal(card=cards[i % 20], author=user, facts={"cost": i}, note=f"n{i}") for i in range(size)]
        )
        CardChange.objects.bulk_create(
            [
                CardChange(card=cards[size], source="contribution", changes={"cost": [i, i + 1]}, proposer=user)
                for i in range(size)
            ]
        )
        # `size` reviews of one card, by as many writers, one found helpful by the user.
        reviewed = cards[-1 if size == 10 else -2]  # two cards alike, neither in anyone's collection
        writers = users.bulk_create([users.model(username=f"reviewer{size}-{i}") for i in range(size)])
        written = Review.objects.bulk_create(
            [Review(card=reviewed, author=w, body=f"r{i}", body_html=f"<p>r{i}</p>") for i, w in enumerate(writers)]
        )
        Helpful.objects.create(review=written[0], user=user)
        # `size` rulings on that card and the changed one, each replacing the one before, naming a
        # term, with their entries in the changed card's history; and `size` ruling proposals.
        made: list[Ruling] = []
        for i in range(size):
            ruling = Ruling.objects.create(
                question=f"快速 q{i}",
                answer=f"a{i}",
                source_kind="judge",
                source=f"s{i}",
                decided_on=date(2026, 1, 1) + timedelta(days=i),
                replaces=made[-1] if made else None,
                terms=" fast ",
                entered_by=user,
            )
            ruling.cards.set([reviewed, cards[size]])
            made.append(ruling)
        CardChange.objects.bulk_create(
            [
                CardChange(card=cards[size], source="contribution", changes={"ruling": [None, "in_force"]}, ruling=r)
                for r in made
            ]
        )
        Proposal.objects.bulk_create(
            [
                Proposal(
                    card=cards[i % 20], author=user, kind="ruling", ruling={"question": "q", "cards": []}, note="s"
                )
                for i in range(size)
            ]
        )
        # A rated event: the user against each of the `size` writers, one table each.
        rated = Event.objects.create(
            organiser=user, name=f"rated{size}", deadline=timezone.now() + timedelta(days=1), rated=True
        )
        me = Player.objects.create(event=rated, name=user.username, user=user)
        rivals = Player.objects.bulk_create([Player(event=rated, name=w.username, user=w) for w in writers])
        for number, rival in enumerate(rivals, start=1):
            played = Round.objects.create(event=rated, number=number, seed=1, ends=timezone.now())
            match = Match.objects.create(round=played, table=1, player_a=me, player_b=rival)
            day.enter_result(match, 2, number % 2, 0)
        # `size` listed events in this month and city, each with `size` registrations past a cap
        # of half of them: the directory, its calendar, the feeds, an event's page.
        listed = Event.objects.bulk_create(
            [
                Event(
                    organiser=user,
                    name=f"公開賽{size}-{i}",
                    deadline=timezone.now() + timedelta(hours=1),
                    starts_at=timezone.now() + timedelta(hours=2 + i),
                    visibility="listed",
                    city=f"city{size}",
                    region="taiwan",
                    cap=size // 2,
                    token=f"listed-{size}-{i}",
                    public_token=f"listed-public-{size}-{i}",
                )
                for i in range(size)
            ]
        )
        Registration.objects.bulk_create(
            [Registration(event=listed[0], user=w, waiting=i >= size // 2) for i, w in enumerate(writers)]
        )
        kept = EventDeck.objects.bulk_create(
            [
                EventDeck(
                    event=listed[i],
                    player_name=f"p{i}",
                    placing=1,
                    players=8,
                    general="WJ-001",
                    format="standard",
                    day=listed[i].day,
                    text=text,
                )
                for i in range(size)
            ]
        )
        EventDeckName.objects.bulk_create(
            [EventDeckName(event_deck=d, name_key=f"test-name-{size}", copies=3) for d in kept]
            + [EventDeckName(event_deck=d, name_key=reviewed.name_key, copies=3) for d in kept]
        )
        setups[size] = {
            "event_deck": kept[0],
            "listed": listed[0],
            "client": client,
            "user": user,
            "deck": deck,
            "list": text,
            "event": event,
            "changed": cards[size],
            "reviewed": reviewed,
            "ruling": made[len(made) // 2].pk,
            "reviewed_by": writers[0],
        }
    anonymous = Client()
    # What each process builds once per catalogue version (the card index, the picture index) is
    # built before measuring: the report counts what every request costs, not the first one.
    catalog_index()
    pictures_for(None)
    refresh_verdicts()  # decks check themselves once per catalogue version
    compute_card_stats()  # the card pages' figures of what the public decks play
    recompute_ratings()  # the rated events' matches, rated
    rows: dict[str, dict[str, int]] = {}

    def measure(name: str, make: Any) -> None:
        rows[name] = {str(size): make(size) for size in (10, 200)}

    measure("GET /cards/ (anonymous)", lambda n: _count(anonymous, "get", f"/cards/?per_page={n}"))
    measure(
        "GET /cards/ (logged in, with counts)", lambda n: _count(setups[n]["client"], "get", f"/cards/?per_page={n}")
    )
    measure("GET /cards/?view=grid", lambda n: _count(anonymous, "get", f"/cards/?per_page={n}&view=grid"))
    measure("GET /api/cards/", lambda n: _count(anonymous, "get", f"/api/cards/?page_size={n}"))
    measure("GET /api/cards/?q=", lambda n: _count(anonymous, "get", f"/api/cards/?page_size={n}&q=kind:troop"))
    measure(
        "GET /cards/<code>/ (n reviews, n rulings)",
        lambda n: _count(setups[n]["client"], "get", f"/cards/{setups[n]['reviewed'].code}/"),
    )
    measure(
        "GET /api/cards/<code>/rulings/",
        lambda n: _count(anonymous, "get", f"/api/cards/{setups[n]['reviewed'].code}/rulings/"),
    )
    measure("GET /rulings/", lambda n: _count(anonymous, "get", "/rulings/?page=" + ("1" if n == 10 else "2")))
    measure("GET /rulings/?term=", lambda n: _count(anonymous, "get", "/rulings/?term=fast"))
    measure("GET /rulings/<id>/", lambda n: _count(anonymous, "get", f"/rulings/{setups[n]['ruling']}/"))
    measure(
        "GET /api/cards/<code>/reviews/",
        lambda n: _count(setups[n]["client"], "get", f"/api/cards/{setups[n]['reviewed'].code}/reviews/"),
    )
    # A general's page: the newest of its public decks (each setup's n are all 劉備's).
    measure("GET /cards/<general>/decks/", lambda n: _count(setups[n]["client"], "get", "/cards/WJ-001/decks/"))
    measure(
        "GET /api/cards/<code>/stats/",
        lambda n: _count(anonymous, "get", f"/api/cards/{setups[n]['reviewed'].code}/stats/"),
    )
    # The rules are a data file: their page and answers read no table, whatever is searched (the
    # page reads one: how many rulings name each term).
    measure("GET /rules/", lambda n: _count(anonymous, "get", "/rules/?q=" + ("調度" if n == 10 else "部隊")))
    measure("GET /api/rules/", lambda n: _count(anonymous, "get", "/api/rules/"))
    measure("GET /api/terms/", lambda n: _count(anonymous, "get", "/api/terms/"))
    measure("GET /collection/", lambda n: _count(setups[n]["client"], "get", f"/collection/?per_page={n}"))
    measure("GET /api/collection/", lambda n: _count(setups[n]["client"], "get", f"/api/collection/?page_size={n}"))
    measure("GET /collection/completion/", lambda n: _count(setups[n]["client"], "get", "/collection/completion/"))
    measure("GET /collection/trade/", lambda n: _count(setups[n]["client"], "get", "/collection/trade/"))
    measure("GET /collection/export.csv", lambda n: _count(setups[n]["client"], "get", "/collection/export.csv"))
    measure("GET /decks/<id>/", lambda n: _count(setups[n]["client"], "get", f"/decks/{setups[n]['deck'].pk}/"))
    measure(
        "GET /decks/<id>/build/", lambda n: _count(setups[n]["client"], "get", f"/decks/{setups[n]['deck'].pk}/build/")
    )
    measure(
        "POST /decks/<id>/change/ (builder)",
        lambda n: _count(
            setups[n]["client"], "post", f"/decks/{setups[n]['deck'].pk}/change/", {"action": "inc", "card": "YXJQ-003"}
        ),
    )
    measure(
        "POST /decks/<id>/paste/ (builder)",
        lambda n: _count(setups[n]["client"], "post", f"/decks/{setups[n]['deck'].pk}/paste/", {"text": "1 新兵"}),
    )
    for n in (10, 200):  # a read photo of n cards (a spread, many times over)
        found = [{"card": "YXJQ-003", "confidence": 0.9, "box": [0, 0, 1, 1], "text": "", "alternatives": []}] * n
        setups[n]["scan"] = Scan.objects.create(user=setups[n]["user"], status="done", result={"cards": found}).pk
    measure("GET /api/scans/<id>/", lambda n: _count(setups[n]["client"], "get", f"/api/scans/{setups[n]['scan']}/"))
    measure(
        "GET /collection/scan/<id>/ (a photo's cards to check)",
        lambda n: _count(setups[n]["client"], "get", f"/collection/scan/{setups[n]['scan']}/"),
    )
    measure("GET /collection/scan/", lambda n: _count(setups[n]["client"], "get", "/collection/scan/"))
    measure("GET /collection/?short=1", lambda n: _count(setups[n]["client"], "get", "/collection/?short=1"))
    measure(
        "GET /decks/<id>/image.png",
        lambda n: _count(setups[n]["client"], "get", f"/decks/{setups[n]['deck'].pk}/image.png"),
    )
    measure(
        "GET /decks/<id>/proxies/",
        lambda n: _count(setups[n]["client"], "get", f"/decks/{setups[n]['deck'].pk}/proxies/"),
    )
    measure(
        "GET /decks/<id>/sheet/", lambda n: _count(setups[n]["client"], "get", f"/decks/{setups[n]['deck'].pk}/sheet/")
    )
    measure("GET /api/decks/<id>/", lambda n: _count(setups[n]["client"], "get", f"/api/decks/{setups[n]['deck'].pk}/"))
    measure(
        "GET /api/decks/<id>/legality/",
        lambda n: _count(setups[n]["client"], "get", f"/api/decks/{setups[n]['deck'].pk}/legality/"),
    )
    # Lists of decks: 10 and 200 decks shown (each deck with its entries and general).
    measure("GET /decks/ (public)", lambda n: _count(anonymous, "get", f"/decks/?per_page={n}"))
    measure("GET /decks/mine/", lambda n: _count(setups[n]["client"], "get", "/decks/mine/"))
    # The decks kept for later: each of the user's `n` decks kept, listed a page at a time.
    for size in (10, 200):
        DeckBookmark.objects.bulk_create(
            [DeckBookmark(deck=d, user=setups[size]["user"]) for d in Deck.objects.filter(owner=setups[size]["user"])],
            ignore_conflicts=True,
        )
    measure("GET /decks/saved/", lambda n: _count(setups[n]["client"], "get", f"/decks/saved/?per_page={n}"))
    measure(
        "GET /api/decks/?saved=1", lambda n: _count(setups[n]["client"], "get", f"/api/decks/?saved=1&page_size={n}")
    )
    # A public deck's comments: n comments, every other one a reply, on the page and in the API.
    for size in (10, 200):
        user, deck = setups[size]["user"], setups[size]["deck"]
        tops = DeckComment.objects.bulk_create(
            [DeckComment(deck=deck, author=user, body=f"{i}", body_html=f"<p>{i}</p>") for i in range(size // 2)]
        )
        DeckComment.objects.bulk_create(
            [DeckComment(deck=deck, author=user, parent=t, body="r", body_html="<p>r</p>") for t in tops]
        )
        Deck.objects.filter(pk=deck.pk).update(comment_count=size)
    measure(
        "GET /decks/<id>/ (n comments)",
        lambda n: _count(setups[n]["client"], "get", f"/decks/{setups[n]['deck'].pk}/"),
    )
    for size in (10, 200):
        Deck.objects.filter(pk=setups[size]["deck"].pk).update(visibility="unlisted", link_token=f"link{size}")
    measure("GET /d/<token>/ (unlisted)", lambda n: _count(anonymous, "get", f"/d/link{n}/"))
    for size in (10, 200):
        Deck.objects.filter(pk=setups[size]["deck"].pk).update(visibility="public")
    measure(
        "GET /api/decks/<id>/comments/",
        lambda n: _count(setups[n]["client"], "get", f"/api/decks/{setups[n]['deck'].pk}/comments/"),
    )
    measure("GET / (the home page's decks)", lambda n: _count(anonymous, "get", "/"))
    # A builder's profile with n public decks, and n notifications in the bell.
    for size in (10, 200):
        user = setups[size]["user"]
        Notification.objects.bulk_create(
            [Notification(recipient=user, kind="like", subject=f"deck{i}", url=f"/decks/{i}/") for i in range(size)]
        )
    measure("GET /u/<username>/", lambda n: _count(anonymous, "get", f"/u/{setups[n]['user'].username}/"))
    measure("GET /ratings/", lambda n: _count(anonymous, "get", "/ratings/"))
    measure("GET /events/ (the directory)", lambda n: _count(anonymous, "get", f"/events/?city=city{n}"))
    measure(
        "GET /events/<id>/ (listed, a visitor)",
        lambda n: _count(anonymous, "get", f"/events/{setups[n]['listed'].pk}/"),
    )
    measure(
        "GET /events/<id>/ (listed, registered)",
        lambda n: _count(_client_of(setups[n]["reviewed_by"]), "get", f"/events/{setups[n]['listed'].pk}/"),
    )
    measure("GET /api/events/?listed=1", lambda n: _count(anonymous, "get", f"/api/events/?listed=1&city=city{n}"))
    measure(
        "GET /api/events/<id>/ (listed)", lambda n: _count(anonymous, "get", f"/api/events/{setups[n]['listed'].pk}/")
    )
    measure(
        "GET /events/calendar.ics",
        lambda n: _count(anonymous, "get", f"/events/calendar.ics?organiser={setups[n]['user'].username}"),
    )
    measure("GET /events/feed/", lambda n: _count(anonymous, "get", "/events/feed/"))
    measure(
        "GET /events/decks/?card=",
        lambda n: _count(anonymous, "get", f"/events/decks/?card={setups[n]['reviewed'].code}"),
    )
    measure(
        "GET /events/decks/<id>/", lambda n: _count(anonymous, "get", f"/events/decks/{setups[n]['event_deck'].pk}/")
    )
    measure("GET /events/mine/", lambda n: _count(setups[n]["client"], "get", "/events/mine/"))
    measure(
        "GET /api/users/<name>/events/",
        lambda n: _count(anonymous, "get", f"/api/users/{setups[n]['user'].username}/events/"),
    )
    for n in (10, 200):  # a writer's event asks the user to confirm they are its typed-in player
        asker = setups[n]["reviewed_by"]
        asked = Event.objects.create(organiser=asker, name=f"ask{n}", deadline=timezone.now() + timedelta(days=1))
        typed = Player.objects.create(event=asked, name=f"typed{n}")
        setups[n]["claim"] = claims.ask(asked, typed.pk, setups[n]["user"].username, asker).pk
    measure(
        "GET /events/claims/<id>/",
        lambda n: _count(setups[n]["client"], "get", f"/events/claims/{setups[n]['claim']}/"),
    )
    measure("GET /api/ratings/", lambda n: _count(anonymous, "get", "/api/ratings/"))
    measure(
        "GET /api/users/<username>/", lambda n: _count(anonymous, "get", f"/api/users/{setups[n]['user'].username}/")
    )
    measure("GET /notifications/", lambda n: _count(setups[n]["client"], "get", "/notifications/"))
    measure("GET /api/notifications/", lambda n: _count(setups[n]["client"], "get", "/api/notifications/"))
    # Decks found by their cards: two required (one with a count), one left out, and the query.
    by_cards = "card=新兵&card=YXJQ-004:2&without=火攻&q=" + quote("has:xinbing -has:酒 updated>2020-01-01")
    measure("GET /decks/?card=&without=&q=", lambda n: _count(anonymous, "get", f"/decks/?per_page={n}&{by_cards}"))
    measure(
        "GET /api/decks/?public=1&card=&without=&q=",
        lambda n: _count(anonymous, "get", f"/api/decks/?public=1&page_size={n}&{by_cards}"),
    )
    measure("GET /api/decks/?public=1", lambda n: _count(anonymous, "get", f"/api/decks/?public=1&page_size={n}"))
    measure("GET /api/decks/ (mine)", lambda n: _count(setups[n]["client"], "get", f"/api/decks/?page_size={n}"))
    # What the reader can build: n public decks compared with the reader's collection.
    measure(
        "GET /decks/?buildable=1&sort=missing",
        lambda n: _count(setups[n]["client"], "get", f"/decks/?per_page={n}&sort=missing&buildable=1"),
    )
    measure(
        "GET /api/decks/?public=1&sort=-owned_share",
        lambda n: _count(setups[n]["client"], "get", f"/api/decks/?public=1&page_size={n}&sort=-owned_share"),
    )
    measure(
        "GET /decks/shopping/ (all my decks)",
        lambda n: _count(
            setups[n]["client"],
            "get",
            "/decks/shopping/?wishlist=1&"
            + "&".join(f"deck={d.pk}" for d in Deck.objects.filter(owner=setups[n]["deck"].owner)[:50]),
        ),
    )
    # What to buy next: every other reader's public decks compared with the reader's collection.
    measure("GET /api/decks/close/", lambda n: _count(setups[n]["client"], "get", "/api/decks/close/?missing=3"))
    for page in ("odds/?card=YXJQ-003&k=2", "odds/?q=kind:troop", "sample/?seed=3&turn=6&aside=1"):
        measure(
            f"GET /decks/<id>/{page}",
            lambda n, page=page: _count(setups[n]["client"], "get", f"/decks/{setups[n]['deck'].pk}/{page}"),
        )
    measure(
        "GET /api/decks/<id>/odds/",
        lambda n: _count(setups[n]["client"], "get", f"/api/decks/{setups[n]['deck'].pk}/odds/?card=YXJQ-003"),
    )
    measure(
        "GET /decks/compare/",
        lambda n: _count(
            setups[n]["client"], "get", f"/decks/compare/?a={setups[n]['deck'].pk}&b={setups[n]['deck'].pk}"
        ),
    )
    measure(
        "GET /decks/archive/everything.zip",
        lambda n: _count(setups[n]["client"], "get", "/decks/archive/everything.zip"),
    )
    measure("POST /api/legality/", lambda n: _count(anonymous, "json", "/api/legality/", {"list": setups[n]["list"]}))
    for page in ("", "sheets/", "export.csv"):  # n lists of n cards each
        measure(
            f"GET /events/<id>/{page}",
            lambda n, page=page: _count(setups[n]["client"], "get", f"/events/{setups[n]['event'].pk}/{page}"),
        )
    for n in (10, 200):  # a deck check of 5 tables (their players' lists of n cards)
        setups[n]["check"] = tools.deck_check(setups[n]["event"], 2, 5, None).pk
    measure(
        "GET /events/<id>/day/deck-checks/<id>/",
        lambda n: _count(
            setups[n]["client"], "get", f"/events/{setups[n]['event'].pk}/day/deck-checks/{setups[n]['check']}/"
        ),
    )
    for n in (10, 200):  # an event before round 1: n players, half checked in
        early = Event.objects.create(organiser=setups[n]["user"], name=f"early{n}", deadline=timezone.now())
        Submission.objects.bulk_create([Submission(event=early, player_name=f"e{i}", text="x") for i in range(n)])
        day.players_from_lists(early)
        early.players.filter(pk__in=early.players.values_list("pk", flat=True)[: n // 2]).update(checked_in=True)
        setups[n]["early"] = early
    measure(
        "GET /events/<id>/day/ (before round 1)",
        lambda n: _count(setups[n]["client"], "get", f"/events/{setups[n]['early'].pk}/day/"),
    )
    measure(
        "POST /events/<id>/day/check-in/ (before round 1)",
        lambda n: _count(setups[n]["client"], "post", f"/events/{setups[n]['early'].pk}/day/check-in/"),
    )
    for page in ("day/", "pairings/", "standings.csv"):  # n players, two rounds played
        measure(
            f"GET /events/<id>/{page}",
            lambda n, page=page: _count(setups[n]["client"], "get", f"/events/{setups[n]['event'].pk}/{page}"),
        )
    for page in ("", "clock/", "image.png"):
        measure(
            f"GET /t/<token>/{page} (the venue's pages)",
            lambda n, page=page: _count(anonymous, "get", f"/t/{setups[n]['event'].public_token}/{page}"),
        )
    for n in (10, 200):  # n paper lists of the event, half added; one of them of n lines, each to check
        event, user = setups[n]["event"], setups[n]["user"]
        lines = [{"count": 2, "card": None, "text": "貂蟬", "confidence": 0.0, "box": [0, 0, 9, 9]}] * n
        for i in range(n):
            scan = Scan.objects.create(user=user, purpose="sheet", status="done", result={"lines": lines, "codes": []})
            submission = event.submissions.all()[i] if i % 2 else None
            made = PaperList.objects.create(event=event, scan=scan, submission=submission)
            setups[n].setdefault("paper", made.pk)  # the first: not added yet, its lines shown
    measure(
        "GET /events/<id>/paper/ (n sheets)",
        lambda n: _count(setups[n]["client"], "get", f"/events/{setups[n]['event'].pk}/paper/"),
    )
    measure(
        "GET /events/<id>/paper/<id>/ (a sheet of n lines)",
        lambda n: _count(setups[n]["client"], "get", f"/events/{setups[n]['event'].pk}/paper/{setups[n]['paper']}/"),
    )
    for n in (10, 200):  # a warning for each of n players: the penalty log grows with the event
        event = setups[n]["event"]
        for player_id in event.players.values_list("pk", flat=True)[:n]:
            tools.give_penalty(event, player_id, "warning", "late to the table", event.organiser)
    for page in ("standings/", "rounds/", "players/", "export/", "penalties/"):
        measure(
            f"GET /api/events/<id>/{page}",
            lambda n, page=page: _count(setups[n]["client"], "get", f"/api/events/{setups[n]['event'].pk}/{page}"),
        )
    measure(
        "POST /check/",
        lambda n: _count(anonymous, "post", "/check/", {"list": setups[n]["list"], "format": "standard"}),
    )
    for page in ("/contributions/", "/review/", "/api/proposals/", "/changes/", "/changes/feed/", "/cards/incomplete/"):
        measure(f"GET {page}", lambda n, page=page: _count(setups[n]["client"], "get", page))
    for page in ("/cards/{}/history/", "/api/cards/{}/history/"):
        measure(
            f"GET {page.format('<code>')}",
            lambda n, page=page: _count(anonymous, "get", page.format(setups[n]["changed"].code)),
        )
    for n in (10, 200):  # a play group of n members, n decks shared with it, n confirmed games
        setups[n]["group"] = _play_group(setups[n]["user"], n)
    for page in ("/groups/{}/", "/groups/", "/api/groups/{}/", "/api/groups/{}/members/", "/api/groups/{}/decks/"):
        measure(
            f"GET {page.format('<id>')}",
            lambda n, page=page: _count(setups[n]["client"], "get", page.format(setups[n]["group"].pk)),
        )
    for n in (10, 200):  # the current season of the group's league, holding its games
        setups[n]["season"] = add_season(
            setups[n]["group"], setups[n]["user"], "本季", date.today() - timedelta(days=30), date.today()
        ).pk
    measure(
        "GET /groups/<id>/?season=<id>",
        lambda n: _count(setups[n]["client"], "get", f"/groups/{setups[n]['group'].pk}/?season={setups[n]['season']}"),
    )
    for page in (
        "/api/groups/{}/games/",
        "/api/groups/{}/league/",
        "/api/groups/{}/formats/",
        "/api/groups/{}/seasons/",
    ):
        measure(
            f"GET {page.format('<id>')}",
            lambda n, page=page: _count(setups[n]["client"], "get", page.format(setups[n]["group"].pk)),
        )
    measure(  # the owner's decks, each in one of the group's house formats: their names in one query
        "GET /decks/mine/ (house formats)",
        lambda n: _count(setups[n]["client"], "get", "/decks/mine/"),
    )
    measure(
        "GET /groups/<id>/formats/<id>/",
        lambda n: _count(setups[n]["client"], "get", f"/groups/{setups[n]['group'].pk}/formats/{_a_format(n)}/"),
    )
    return rows


def _a_format(n: int) -> int:
    return HouseFormat.objects.filter(group__name=f"group{n}").values_list("pk", flat=True).first() or 0


def _play_group(owner: Any, size: int) -> Group:
    """`owner`'s group of `size` members: each of the owner's decks shared with it, and `size`
    confirmed games between the owner and each member in turn, with the owner's decks."""
    group = create_group(owner, f"group{size}")
    members = get_user_model().objects.bulk_create(
        [get_user_model()(username=f"member{size}-{i}") for i in range(size - 1)]
    )
    Membership.objects.bulk_create([Membership(group=group, user=m) for m in members])
    decks = list(Deck.objects.filter(owner=owner).select_related("general")[:size])
    Deck.groups.through.objects.bulk_create([Deck.groups.through(deck=d, group=group) for d in decks])
    now = timezone.now()
    Game.objects.bulk_create(
        [
            Game(
                group=group,
                player_a=owner,
                player_b=members[i % len(members)],
                deck_a=decks[i % len(decks)],
                general_a=decks[i % len(decks)].general,
                result=("a", "b", "draw")[i % 3],
                confirmed=now,
            )
            for i in range(size)
        ]
    )
    # House formats (as many as a group may keep, at most), and the owner's decks in them.
    houses = HouseFormat.objects.bulk_create(
        [
            HouseFormat(group=group, slug=f"f{i}", name=f"家規{i}", min_cards=30, max_cards=50, copy_limit=2)
            for i in range(min(size, MAX_FORMATS))
        ]
    )
    for i, deck in enumerate(decks):
        deck.format = houses[i % len(houses)].key
    Deck.objects.bulk_update(decks, ["format"])
    return group
