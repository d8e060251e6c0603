"""Every page of the site, for the harnesses that walk them all (languages, layout and axe).
A new page joins one of these lists. Placeholders: {deck}, {event}, {check} (a deck check of it), {token} (the owner's),
{proposal} (the owner's, open), {review} (another player's, for the owner to review: the owner
is a curator), {scan} (the owner's photo of two cards, read), {reading} (the owner's photo of a card's face, read
for a proposal), {paper} (a paper list of the event, read, with a line to check), {group} (the
owner's play group, with a league), {invite} (its invite token), {format} (its house format),
{ruling} (a superseded ruling), {ruling_proposal} (a reader's ruling waiting for review)."""

from __future__ import annotations

from typing import Any

from tests.support.event_helpers import starting

# Pages anyone may read (a visitor).
PUBLIC = [
    "/",
    "/cards/",
    "/cards/?view=grid",
    "/cards/WJ-001/",
    "/cards/YXJQ-003/",
    "/cards/LSHJ-001/",
    "/cards/syntax/",
    "/rules/",
    "/cards/WJ-001/decks/",  # a general's page: its cards, its average deck, its decks
    "/rules/?q=調度",  # a search within the rules: the sections found, the words marked
    "/rulings/",
    "/rulings/?term=fast",
    "/rulings/{ruling}/",  # a ruling superseded by a later one (pages.talk)
    "/ratings/",  # this season's leaderboard (pages.talk rates the owner and the reader)
    "/sets/",
    "/sets/YXJQ/",
    "/check/",
    "/check/many/",
    "/decks/",
    "/decks/{deck}/",
    "/decks/{deck}/history/",
    "/d/{link}/",  # an unlisted deck, by its link (pages.talk makes it)
    "/u/{username}/",  # the owner's profile, with a follower
    "/decks/{deck}/sheet/",
    "/decks/{deck}/proxies/",
    "/decks/{deck}/odds/?card=YXJQ-003&k=2",
    "/decks/{deck}/sample/?seed=7&turn=2&aside=0",
    "/decks/compare/?a={deck}&b={deck}",
    "/t/{public}/",
    "/t/{public}/clock/",
    "/events/meta/",
    "/cards/incomplete/",
    "/changes/",
    "/cards/五道·002/history/",
    "/e/{token}/",  # a visitor on the event's link: the invitation to sign up or log in
    "/e/{listed_token}/",  # and on a listed event's: the invitation with its details
    "/events/",  # the directory: upcoming listed events and this month's calendar (pages.listed)
    "/events/?region=taiwan&city=台中",
    "/events/{listed}/",  # a listed event to a visitor: its details, places taken, "log in to register"
    "/events/decks/?card=新兵",  # the event decks that play 新兵 (pages.listed keeps one)
    "/events/decks/{event_deck}/",
    "/decks/?card=新兵",  # the deck search, with its link to the event decks
    "/groups/join/{invite}/",  # and on a group's invite link
    "/accounts/login/",
    "/accounts/signup/",
    "/accounts/password/reset/",
    "/accounts/password/reset/done/",
    "/accounts/password/reset/complete/",
]
# Pages of one user (read as their owner).
PRIVATE = [
    "/cards/?sort=name",  # the catalogue signed in: my counts on every row
    "/collection/",
    "/collection/?short=1",  # the cards built decks take that I do not own
    "/collection/completion/",
    "/collection/trade/",
    "/collection/history/",
    "/collection/import/",
    "/collection/scan/",
    "/collection/scan/{scan}/",
    "/collection/missing/YXJQ/",
    "/decks/mine/",
    "/decks/mine/?archived=1",
    "/decks/saved/",
    "/decks/{deck}/?comments=1",  # its comments, with what its owner may do to each
    "/cards/YXJQ-003/reviews/mine/",  # the owner's review of 新兵, to change
    "/moderation/",  # the owner is staff too (pages.talk)
    "/notifications/",  # a comment, a reply and a like of the owner's deck
    "/accounts/profile/",
    "/decks/shopping/?deck={deck}&wishlist=1",
    "/decks/archive/",
    "/decks/{deck}/build/",
    "/decks/import/",
    "/events/mine/",
    "/events/new/",
    "/events/{listed}/",  # a listed event the owner holds a place at
    "/e/{listed_token}/",  # its list link: the owner's place and the list to send
    "/events/{event}/",
    "/events/{event}/sheets/",
    "/events/{event}/paper/",
    "/events/{event}/paper/{paper}/",
    "/events/{event}/day/",
    "/events/{event}/day/deck-checks/{check}/",
    "/events/{event}/pairings/",
    "/accounts/",
    "/accounts/delete/",
    "/e/{token}/",
    "/cards/五道·001/propose/",
    "/cards/五道·001/propose/?scan={reading}",
    "/contributions/",
    "/contributions/{proposal}/",
    "/contributions/{proposal}/edit/",
    "/contributions/{review}/",
    "/contributions/{ruling_proposal}/",  # a reader's ruling, for the owner (a curator) to review
    "/cards/YXJQ-003/rulings/propose/",  # with the rulings it may supersede
    "/review/",
    "/events/claims/{claim}/",  # the reader's event asks the owner to confirm a typed-in player
    "/groups/",
    "/groups/{group}/",
    "/groups/join/{invite}/",
    "/groups/{group}/?season={season}",  # an earlier season of the league
    "/groups/{group}/?season=all",
    "/groups/{group}/formats/new/",
    "/groups/{group}/formats/{format}/",
]
# Print sheets are A4 pages, not screens: the layout test leaves them out.
PRINT_SHEETS = frozenset({"/decks/{deck}/sheet/", "/decks/{deck}/proxies/", "/events/{event}/sheets/"})


