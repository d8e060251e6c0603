"""A typed-in player linked to an account (#53): the organiser names the account, its holder
confirms in the site's notifications, and the event joins their history (and, for a rated
event, their rating). A player never linked stays a name on that event only."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.db import transaction
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _

from events.models import Event, EventDeck, Player, PlayerClaim
from events.tasks import schedule_ratings
from people import notices


class ClaimError(ValueError):
    """A link that cannot be made, in words."""

    def __init__(self, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.status = status


def ask(event: Event, player_id: int, username: Any, organiser: Any) -> PlayerClaim:
    """Ask the account `username` to confirm it is this player of the event (an open request
    replaces the one before for the same player)."""
    if not isinstance(username, str) or not username.strip() or len(username) > 150 or "\x00" in username:
        raise ClaimError(_("Give the player's username."))
    user = get_user_model().objects.filter(username=username.strip(), is_active=True).first()
    if user is None:
        raise ClaimError(_("No account with that username."))
    with transaction.atomic():
        player = Player.objects.select_for_update().filter(event=event, pk=player_id).first()
        if player is None:
            raise ClaimError(_("No such player in this event."), 404)
        if player.user_id is not None:
            raise ClaimError(_("This player is linked to an account already."))
        if Player.objects.filter(event=event, user=user).exists():
            raise ClaimError(_("That account is another player of this event already."))
        PlayerClaim.objects.filter(player=player, status=PlayerClaim.Status.OPEN).update(
            status=PlayerClaim.Status.WITHDRAWN
        )
        claim = PlayerClaim.objects.create(player=player, user=user, asked_by=organiser)
        url = reverse("events:claim", args=[claim.pk])
        notices.notify(user.pk, "player_link", organiser, event.name, url)
    return claim


def answer(claim_id: int, user: Any, accept: bool) -> PlayerClaim:
    """The account's holder confirms (the player becomes theirs) or declines. Once only."""
    with transaction.atomic():
        claim = PlayerClaim.objects.select_for_update().filter(pk=claim_id, user=user).first()
        if claim is None:
            raise ClaimError(_("No such request."), 404)
        if claim.status != PlayerClaim.Status.OPEN:
            raise ClaimError(_("This request was answered or withdrawn already."), 409)
        player = Player.objects.select_for_update().select_related("event").get(pk=claim.player_id)
        if accept:
            if player.user_id is not None or Player.objects.filter(event=player.event, user=user).exists():
                raise ClaimError(_("You are a player of this event already."), 409)
            player.user = user
            player.save(update_fields=["user"])
            # Its event deck, if the event left one, is theirs now: it shows on their page.
            EventDeck.objects.filter(player=player).update(user=user)
            if player.event.rated:
                day = player.event.day
                transaction.on_commit(lambda: schedule_ratings(day))
        claim.status = PlayerClaim.Status.CONFIRMED if accept else PlayerClaim.Status.DECLINED
        claim.answered = timezone.now()
        claim.save(update_fields=["status", "answered"])
        return claim
