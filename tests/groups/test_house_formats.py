"""A play group's house formats: defined by its owner as data, checked by rules_check exactly like
the official formats, chosen by its members in the checker, the builder, deck saves and checkdeck."""

from __future__ import annotations

import io
import json

import pytest
from django.core.management import call_command

from decks.legality import RequestedEntry, check_structured
from decks.models import Deck
from groups import formats
from groups.models import MAX_FORMATS, HouseFormat
from rules_check import FORMATS
from tests.conftest import logged_in
from tests.support.deck_helpers import LEGAL_MAIN, make_deck
from tests.support.group_helpers import make_group

pytestmark = pytest.mark.django_db

STANDARD_RULES = {"name": "家庭標準", "min_cards": 40, "max_cards": 60, "copy_limit": 3}


def _post(client, url: str, data: dict):
    return client.post(url, json.dumps(data), content_type="application/json")


def _patch(client, url: str, data: dict):
    return client.patch(url, json.dumps(data), content_type="application/json")


def _house(alice, bob, **rules) -> tuple[HouseFormat, object]:
    group = make_group(alice, bob)
    answer = _post(logged_in(alice), f"/api/groups/{group.pk}/formats/", STANDARD_RULES | rules)
    assert answer.status_code == 201, answer.content
    return HouseFormat.objects.get(pk=answer.json()["id"]), group


def _codes(verdict) -> list[str]:
    return [p.code for p in verdict.problems]


def _entries(counts: dict[str, int]) -> list[RequestedEntry]:
    return [RequestedEntry(code, n) for code, n in counts.items()]


def test_the_owner_adds_a_format_and_gets_its_key(alice, bob) -> None:
    group = make_group(alice, bob)
    answer = _post(logged_in(alice), f"/api/groups/{group.pk}/formats/", STANDARD_RULES | {"banned": ["酒"]})
    assert answer.status_code == 201
    body = answer.json()
    assert set(body) >= {"id", "key"}
    assert body["key"] == f"g{group.pk}-jiatingbiaozhun"[:20] and len(body["key"]) <= 20
    assert body["banned"] == ["YXJQ-002"] or body["banned"] == ["酒"]
    listed = logged_in(bob).get(f"/api/groups/{group.pk}/formats/").json()
    assert [f["key"] for f in listed] == [body["key"]]


def test_only_the_owner_writes_a_format_and_a_stranger_sees_no_group(alice, bob, charlie) -> None:
    house, group = _house(alice, bob)
    url, detail = f"/api/groups/{group.pk}/formats/", f"/api/groups/{group.pk}/formats/{house.pk}/"
    assert _post(logged_in(bob), url, STANDARD_RULES).status_code == 403
    assert _patch(logged_in(bob), detail, {"copy_limit": 1}).status_code == 403
    assert logged_in(bob).delete(detail).status_code == 403
    for answer in (
        logged_in(charlie).get(url),
        _post(logged_in(charlie), url, STANDARD_RULES),
        logged_in(charlie).get(detail),
    ):
        assert answer.status_code == 404
    house.refresh_from_db()
    assert house.copy_limit == 3


@pytest.mark.parametrize(
    ("rules", "field"),
    [
        ({"min_cards": 61}, "min_cards"),  # above max_cards
        ({"max_cards": 10**12}, "max_cards"),
        ({"copy_limit": -1}, "copy_limit"),
        ({"copy_limit": "三"}, "copy_limit"),
        ({"copy_limits": {"沒有這張牌": 1}}, "copy_limits"),
        ({"copy_limits": {"新兵": 100}}, "copy_limits"),
        ({"copy_limits": ["新兵"]}, "copy_limits"),
        ({"banned": "酒"}, "banned"),
        ({"banned": ["\x00"]}, "banned"),
        ({"sets": ["XXXX"]}, "sets"),
        ({"name": ""}, "name"),
        ({"name": "名" * 41}, "name"),
    ],
)
def test_bad_rules_are_a_400_naming_the_field_and_nothing_is_stored(alice, bob, rules, field) -> None:
    group = make_group(alice, bob)
    answer = _post(logged_in(alice), f"/api/groups/{group.pk}/formats/", STANDARD_RULES | rules)
    assert answer.status_code == 400, answer.content
    assert any(key.startswith(field) for key in answer.json()), answer.json()
    assert not HouseFormat.objects.filter(group=group).exists()