def paired_round(event: Any) -> int:
    """Give an event of the harnesses a tournament day to show: three players (one a late
    arrival), round 1 paired (so a bye too), one result in, a deck check (its id returned)."""
    from events import day, tools
    from tests.support.decklists import LEGAL_40

    for name in ("陳大文", "林美玲"):
        day.add_player(event, name, LEGAL_40)
    day.players_from_lists(event)
    event.players.update(checked_in=True, legal=True)
    round_ = day.pair_next_round(event)
    match = round_.matches.filter(player_b__isnull=False).first()
    day.enter_result(match, 2, 1, 0)
    return tools.deck_check(event, round_.number, 1, None).pk


def scanned(owner: Any) -> dict[str, int]:
    """A photo of two of the owner's cards, sent and read (tasks run at once in the tests)."""
    import io

    from collection import scans
    from tests.support.card_photos import card_face, spread

    photo = io.BytesIO(spread([card_face("YXJQ-004", "羽林內醫"), card_face("WJ-001", "劉備")], columns=2, seed=2))
    photo.name = "cards.jpg"
    from catalog.models import Card, Scan

    facts = {"text": {"value": "登場時，摸一張牌。", "confidence": 0.95}, "cost": {"value": "2", "confidence": 0.5}}
    reading = Scan.objects.create(
        user=owner, purpose="proposal", card=Card.objects.get(code="五道·001"), status="done", result={"facts": facts}
    )
    return {"scan": scans.start(owner, photo).pk, "reading": reading.pk}


def contributions(owner: Any) -> dict[str, int]:
    """The owner proposes a fact, is a curator, and has another player's proposal to review;
    a third, approved, gives a card a history."""
    from django.contrib.auth import get_user_model

    from contributions import services
    from tests.support.contribution_helpers import make_curator, propose

    make_curator(owner)
    mine = propose(owner, cost="3", text="登場時，摸一張牌。")
    player = get_user_model().objects.create_user("contributor", password="contributor-password-1")
    review = propose(player, code="五道·003", troop_class="騎兵", tier="銀", stars="2")
    approved = propose(player, code="五道·002", cost="2", note="我的卡，第二刷")
    services.approve(approved.pk, owner)
    return {"proposal": mine.pk, "review": review.pk}


def paper_sheet(event: Any) -> dict[str, int]:
    """A paper list of the event as read from a photo: one line sure, one to check."""
    from django.core.files.base import ContentFile

    from catalog.models import Scan
    from events.models import PaperList
    from tests.support.image_helpers import picture_bytes

    lines = [
        {
            "count": 3,
            "card": "YXJQ-003",
            "text": "新兵 YXJQ-003",
            "confidence": 0.99,
            "sure": True,
            "box": [0, 0, 50, 9],
        },
        {"count": 2, "card": None, "text": "貂蟬蟬", "confidence": 0.0, "sure": False, "box": [0, 10, 50, 19]},
    ]
    scan = Scan.objects.create(
        user=event.organiser,
        purpose=Scan.Purpose.SHEET,
        status=Scan.Status.DONE,
        result={"codes": [], "player": "陳大文", "lines": lines, "unmatched": []},
    )
    scan.image.save("sheet.webp", ContentFile(picture_bytes("PNG", (60, 40))))
    return {"paper": PaperList.objects.create(event=event, scan=scan, file_name="sheets.pdf", page=2).pk}


