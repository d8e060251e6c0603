"""Play groups: who belongs, who may do what, and who reads the decks shared with them."""

from __future__ import annotations

import pytest

from decks import services as deck_services
from decks.models import Deck
from groups import services
from groups.models import MAX_OWNED, Group, Membership, Role
from tests.conftest import logged_in
from tests.support.deck_helpers import make_deck
from tests.support.group_helpers import make_group

pytestmark = pytest.mark.django_db


def test_the_maker_owns_the_group_and_an_invite_link_lets_others_in(alice, bob) -> None:
    group = services.create_group(alice, "  週五   牌局 ")
    assert group.name == "週五 牌局"
    assert services.role_of(group, alice) == Role.OWNER
    assert services.join(bob, group.invite) == (group, True)
    assert services.join(bob, group.invite) == (group, False)  # twice: still one membership
    assert Membership.objects.filter(group=group).count() == 2


def test_a_replaced_invite_link_stops_working_at_once(alice, bob) -> None:
    group = make_group(alice)
    old = group.invite
    services.replace_invite(group, alice)
    with pytest.raises(services.NotFound):
        services.join(bob, old)
    assert services.role_of(group, bob) is None


@pytest.mark.parametrize("name", ["", "   ", "x" * 61])
def test_a_group_name_is_one_line_of_at_most_60_characters(alice, name) -> None:
    with pytest.raises(services.GroupError):
        services.create_group(alice, name)
    assert not Group.objects.exists()


def test_one_player_owns_at_most_fifty_groups(alice) -> None:
    for i in range(MAX_OWNED):
        services.create_group(alice, f"g{i}")
    with pytest.raises(services.GroupError):
        services.create_group(alice, "one more")
    assert Group.objects.filter(owner=alice).count() == MAX_OWNED


def test_only_the_owner_adds_and_removes_and_the_owner_cannot_leave(alice, bob, charlie) -> None:
    group = make_group(alice, bob)
    with pytest.raises(services.NotAllowed):
        services.add_member(group, bob, "charlie")
    services.add_member(group, alice, "charlie")
    with pytest.raises(services.GroupError):
        services.add_member(group, alice, "charlie")  # a member already
    with pytest.raises(services.GroupError):
        services.add_member(group, alice, "nobody")
    with pytest.raises(services.NotAllowed):
        services.remove_member(group, bob, "charlie")
    with pytest.raises(services.GroupError):
        services.remove_member(group, alice, "alice")
    services.remove_member(group, bob, "bob")  # leaving
    services.remove_member(group, alice, "charlie")  # removed by the owner
    assert list(Membership.objects.filter(group=group).values_list("user__username", flat=True)) == ["alice"]


def test_a_deck_shared_with_a_group_is_read_by_its_members_only(alice, bob, charlie) -> None:
    group = make_group(alice, bob)
    deck = make_deck(bob, name="私房牌")
    deck_services.set_groups(deck, [group.pk])
    assert Deck.objects.visible_to(alice).filter(pk=deck.pk).exists()
    assert not Deck.objects.visible_to(charlie).filter(pk=deck.pk).exists()
    assert logged_in(alice).get(deck.get_absolute_url()).status_code == 200
    assert logged_in(charlie).get(deck.get_absolute_url()).status_code == 404
    assert logged_in(alice).get(f"/api/decks/{deck.pk}/").status_code == 200
    assert logged_in(charlie).get(f"/api/decks/{deck.pk}/").status_code == 404


def test_a_deck_is_shared_only_with_groups_its_owner_belongs_to(alice, bob) -> None:
    theirs = make_group(alice)
    deck = make_deck(bob)
    with pytest.raises(deck_services.DeckError):
        deck_services.set_groups(deck, [theirs.pk])
    assert not deck.groups.exists()


def test_leaving_takes_ones_decks_out_of_the_group(alice, bob) -> None:
    group = make_group(alice, bob)
    deck = make_deck(bob)
    deck_services.set_groups(deck, [group])
    services.remove_member(group, bob, "bob")
    assert not Deck.objects.shared_with(group).exists()
    assert not Deck.objects.visible_to(alice).filter(pk=deck.pk).exists()


