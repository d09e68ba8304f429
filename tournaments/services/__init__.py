"""Every write (DESIGN.md, layer 2), by subject:

- ``core``: people, clubs and roles, tournaments, registration and check-in, the start clock;
- ``rounds``: Swiss rounds: pairing, repairing, the round clock, drops and late entries;
- ``results``: result reports per game round, confirmation, disputes and judges' overrides.

Callers use ``from tournaments import services`` and ``services.<name>`` for ``core``;
``from tournaments.services import results, rounds`` for the others.
"""

from tournaments.services.core import (
    DEFAULT_CHECK_IN_BEFORE,
    TOURNAMENT_FIELDS,
    accept_invitation,
    add_member,
    add_player,
    check_in,
    check_in_player,
    create_club,
    create_tournament,
    ensure_player,
    handle_tournament_start,
    invite_member,
    publish_tournament,
    record_audit,
    register,
    remove_member,
    remove_player,
    set_role,
    sign_up,
    unregister,
    update_profile,
    update_tournament,
)

__all__ = [
    "DEFAULT_CHECK_IN_BEFORE",
    "TOURNAMENT_FIELDS",
    "accept_invitation",
    "add_member",
    "add_player",
    "check_in",
    "check_in_player",
    "create_club",
    "create_tournament",
    "ensure_player",
    "handle_tournament_start",
    "invite_member",
    "publish_tournament",
    "record_audit",
    "register",
    "remove_member",
    "remove_player",
    "set_role",
    "sign_up",
    "unregister",
    "update_profile",
    "update_tournament",
]
