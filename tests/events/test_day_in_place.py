"""Every action on the organisers' day page answers in place: a refusal comes back beside the
form it came from with what was typed still in it (htmx: the reason alone, the form untouched;
without JavaScript: the page again), and a done action shows what changed, not the page's top.
Built once, in events.views.action.day_action."""

from __future__ import annotations

import re

import pytest

from events import day
from events.models import Player
from tests.conftest import logged_in
from tests.events.test_tournament_day import make_event

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("english")]


def _form_of(page: str, action: str) -> str:
    return page.split(f'action="{action}"', 1)[1].split("</form>", 1)[0]


def _value(form: str, name: str) -> str:
    found = re.search(rf'name="{name}"[^>]*value="([^"]*)"', form)
    assert found, form
    return found.group(1)


def test_a_refused_result_comes_back_beside_its_form_with_what_was_typed(alice) -> None:
    event = make_event(alice, players=4)
    first, second = day.pair_next_round(event).matches.order_by("table")
    url = f"/events/{event.pk}/day/results/{first.pk}/"
    refused = logged_in(alice).post(url, {"wins": "2", "losses": "2", "draws": "0"})  # 2–2 in a best of 3
    assert refused.status_code == 400
    page = refused.content.decode()
    mine = _form_of(page, url)
    assert 'id="refused"' in mine and (_value(mine, "wins"), _value(mine, "losses")) == ("2", "2")
    other = _form_of(page, f"/events/{event.pk}/day/results/{second.pk}/")
    assert 'id="refused"' not in other and _value(other, "wins") == ""  # only that form keeps input
    assert page.count('role="alert"') == 2  # the reason beside the form, and at the top
    first.refresh_from_db()
    assert first.a_wins is None  # nothing stored


def test_to_htmx_a_refusal_is_the_reason_alone_and_the_form_stays(alice) -> None:
    event = make_event(alice, players=4)
    match = day.pair_next_round(event).matches.order_by("table").first()
    refused = logged_in(alice).post(
        f"/events/{event.pk}/day/results/{match.pk}/", {"wins": "2", "losses": "2"}, HTTP_HX_REQUEST="true"
    )
    assert refused.status_code == 400
    body = refused.content.decode().strip()
    assert body.startswith('<p class="error" role="alert">') and "<form" not in body and "<html" not in body
    # The page's forms send themselves by htmx, the answer going into their place for it.
    page = logged_in(alice).get(f"/events/{event.pk}/day/").content.decode()
    form_tag = page.split(f'action="/events/{event.pk}/day/results/{match.pk}/"', 1)[1].split(">", 1)[0]
    assert 'hx-boost="true"' in form_tag and 'hx-target="find .refusal"' in form_tag
    assert '<div class="refusal"' in _form_of(page, f"/events/{event.pk}/day/results/{match.pk}/")


def test_a_done_action_shows_what_changed(alice) -> None:
    event = make_event(alice, players=4)
    client = logged_in(alice)
    paired = client.post(f"/events/{event.pk}/day/pair/")
    assert paired.status_code == 302 and paired["Location"] == f"/events/{event.pk}/day/#round"
    match = event.tournament_rounds.get().matches.order_by("table").first()
    url = f"/events/{event.pk}/day/results/{match.pk}/"
    done = client.post(url, {"wins": "2", "losses": "1", "draws": "0"}, HTTP_HX_REQUEST="true")
    assert done.status_code == 200 and done["HX-Redirect"] == f"/events/{event.pk}/day/?shown=match-{match.pk}"
    page = client.get(f"/events/{event.pk}/day/").content.decode()
    assert f'id="match-{match.pk}"' in page and 'id="round"' in page


def test_a_refused_django_form_shows_its_field_error_and_keeps_its_input(alice) -> None:
    event = make_event(alice, players=4)
    url = f"/events/{event.pk}/day/players/add/"
    refused = logged_in(alice).post(url, {"name": "遲到的 Lin", "list": "3 這不是一張牌"})
    assert refused.status_code == 400
    form = _form_of(refused.content.decode(), url)
    assert "遲到的 Lin" in form and 'id="refused"' in form
    assert not Player.objects.filter(event=event, name="遲到的 Lin").exists()


def test_a_refused_swap_keeps_both_players_chosen(alice) -> None:
    event = make_event(alice, players=4)
    round_ = day.pair_next_round(event)
    match = round_.matches.filter(player_b__isnull=False).first()
    url = f"/events/{event.pk}/day/swap/"
    refused = logged_in(alice).post(url, {"first": match.player_a_id, "second": match.player_b_id})
    assert refused.status_code == 400  # they already play each other
    form = _form_of(refused.content.decode(), url)
    chosen = re.findall(r'<option value="(\d+)" selected', form)
    assert chosen == [str(match.player_a_id), str(match.player_b_id)]


def test_check_in_and_drop_are_apart_and_drop_asks_first(alice) -> None:
    event = make_event(alice, players=4)
    player = event.players.order_by("pk").first()
    client = logged_in(alice)
    page = client.get(f"/events/{event.pk}/day/").content.decode()
    row = page.split(f'id="player-{player.pk}"', 1)[1].split("</tr>", 1)[0]
    cells = row.split("<td")
    check_cell = next(c for c in cells if 'value="check_in"' in c or 'value="check_out"' in c)
    assert 'value="drop"' not in check_cell  # never in the same cell as check-in
    url = f"/events/{event.pk}/day/players/{player.pk}/"
    asked = client.post(url, {"action": "drop"})
    assert asked.status_code == 200 and "Drop" in asked.content.decode()
    player.refresh_from_db()
    assert not player.dropped  # nothing until confirmed
    done = client.post(url, {"action": "drop", "confirm": "yes"})
    assert done.status_code == 302 and done["Location"].endswith(f"#player-{player.pk}")
    player.refresh_from_db()
    assert player.dropped