def test_deleting_an_account_removes_its_memberships_and_the_groups_it_owns(alice, bob) -> None:
    owned = make_group(bob, alice, name="bob's")
    joined = make_group(alice, bob, name="alice's")
    bob.delete()
    assert not Group.objects.filter(pk=owned.pk).exists()
    assert list(Membership.objects.filter(group=joined).values_list("user__username", flat=True)) == ["alice"]


# --- pages ---------------------------------------------------------------------------------------


def test_a_group_is_made_joined_by_link_and_a_404_to_others(alice, bob, charlie) -> None:
    owner = logged_in(alice)
    response = owner.post("/groups/", {"name": "三國夜"})
    group = Group.objects.get(name="三國夜")
    assert response.status_code == 302 and response["Location"] == f"/groups/{group.pk}/"
    page = owner.get(f"/groups/{group.pk}/").content.decode()
    assert f"/groups/join/{group.invite}/" in page
    assert logged_in(charlie).get(f"/groups/{group.pk}/").status_code == 404
    join = logged_in(bob).get(f"/groups/join/{group.invite}/")
    assert join.status_code == 200 and "三國夜" in join.content.decode()
    assert services.role_of(group, bob) is None  # GET never writes
    assert logged_in(bob).post(f"/groups/join/{group.invite}/").status_code == 302
    assert services.role_of(group, bob) == Role.MEMBER
    member_page = logged_in(bob).get(f"/groups/{group.pk}/").content.decode()
    assert group.invite not in member_page  # the link is the owner's to hand out
    assert logged_in(bob).get("/groups/join/not-a-link/").status_code == 404


def test_the_group_page_lists_the_decks_shared_with_it(alice, bob) -> None:
    group = make_group(alice, bob)
    shared = make_deck(bob, name="分享之牌")
    make_deck(bob, name="不分享之牌")
    deck_services.set_groups(shared, [group])
    page = logged_in(alice).get(f"/groups/{group.pk}/").content.decode()
    assert "分享之牌" in page and "不分享之牌" not in page


def test_leaving_and_removing_ask_first(alice, bob, charlie) -> None:
    group = make_group(alice, bob, charlie)
    asked = logged_in(bob).post(f"/groups/{group.pk}/members/bob/remove/")
    assert asked.status_code == 200 and services.role_of(group, bob) == Role.MEMBER
    assert logged_in(bob).post(f"/groups/{group.pk}/members/bob/remove/", {"confirm": "yes"}).status_code == 302
    assert services.role_of(group, bob) is None
    assert logged_in(charlie).post(f"/groups/{group.pk}/members/alice/remove/", {"confirm": "yes"}).status_code == 302
    assert services.role_of(group, alice) == Role.OWNER  # a member cannot remove the owner
    logged_in(alice).post(f"/groups/{group.pk}/members/charlie/remove/", {"confirm": "yes"})
    assert services.role_of(group, charlie) is None


def test_the_owner_adds_by_username_and_deletes_the_group(alice, bob) -> None:
    group = make_group(alice)
    owner = logged_in(alice)
    owner.post(f"/groups/{group.pk}/members/", {"username": "bob"})
    assert services.role_of(group, bob) == Role.MEMBER
    assert owner.post(f"/groups/{group.pk}/delete/").status_code == 200  # asks first
    assert owner.post(f"/groups/{group.pk}/delete/", {"confirm": "yes"}).status_code == 302
    assert not Group.objects.filter(pk=group.pk).exists()


def test_the_builder_shares_a_deck_with_my_groups(alice, bob) -> None:
    group = make_group(alice, bob)
    deck = make_deck(alice, name="共享")
    client = logged_in(alice)
    form = client.get(f"/decks/{deck.pk}/build/").content.decode()
    assert 'name="groups"' in form and "週五牌局" in form
    data = {"name": "共享", "format": "standard", "description": "", "tags": "", "groups": [group.pk]}
    assert client.post(f"/decks/{deck.pk}/build/", data).status_code == 302
    assert list(deck.groups.all()) == [group]
    data.pop("groups")
    client.post(f"/decks/{deck.pk}/build/", data)
    assert not deck.groups.exists()