def test_a_group_keeps_at_most_so_many_formats(alice, bob) -> None:
    group = make_group(alice, bob)
    client = logged_in(alice)
    for _ in range(MAX_FORMATS):
        assert _post(client, f"/api/groups/{group.pk}/formats/", STANDARD_RULES).status_code == 201
    assert _post(client, f"/api/groups/{group.pk}/formats/", STANDARD_RULES).status_code == 400
    keys = list(HouseFormat.objects.filter(group=group).values_list("slug", flat=True))
    assert len(keys) == len(set(keys)) == MAX_FORMATS  # one name, every key its own


# The official format's cases, each checked in the standard format and in a house format with the
# same rules: the same problems, by the one checker.
CASES = {
    "39 cards": ({k: v for k, v in LEGAL_MAIN.items() if k != "YXJQ-001"} | {"YXJQ-003": 2}, "WJ-001", {}),
    "40 cards": (LEGAL_MAIN, "WJ-001", {}),
    "61 cards": (
        LEGAL_MAIN
        | {"YXJQ-010": 3, "YXJQ-011": 3, "YXJQ-002": 3, "YXJQ-018": 3, "LSHJ-001": 3, "LSHJ-002": 3, "LSHJ-003": 3},
        "WJ-001",
        {},
    ),
    "4 copies": (LEGAL_MAIN | {"YXJQ-003": 4}, "WJ-001", {}),
    "a reinforcement in the deck": (LEGAL_MAIN | {"YJ-001": 1}, "WJ-001", {}),
    "a general in the deck": (LEGAL_MAIN | {"WJ-002": 1}, "WJ-001", {}),
    "no general": (LEGAL_MAIN, None, {}),
    "a troop as the general": (LEGAL_MAIN, "YXJQ-003", {}),
    "not a reinforcement": (LEGAL_MAIN, "WJ-001", {"YXJQ-018": 1}),
    "a count of 0": (LEGAL_MAIN | {"YXJQ-018": 0}, "WJ-001", {}),
}


@pytest.mark.parametrize("case", list(CASES))
def test_a_house_format_with_the_standard_rules_judges_every_case_as_standard(alice, bob, case) -> None:
    house, _group = _house(alice, bob)
    main, general, reinforcements = CASES[case]
    official = check_structured(general, _entries(main), _entries(reinforcements), "standard")
    own = check_structured(general, _entries(main), _entries(reinforcements), house.key)
    assert _codes(own) == _codes(official)
    assert own.legal is official.legal and own.format == house.key


def test_a_house_format_bans_limits_and_allows_only_some_sets(alice, bob) -> None:
    house, _group = _house(alice, bob, min_cards=30, banned=["酒", "WJ-002"], copy_limits={"新兵": 1}, sets=["YXJQ"])
    deck = LEGAL_MAIN | {"YXJQ-003": 1}
    assert check_structured("WJ-001", _entries(deck), [], house.key).legal
    assert _codes(check_structured("WJ-001", _entries(deck | {"YXJQ-003": 2}), [], house.key)) == ["too_many_copies"]
    assert _codes(check_structured("WJ-002", _entries(deck), [], house.key)) == ["banned_card"]
    assert _codes(check_structured("WJ-001", _entries(deck | {"LSHJ-001": 1}), [], house.key)) == ["set_not_allowed"]
    assert _codes(check_structured("WJ-010", _entries(deck), [], house.key)) == ["set_not_allowed"]  # LSHJ's general


