"""What the entrant services (``entrants``, ``teams``) share: an entry's state as the audit
log records it, and the audit entry itself."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from core import access
from core.audit import record_audit
from core.auth import Actor
from tournaments.models import Registration, Tournament


def registration_state(reg: Registration) -> dict[str, Any]:
    state: dict[str, Any] = {
        "player": reg.player.display_name,
        "status": reg.status,
        "checked_in_at": reg.checked_in_at.isoformat() if reg.checked_in_at else None,
    }
    if reg.is_team:
        state["team_name"] = reg.team_name
        state["partner"] = reg.partner.display_name if reg.partner is not None else None
        state["partner_accepted"] = reg.partner_accepted_at is not None
    return state


def entrants_changed(registrations: Iterable[Registration]) -> None:
    """These entries were made, withdrawn or their team changed: their players' open
    sockets re-read what they may see once the transaction commits (``core.access``). It
    matters for an organiser who enters their own tournament: from then on they see its
    drafts as a player does, not every seat's pack."""
    access.changed(
        person.user_id
        for reg in registrations
        for person in (reg.player, reg.partner if reg.partner_id else None)
        if person is not None
    )


def audit_entry(
    actor: Actor,
    registration: Registration,
    tournament: Tournament,
    *,
    action: str,
    params: dict[str, Any],
    before: dict[str, Any] | None,
) -> None:
    """An entry's change in the audit log, with its state before and after."""
    record_audit(
        actor=actor,
        action=action,
        params=params,
        obj=registration,
        club=tournament.club,
        tournament=tournament,
        before=before,
        after=registration_state(registration),
    )