# --- API -----------------------------------------------------------------------------------------


def test_the_api_makes_lists_joins_and_deletes_groups(alice, bob, charlie) -> None:
    owner, member = logged_in(alice), logged_in(bob)
    made = owner.post("/api/groups/", {"name": "API 組"}, content_type="application/json")
    assert made.status_code == 201
    answer = made.json()
    assert set(answer) >= {"id", "name", "invite"} and answer["name"] == "API 組"
    gid = answer["id"]
    assert (
        member.post("/api/groups/join/", {"invite": answer["invite"]}, content_type="application/json").status_code
        == 201
    )
    assert (
        member.post("/api/groups/join/", {"invite": answer["invite"]}, content_type="application/json").status_code
        == 200
    )
    assert member.post("/api/groups/join/", {"invite": "nope"}, content_type="application/json").status_code == 404
    assert [g["id"] for g in member.get("/api/groups/").json()] == [gid]
    assert member.get("/api/groups/").json()[0]["invite"] is None
    assert logged_in(charlie).get(f"/api/groups/{gid}/").status_code == 404
    added = owner.post(f"/api/groups/{gid}/members/", {"user": "charlie"}, content_type="application/json")
    assert added.status_code == 201 and added.json()["user"] == "charlie"
    assert member.post(f"/api/groups/{gid}/members/", {"user": "x"}, content_type="application/json").status_code == 403
    assert member.delete(f"/api/groups/{gid}/members/charlie/").status_code == 403
    assert owner.delete(f"/api/groups/{gid}/members/charlie/").status_code == 204
    assert member.delete(f"/api/groups/{gid}/members/bob/").status_code == 204
    assert member.get(f"/api/groups/{gid}/").status_code == 404
    assert member.delete(f"/api/groups/{gid}/").status_code == 404
    assert owner.delete(f"/api/groups/{gid}/").status_code == 204
    assert not Group.objects.exists()


def test_the_api_shares_a_deck_and_shows_its_groups_to_its_owner_only(alice, bob) -> None:
    group = make_group(alice, bob)
    other = make_group(bob, name="bob only")
    deck = make_deck(alice, name="API 共享")
    owner, member = logged_in(alice), logged_in(bob)
    patched = owner.patch(f"/api/decks/{deck.pk}/", {"groups": [group.pk]}, content_type="application/json")
    assert patched.status_code == 200 and patched.json()["groups"] == [group.pk]
    refused = owner.patch(f"/api/decks/{deck.pk}/", {"groups": [other.pk]}, content_type="application/json")
    assert refused.status_code == 400 and list(deck.groups.all()) == [group]
    assert "groups" not in member.get(f"/api/decks/{deck.pk}/").json()
    listed = member.get(f"/api/groups/{group.pk}/decks/").json()["results"]
    assert [d["id"] for d in listed] == [deck.pk]
    assert owner.get("/api/decks/").json()["results"][0]["groups"] == [group.pk]


def test_an_anonymous_caller_gets_401_and_no_group(alice) -> None:
    group = make_group(alice)
    from django.test import Client

    assert Client().get("/api/groups/").status_code == 401
    assert Client().get(f"/api/groups/{group.pk}/decks/").status_code == 401
    assert Client().get(f"/groups/{group.pk}/").status_code == 302


def test_the_account_deletion_page_lists_the_groups_that_go_and_those_left(alice, bob) -> None:
    make_group(alice, bob, name="我的團")
    make_group(bob, alice, name="別人的團")
    page = logged_in(alice).get("/accounts/delete/").content.decode()
    owned, left = page.index("我的團"), page.index("別人的團")
    assert "2 members" in page or "2 位成員" in page or "2 位成员" in page
    assert owned < left


def test_the_deck_page_names_the_groups_it_is_shared_with_to_their_members(alice, bob, charlie) -> None:
    group = make_group(alice, bob, name="讀者之團")
    deck = make_deck(alice, public=True)
    deck_services.set_groups(deck, [group])
    assert "讀者之團" in logged_in(bob).get(deck.get_absolute_url()).content.decode()
    assert "讀者之團" not in logged_in(charlie).get(deck.get_absolute_url()).content.decode()
