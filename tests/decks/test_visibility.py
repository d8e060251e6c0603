"""Private, unlisted or public (#51): an unlisted deck is read at /d/<token>/ alone, never by its
number, never listed or searched; its owner replaces its link; `public` stays in the deck JSON,
read-only, derived from `visibility`; the old boolean migrates without loss."""

from __future__ import annotations

import json

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.test import Client

from decks.models import Deck
from tests.conftest import logged_in
from tests.support.deck_helpers import make_deck


def _patch(client: Client, deck: Deck, data: dict) -> object:
    return client.patch(f"/api/decks/{deck.pk}/", json.dumps(data), content_type="application/json")


@pytest.mark.django_db
def test_an_unlisted_deck_is_read_by_its_link_alone(alice, bob, english) -> None:
    deck = make_deck(alice, name="秘密武器")
    answer = _patch(logged_in(alice), deck, {"visibility": "unlisted"}).json()
    assert answer["visibility"] == "unlisted" and answer["public"] is False
    link = answer["link"]
    assert link.startswith("/d/") and len(link) > 20
    for reader in (Client(), logged_in(bob)):
        assert reader.get(f"/decks/{deck.pk}/").status_code == 404  # its number reads nothing
        assert reader.get(f"/api/decks/{deck.pk}/").status_code == 404
        page = reader.get(link)
        assert page.status_code == 200 and "秘密武器" in page.content.decode()
        assert "noindex" in page.content.decode()
        assert "秘密武器" not in reader.get("/decks/").content.decode()
        assert "秘密武器" not in reader.get("/decks/?q=has:新兵").content.decode()
        assert reader.get("/api/decks/?public=1").json()["results"] == []
    assert "link" not in logged_in(bob).get("/api/decks/?public=1").content.decode()
    assert logged_in(alice).get(link)["Location"] == f"/decks/{deck.pk}/"  # its owner: the full page
    owner_page = logged_in(alice).get(f"/decks/{deck.pk}/").content.decode()
    assert link in owner_page and "New link" in owner_page
    # likes and comments are for public decks
    assert logged_in(bob).post(f"/api/decks/{deck.pk}/like/").status_code == 404
    assert logged_in(bob).post(f"/decks/{deck.pk}/comments/", {"body": "嗨"}).status_code == 404


@pytest.mark.django_db
def test_a_new_link_replaces_the_old_and_a_private_deck_has_none_that_reads(alice, bob) -> None:
    deck = make_deck(alice, name="換連結")
    _patch(logged_in(alice), deck, {"visibility": "unlisted"})
    old = Deck.objects.get(pk=deck.pk).link_url
    assert logged_in(bob).post(f"/decks/{deck.pk}/link/").status_code == 404  # only its owner
    assert logged_in(alice).post(f"/decks/{deck.pk}/link/").status_code == 302
    new = Deck.objects.get(pk=deck.pk).link_url
    assert new != old and Client().get(old).status_code == 404 and Client().get(new).status_code == 200
    _patch(logged_in(alice), deck, {"visibility": "private"})
    assert Client().get(new).status_code == 404
    _patch(logged_in(alice), deck, {"visibility": "public"})
    assert Client().get(new)["Location"] == f"/decks/{deck.pk}/"  # a public deck: its own page
    assert Client().get("/d/no-such-link/").status_code == 404


@pytest.mark.django_db
def test_public_is_read_only_and_visibility_is_checked(alice) -> None:
    deck = make_deck(alice, name="唯讀")
    refused = _patch(logged_in(alice), deck, {"public": True})
    assert refused.status_code == 400 and "visibility" in refused.json()["public"][0]
    for bad in ("everyone", 1, None, ["public"]):
        assert _patch(logged_in(alice), deck, {"visibility": bad}).status_code == 400
    assert Deck.objects.get(pk=deck.pk).visibility == "private"


@pytest.mark.django_db
def test_the_builder_sets_the_visibility(alice) -> None:
    deck = make_deck(alice, name="設定")
    form = {"name": "設定", "format": "standard", "description": "", "tags": ""}
    page = logged_in(alice).get(f"/decks/{deck.pk}/build/").content.decode()
    assert 'name="visibility"' in page and 'value="unlisted"' in page
    assert logged_in(alice).post(f"/decks/{deck.pk}/build/", form | {"visibility": "unlisted"}).status_code == 302
    assert Deck.objects.get(pk=deck.pk).link_url
    assert logged_in(alice).post(f"/decks/{deck.pk}/build/", form | {"visibility": "all"}).status_code == 400
    assert Deck.objects.get(pk=deck.pk).visibility == "unlisted"


@pytest.mark.django_db(transaction=True)
def test_the_migration_keeps_every_deck_as_public_or_as_private_as_it_was() -> None:
    executor = MigrationExecutor(connection)
    executor.migrate([("decks", "0015_comments")])
    old = executor.loader.project_state([("decks", "0015_comments")]).apps
    user = old.get_model("auth", "User").objects.create(username="old-owner")
    old_deck = old.get_model("decks", "Deck")
    shown = old_deck.objects.create(owner=user, name="公開的", public=True)
    hidden = old_deck.objects.create(owner=user, name="私人的", public=False)
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(executor.loader.graph.leaf_nodes())
    assert Deck.objects.get(pk=shown.pk).visibility == "public"
    assert Deck.objects.get(pk=hidden.pk).visibility == "private"
