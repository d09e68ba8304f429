"""People: accounts and their player profiles (a display name).

Each public entry point is one durable transaction; ``ensure_player`` is a helper that
other services call inside theirs.
"""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.db import transaction

from core.audit import record_audit
from core.auth import AnyUser, require_user
from core.errors import Conflict, InvalidInput
from tournaments.models import Player

User = get_user_model()


def ensure_player(user: AnyUser) -> Player:
    """The user's player profile, created with their username as display name if missing
    (anonymous users have none: refused, ``not_logged_in``)."""
    user = require_user(user)
    player = Player.objects.filter(user=user).first()
    if player is None:
        player, _ = Player.objects.get_or_create(
            user=user, defaults={"display_name": user.get_username()}
        )
    return player


@transaction.atomic(durable=True)
def sign_up(*, username: str, email: str, password: str, display_name: str = "") -> Player:
    """Create an account and its player profile."""
    username = username.strip()
    if not username:
        raise InvalidInput("Choose a user name.", code="username_required", field="username")
    if User.objects.filter(username__iexact=username).exists():
        raise Conflict("That user name is taken.", code="username_taken", field="username")
    user = User.objects.create_user(username=username, email=email, password=password)
    player = Player.objects.create(user=user, display_name=display_name.strip() or username)
    return player


@transaction.atomic(durable=True)
def update_profile(*, user: AnyUser, display_name: str) -> Player:
    display_name = display_name.strip()
    user = require_user(user)
    if not display_name:
        raise InvalidInput("A display name cannot be empty.", field="display_name")
    player = ensure_player(user)
    before = {"display_name": player.display_name}
    player.display_name = display_name[:80]
    player.save(update_fields=["display_name"])
    record_audit(
        actor=user,
        action="player.renamed",
        summary=f"{before['display_name']} is now {player.display_name}",
        obj=player,
        before=before,
        after={"display_name": player.display_name},
    )
    return player