def play_group(owner: Any, deck: Any) -> dict[str, Any]:
    """The owner's play group with another member, `deck` shared with it, a confirmed game and
    one waiting for the owner to confirm."""
    from datetime import date, timedelta

    from django.contrib.auth import get_user_model

    from decks.services import set_groups
    from groups.services import create_format
    from league import services
    from tests.support.deck_helpers import make_deck
    from tests.support.group_helpers import make_group

    player = get_user_model().objects.create_user("teammate", password="teammate-password-1")
    group = make_group(owner, player, name="週五三國夜")
    set_groups(deck, [group])
    theirs = make_deck(player, name="魏國騎兵", general="WJ-002")
    set_groups(theirs, [group])
    sides = (services.Side(owner.username, deck.pk), services.Side(player.username, theirs.pk))
    services.confirm(services.log_game(group, owner, sides, owner.username), player)
    services.log_game(group, player, (sides[1], sides[0]), None)
    house = create_format(
        group,
        owner,
        {"name": "新手局", "min_cards": 30, "max_cards": 50, "copy_limit": 2, "banned": ["酒"], "sets": ["YXJQ"]},
    )
    # Two seasons of its league: one past, one now (the page shows the current one).
    today = date.today()
    past = services.add_season(group, owner, "去年秋季", date(today.year - 1, 9, 1), date(today.year - 1, 11, 30))
    services.add_season(group, owner, "本季", today - timedelta(days=10), today + timedelta(days=80))
    return {"group": group.pk, "invite": group.invite, "format": house.pk, "season": past.pk}


def talk(owner: Any, deck: Any) -> dict[str, Any]:
    """Comments on the owner's public deck: a reader's, with a card link, the owner's reply, a
    new account's comment with links waiting for approval, and a report; the owner is staff,
    so the moderation queue has something in each part. And an unlisted deck ({link}), a like, a
    follower and a profile ({username})."""
    from datetime import timedelta

    from django.contrib.auth import get_user_model
    from django.utils import timezone

    from decks import comments

    people = get_user_model().objects
    people.filter(pk=owner.pk).update(is_staff=True)
    owner.is_staff = True
    reader = people.create_user("commenter", password="commenter-password-1")
    people.filter(pk=reader.pk).update(date_joined=timezone.now() - timedelta(days=30))
    reader.refresh_from_db()
    said = comments.write(deck, reader, "這副牌的 [[新兵]] 用得好，**三張**剛好。")
    comments.write(deck, owner, "謝謝！試過兩張，不夠。", said.pk)
    newcomer = people.create_user("newcomer", password="newcomer-password-1")
    comments.write(deck, newcomer, "便宜卡 https://a.example https://b.example https://c.example")
    comments.report(said, newcomer, "廣告？")
    from tests.support.deck_helpers import make_deck

    unlisted = make_deck(owner, name="秘密武器", general="WJ-002")
    unlisted.visibility = "unlisted"
    unlisted.save()
    from decks import featured, likes
    from people import profiles

    featured.feature(deck, owner, True)
    likes.like(deck, reader)
    profiles.follow(reader, owner)
    profiles.update(owner, {"display_name": "蜀漢老玩家", "bio": "只玩步兵。\n週五晚上在台北。"})
    # Reviews of 新兵 (YXJQ-003): the reader's, which the owner found helpful, and the owner's.
    from catalog.models import Card
    from contributions import reviews

    recruit = Card.objects.get(code="YXJQ-003")
    review, _new = reviews.write(recruit, reader, "前期的好幫手，配 [[劉備]] 更好。")
    reviews.write(recruit, owner, "三張剛好。")
    reviews.mark_helpful(review, owner, True)
    # What the community plays: counted, so that card pages show their figures, and 劉備's page
    # its average deck (five public decks of his are needed).
    from decks.card_stats import compute

    for i in range(5):
        make_deck(owner, name=f"劉備流{i}", general="WJ-001", public=True)

    compute()
    # Rulings on 新兵: the reader's two, the later superseding the earlier, approved by the owner
    # (a curator); a third of the reader's waiting for review ({ruling_proposal}).
    from contributions import services as contributions

    draft = {
        "question": "對手回合時，快速錦囊可以打出嗎？",
        "answer": "不可以。",
        "source_kind": "official",
        "source": "官方FAQ 第一版",
        "url": "https://example.org/faq",
        "decided_on": "2025-06-01",
    }
    first = contributions.approve(contributions.propose_ruling(reader, recruit, draft).pk, owner)
    assert first.change is not None
    earlier = first.change.ruling_id
    later = contributions.propose_ruling(
        reader, recruit, draft | {"answer": "可以，第二版起。", "decided_on": "2026-02-01", "replaces": earlier}
    )
    contributions.approve(later.pk, owner)
    waiting = contributions.propose_ruling(reader, recruit, draft | {"source_kind": "judge", "source": "王裁判"})
    rate(owner, reader)
    claim = ask_owner(owner, reader)
    return {
        **listed(owner, reader),
        "link": unlisted.link_token,
        "username": owner.username,
        "ruling": earlier,
        "ruling_proposal": waiting.pk,
        "claim": claim,
    }


