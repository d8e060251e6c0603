"""Two groups of one owner never share a name (letters in either case as one), so a menu of my
groups tells them apart: refused in words by the page and the API, held by the database when two
tabs make them at once, and today's duplicates renamed "name (2)" by the migration."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from groups import services
from groups.models import Group
from tests.conftest import logged_in
from tests.support.concurrency import at_once


@pytest.mark.django_db
def test_a_second_group_of_the_same_name_is_refused_in_words(alice, bob, english) -> None:
    services.create_group(alice, "Friday Night")
    with pytest.raises(services.GroupError, match="You already have a group named “friday night”"):
        services.create_group(alice, "friday  night")
    page = logged_in(alice).post("/groups/", {"name": "FRIDAY NIGHT"})
    assert page.status_code == 400 and "You already have a group named" in page.content.decode()
    api = logged_in(alice).post("/api/groups/", {"name": "Friday Night"}, content_type="application/json")
    assert api.status_code == 400 and "already have a group" in api.json()["detail"][0]
    assert Group.objects.filter(owner=alice).count() == 1
    services.create_group(bob, "Friday Night")  # another owner's group may share it


@pytest.mark.django_db
def test_a_rename_to_another_groups_name_is_refused_and_to_its_own_allowed(alice) -> None:
    services.create_group(alice, "週五牌局")
    other = services.create_group(alice, "週六牌局")
    with pytest.raises(services.GroupError):
        services.rename(other, alice, "週五牌局")
    assert Group.objects.get(pk=other.pk).name == "週六牌局"
    services.create_group(alice, "Sunday")
    sunday = Group.objects.get(name="Sunday")
    assert services.rename(sunday, alice, "SUNDAY").name == "SUNDAY"  # its own name, new case


def _create(owner_id: int) -> str:
    try:
        services.create_group(get_user_model().objects.get(pk=owner_id), "三國夜")
        return "made"
    except services.GroupError:
        return "refused"


@pytest.mark.django_db(transaction=True)
def test_two_tabs_making_the_same_group_at_once_make_one() -> None:
    alice = get_user_model().objects.create_user("alice", password="x-very-long-password-1")
    assert sorted(at_once(*[lambda: _create(alice.pk) for _ in range(3)])) == ["made", "refused", "refused"]
    assert Group.objects.filter(owner=alice).count() == 1


@pytest.mark.django_db(transaction=True)
def test_the_migration_renames_todays_duplicates_and_keeps_the_oldest() -> None:
    executor = MigrationExecutor(connection)
    executor.migrate([("groups", "0002_house_formats")])
    old = executor.loader.project_state([("groups", "0002_house_formats")]).apps
    User, Group_ = old.get_model("auth", "User"), old.get_model("groups", "Group")
    alice, bob = User.objects.create(username="alice"), User.objects.create(username="bob")
    long = "長" * 60
    names = ["週五", "週五", "Friday", "FRIDAY", "週五 (2)", long, long, "週五"]
    made = [Group_.objects.create(owner=alice, name=n, invite=f"i{i}") for i, n in enumerate(names)]
    Group_.objects.create(owner=bob, name="週五", invite="bob")
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(executor.loader.graph.leaf_nodes())
    renamed = [Group.objects.get(pk=g.pk).name for g in made]
    assert renamed[0] == "週五" and renamed[2] == "Friday" and renamed[4] == "週五 (2)" and renamed[5] == long
    assert renamed[1] == "週五 (3)" and renamed[3] == "FRIDAY (2)" and renamed[7] == "週五 (4)"
    assert renamed[6] == "長" * 56 + " (2)" and len(renamed[6]) == 60
    assert len({n.lower() for n in renamed}) == len(renamed)
    assert Group.objects.get(invite="bob").name == "週五"  # another owner's is theirs
