"""Undoing a guest's claim (issue 26): the claim code of a guest (``services.guests``)
reached the wrong person, or an account claimed the wrong guest; an organiser of the
guest's club gives the history back to the club. The guest's row is the same player (its
id, registrations, results and ratings unchanged), a guest again under a new code; the
account starts afresh with an empty profile.
"""

from __future__ import annotations

from django.db import IntegrityError, transaction
from django.utils.translation import gettext

from core import access
from core.audit import record_audit
from core.auth import AnyUser
from core.errors import Conflict, NotFound
from core.locks import lock_one
from tournaments.models import Player
from tournaments.selectors import policies
from tournaments.services.guests import NAME_MAX, new_claim_code
from tournaments.services.page_versions import player_pages_changed


@transaction.atomic(durable=True)
def undo_claim(*, actor: AnyUser, player_id: int) -> Player:
    """An organiser of the guest's club (``Player.club``) undoes an account's claim of a
    guest: the player is a guest again (no account, a NEW claim code: the old one reached
    the wrong person), and the account gets a fresh, empty profile under its own name.

    The player row is locked first, as a claim locks it (``people.attach_guest``): a claim
    and its undo, or two undos, take turns; the second undo finds a guest and is refused.
    The player's id does not change, so its registrations, results and ratings
    (``seasons.Rating`` and ``RatingChange`` are keyed by player) stay with the guest and
    need no recompute."""
    player = lock_one(Player, pk=player_id)
    if player is None:
        raise NotFound(gettext("No such player."), code="player_not_found")
    club = player.club
    if club is None or player.claimed_at is None or player.user is None:
        if club is not None:
            policies.require_manager(actor, club)
        raise Conflict(
            gettext("%(player)s is not a claimed guest: there is no claim to undo.")
            % {"player": player.display_name},
            code="not_claimed",
        )
    policies.require_manager(actor, club)
    user = player.user
    player.user = None
    player.claimed_at = None
    player.claim_code = new_claim_code()
    try:
        with transaction.atomic():
            player.save(update_fields=["user", "claimed_at", "claim_code"])
    except IntegrityError:  # the club has another unclaimed guest of this name now
        raise Conflict(
            gettext(
                "%(club)s has another guest called %(player)s: rename one of them, then "
                "undo the claim."
            )
            % {"club": club.name, "player": player.display_name},
            code="guest_name_taken",
        ) from None
    account = Player.objects.create(user=user, display_name=user.get_username()[:NAME_MAX])
    record_audit(
        actor=actor,
        action="player.claim_undone",
        params={"user": user.get_username(), "guest": player.display_name},
        obj=player,
        club=club,
        before={"user": user.get_username()},
        after={"user": None, "account_player": account.pk},
    )
    access.changed([user.pk])  # the guest's entries are no longer the account's
    player_pages_changed(player.pk)
    return player