def test_members_check_and_save_in_the_key_and_others_get_a_400(alice, bob, charlie) -> None:
    house, _group = _house(alice, bob, copy_limits={"新兵": 1})
    body = {"format": house.key, "general": "WJ-001", "cards": [{"card": c, "count": n} for c, n in LEGAL_MAIN.items()]}
    answer = _post(logged_in(bob), "/api/legality/", body)
    assert answer.status_code == 200, answer.content
    assert answer.json()["format"] == house.key and not answer.json()["legal"]  # 3 新兵, limit 1
    assert _post(logged_in(charlie), "/api/legality/", body).status_code == 400
    assert _post(logged_in(bob), "/api/legality/", body | {"format": "g999999-nothing"}).status_code == 400

    saved = _post(logged_in(bob), "/api/decks/", body | {"name": "家庭"})
    assert saved.status_code == 201, saved.content
    deck = Deck.objects.get(pk=saved.json()["id"])
    assert deck.format == house.key and deck.is_legal is False
    assert _post(logged_in(charlie), "/api/decks/", body | {"name": "家庭"}).status_code == 400
    mine = make_deck(charlie)
    assert _patch(logged_in(charlie), f"/api/decks/{mine.pk}/", {"format": house.key}).status_code == 400
    mine.refresh_from_db()
    assert mine.format == "standard"


def test_checkdeck_takes_the_key(alice, bob, tmp_path) -> None:
    house, _group = _house(alice, bob, copy_limits={"新兵": 1})
    path = tmp_path / "deck.txt"
    path.write_text("武將: 劉備\n" + "\n".join(f"{n} {c}" for c, n in LEGAL_MAIN.items()), encoding="utf-8")
    out = io.StringIO()
    with pytest.raises(SystemExit) as exit_code:
        call_command("checkdeck", str(path), "--format", house.key, "--json", stdout=out)
    assert exit_code.value.code == 1
    assert json.loads(out.getvalue())["problems"][0]["code"] == "too_many_copies"
    out = io.StringIO()
    call_command("checkdeck", str(path), "--json", stdout=out)  # standard: legal
    assert json.loads(out.getvalue())["legal"] is True


def test_an_edit_rechecks_the_kept_verdicts_and_a_deletion_moves_decks_to_standard(
    alice, bob, django_capture_on_commit_callbacks
) -> None:
    house, group = _house(alice, bob)
    deck = make_deck(bob, fmt=house.key)
    other = make_deck(bob)
    assert deck.is_legal
    url = f"/api/groups/{group.pk}/formats/{house.pk}/"
    with django_capture_on_commit_callbacks(execute=True):
        answer = _patch(logged_in(alice), url, {"copy_limit": 2})
    assert answer.status_code == 200 and answer.json()["key"] == house.key
    deck.refresh_from_db()
    assert deck.is_legal is False  # 3 copies of each troop, now over the limit of 2
    assert Deck.objects.filter(visibility="private", is_legal=False).count() == 1  # the other deck kept its own
    with django_capture_on_commit_callbacks(execute=True):
        assert logged_in(alice).delete(url).status_code == 204
    deck.refresh_from_db()
    other.refresh_from_db()
    assert deck.format == "standard" and deck.is_legal is True and other.format == "standard"


def test_a_deleted_group_leaves_no_deck_in_a_format_that_is_gone(
    alice, bob, django_capture_on_commit_callbacks
) -> None:
    house, group = _house(alice, bob)
    deck = make_deck(bob, fmt=house.key)
    with django_capture_on_commit_callbacks(execute=True):
        assert logged_in(alice).delete(f"/api/groups/{group.pk}/").status_code == 204
    deck.refresh_from_db()
    assert deck.format == "standard"
    assert logged_in(bob).get(f"/decks/{deck.pk}/").status_code == 200


def test_the_builder_offers_my_groups_formats_under_the_groups_name(alice, bob, charlie) -> None:
    house, group = _house(alice, bob)
    deck = make_deck(bob)
    page = logged_in(bob).get(f"/decks/{deck.pk}/build/").content.decode()
    assert f'<optgroup label="{group.name}">' in page and f'value="{house.key}"' in page
    assert house.key not in logged_in(charlie).get("/check/").content.decode()
    settings = {"name": deck.name, "format": house.key, "description": "", "tags": ""}
    assert logged_in(bob).post(f"/decks/{deck.pk}/build/", settings).status_code == 302
    deck.refresh_from_db()
    assert deck.format == house.key and deck.format_label == house.name
    # Leaving the group, bob keeps the deck in it: still a choice in his builder.
    logged_in(bob).delete(f"/api/groups/{group.pk}/members/bob/")
    assert f'value="{house.key}"' in logged_in(bob).get(f"/decks/{deck.pk}/build/").content.decode()
    assert formats.may_use(bob, house.key) is False