def rate(owner: Any, reader: Any) -> None:
    """A rated event of the owner against the reader, five rounds, and a third player's match:
    the leaderboard lists two players and one apart; the owner's profile shows a rating."""
    from datetime import date, timedelta

    from django.contrib.auth import get_user_model
    from django.utils import timezone

    from events import day, ratings
    from events.models import Event, Match, Player, Round

    event = Event.objects.create(
        organiser=owner,
        name="季度積分賽",
        deadline=timezone.now() + timedelta(days=1),
        starts_at=starting(date.today()),
        rated=True,
    )
    third = get_user_model().objects.create_user("rated-newcomer", password="rated-newcomer-password-1")
    a, b, c = (Player.objects.create(event=event, name=u.username, user=u) for u in (owner, reader, third))
    for number in range(1, 6):
        round_ = Round.objects.create(event=event, number=number, seed=1, ends=timezone.now())
        wins, losses = (2, 0) if number % 2 else (1, 2)
        day.enter_result(Match.objects.create(round=round_, table=1, player_a=a, player_b=b), wins, losses, 0)
        if number == 1:
            day.enter_result(Match.objects.create(round=round_, table=2, player_a=c, player_b=b), 0, 2, 0)
    ratings.recompute()


def listed(owner: Any, reader: Any) -> dict[str, Any]:
    """The reader's listed event in 台中 with two places: the owner holds one, a third player the
    other, a fourth waits ({listed}, and {listed_token} its list link)."""
    from datetime import timedelta

    from django.contrib.auth import get_user_model
    from django.utils import timezone

    from catalog.lookup import catalog_index
    from events import services
    from events.models import Event, EventDeck, EventDeckName

    event = Event.objects.create(
        organiser=reader,
        name="台中週末賽",
        deadline=timezone.now() + timedelta(days=4),
        starts_at=timezone.now() + timedelta(days=5),
        visibility="listed",
        venue="桌遊小館",
        address="台中市西區公益路 100 號",
        city="台中",
        region="taiwan",
        fee="NT$200",
        cap=2,
        contact="LINE: zongheng-tc",
    )
    users = get_user_model().objects
    services.register(event, owner)
    services.register(event, users.create_user("listed-second", password="listed-password-1"))
    services.register(event, users.create_user("listed-waiting", password="listed-password-1"))
    # A list placed at an earlier event of the reader's, kept as an event deck.
    earlier = Event.objects.create(organiser=reader, name="台中秋季賽", deadline=timezone.now(), lists_public="after")
    kept = EventDeck.objects.create(
        event=earlier,
        player_name="王小明",
        placing=1,
        players=8,
        general="WJ-001",
        format="standard",
        day=earlier.day,
        text="武將: 劉備\n3 新兵\n",
    )
    EventDeckName.objects.create(event_deck=kept, name_key=catalog_index().by_code["YXJQ-003"].name_key, copies=3)
    return {"listed": event.pk, "listed_token": event.token, "event_deck": kept.pk}


def ask_owner(owner: Any, reader: Any) -> int:
    """The reader's event asks the owner to confirm they are its typed-in player 蜀漢老將."""
    from datetime import timedelta

    from django.utils import timezone

    from events import claims
    from events.models import Event, Player

    event = Event.objects.create(organiser=reader, name="讀者盃", deadline=timezone.now() + timedelta(days=1))
    typed = Player.objects.create(event=event, name="蜀漢老將")
    return claims.ask(event, typed.pk, owner.username, reader).pk
