"""People: accounts and their player profiles (a display name).

Each public entry point is one durable transaction; ``ensure_player`` is a helper that
other services call inside theirs.
"""

from __future__ import annotations

from django.contrib.auth import get_user_model, password_validation
from django.core.exceptions import ValidationError
from django.db import transaction

from core import text
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
    """Create an account and its player profile.

    The user name is NFKC-normalised and may hold only letters, digits and ``. _ - @ +``
    (``core.text.normalise_username``); it is taken when another account has the same
    name in any case (so neither ``Admin`` nor full-width ``ADMIN`` is a second ``admin``).
    The password must pass ``AUTH_PASSWORD_VALIDATORS`` (not ``password``, ``12345678``,
    nor the user name). The display name is cleaned like every name (``clean_name``).
    """
    username = text.normalise_username(username, field="username")
    display_name = text.clean_name(display_name, what="the display name", field="display_name")
    if User.objects.filter(username__iexact=username).exists():
        raise Conflict("That user name is taken.", code="username_taken", field="username")
    try:
        password_validation.validate_password(password, user=User(username=username, email=email))
    except ValidationError as error:
        raise InvalidInput(
            " ".join(error.messages), code="weak_password", field="password"
        ) from None
    user = User.objects.create_user(username=username, email=email, password=password)
    player = Player.objects.create(user=user, display_name=display_name[:80] or username[:80])
    return player


@transaction.atomic(durable=True)
def update_profile(*, user: AnyUser, display_name: str) -> Player:
    display_name = text.clean_name(display_name, what="the display name", field="display_name")
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