def test_the_checker_page_checks_in_a_house_format(alice, bob) -> None:
    house, _group = _house(alice, bob, copy_limits={"新兵": 1})
    text = "武將: 劉備\n" + "\n".join(f"{n} {c}" for c, n in LEGAL_MAIN.items())
    page = logged_in(bob).post("/check/", {"list": text, "format": house.key})
    assert page.status_code == 200
    assert "too_many_copies" in page.content.decode() or "新兵" in page.content.decode()
    assert logged_in(alice).post("/check/", {"list": text, "format": "standard"}).status_code == 200
    assert set(FORMATS) <= set(formats.available(bob)) and house.key in formats.available(bob)


def test_the_pages_add_show_change_and_delete_a_format(alice, bob, charlie, django_capture_on_commit_callbacks) -> None:
    group = make_group(alice, bob)
    owner, member = logged_in(alice), logged_in(bob)
    assert owner.get(f"/groups/{group.pk}/formats/new/").status_code == 200
    assert member.get(f"/groups/{group.pk}/formats/new/").status_code == 403
    assert logged_in(charlie).get(f"/groups/{group.pk}/formats/new/").status_code == 404
    form = {
        "name": "新手局",
        "min_cards": "30",
        "max_cards": "50",
        "copy_limit": "2",
        "banned": "酒、南蛮入侵",
        "copy_limits": "新兵 ×3\nshachangdoushi: 1",
        "sets": ["YXJQ", "LSHJ"],
    }
    answer = owner.post(f"/groups/{group.pk}/formats/new/", form)
    assert answer.status_code == 302
    house = HouseFormat.objects.get(group=group)
    assert (house.min_cards, house.max_cards, house.copy_limit, house.sets) == (30, 50, 2, ["YXJQ", "LSHJ"])
    assert set(house.banned) == {"酒", "南蛮入侵"} and house.copy_limits == {"新兵": 3, "沙场斗士": 1}
    page = member.get(f"/groups/{group.pk}/formats/{house.pk}/").content.decode()
    assert "新手局" in page and "沙場鬥士 ×1" in page and house.key in page and "<form" not in page.split("</dl>")[1]
    assert "新手局" in member.get(f"/groups/{group.pk}/").content.decode()
    assert member.post(f"/groups/{group.pk}/formats/{house.pk}/", form | {"copy_limit": "9"}).status_code == 403
    bad = owner.post(f"/groups/{group.pk}/formats/{house.pk}/", form | {"copy_limits": "沒有這張牌 1"})
    assert bad.status_code == 400 and "沒有這張牌" in bad.content.decode()
    with django_capture_on_commit_callbacks(execute=True):
        changed = owner.post(f"/groups/{group.pk}/formats/{house.pk}/", form | {"max_cards": "45"})
    assert changed.status_code == 302
    house.refresh_from_db()
    assert house.max_cards == 45 and house.copy_limit == 2
    assert owner.post(f"/groups/{group.pk}/formats/{house.pk}/delete/").status_code == 200  # asks first
    assert HouseFormat.objects.filter(pk=house.pk).exists()
    assert owner.post(f"/groups/{group.pk}/formats/{house.pk}/delete/", {"confirm": "yes"}).status_code == 302
    assert not HouseFormat.objects.filter(pk=house.pk).exists()


def test_the_checker_api_reads_a_session_without_asking_for_a_csrf_token(alice, bob) -> None:
    from django.test import Client

    house, _group = _house(alice, bob)
    client = Client(enforce_csrf_checks=True)
    client.force_login(bob)
    body = {"format": house.key, "list": "武將: 劉備\n3 新兵"}
    assert _post(client, "/api/legality/", body).status_code == 200
    assert _post(Client(enforce_csrf_checks=True), "/api/legality/", body).status_code == 400  # anonymous
    assert _post(Client(enforce_csrf_checks=True), "/api/legality/", body | {"format": "standard"}).status_code == 200
