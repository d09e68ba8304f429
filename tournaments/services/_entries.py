"""What the entrant services (``entrants``, ``teams``) share: an entry's state as the audit
log records it, the audit entry itself, and the words of their refusals that take one of
several whole sentences."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.utils import timezone
from django.utils.dateformat import format as format_date
from django.utils.translation import gettext, ngettext

from core import access
from core.audit import record_audit
from core.auth import Actor
from tournaments.models import Player, Registration, Tournament


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


# --- the words of the refusals -------------------------------------------------------


def started(tournament: Tournament) -> str:
    return gettext("%(tournament)s has started.") % {"tournament": tournament.name}


def not_captain(registration: Registration) -> str:
    """A teammate refused withdrawing the team (only its registering player can)."""
    return gettext(
        "Only %(player)s, who registered %(team)s, can withdraw it: leave the team instead."
    ) % {"player": registration.player.display_name, "team": registration.name}


def already_registered(tournament: Tournament, player: Player, *, yours: bool) -> str:
    words = (
        gettext("You are already registered for %(tournament)s.")
        if yours
        else gettext("%(player)s is already registered for %(tournament)s.")
    )
    return words % {"player": player.display_name, "tournament": tournament.name}


def full(tournament: Tournament, *, teams: bool) -> str:
    capacity = tournament.capacity
    words = (
        ngettext(
            "%(tournament)s is full (%(count)d team).",
            "%(tournament)s is full (%(count)d teams).",
            capacity,
        )
        if teams
        else ngettext(
            "%(tournament)s is full (%(count)d player).",
            "%(tournament)s is full (%(count)d players).",
            capacity,
        )
    )
    return words % {"tournament": tournament.name, "count": capacity}


def team_incomplete(registration: Registration, *, yours: bool) -> str:
    """A team of one refused check-in (``yours``: said to its members)."""
    partner = registration.partner
    if partner is not None:
        words = (
            gettext(
                "Your team needs a second player before it can check in (%(partner)s has "
                "not accepted yet)."
            )
            if yours
            else gettext(
                "%(team)s needs a second player before it can check in (%(partner)s has not "
                "accepted yet)."
            )
        )
    elif yours:
        words = gettext("Your team needs a second player before it can check in.")
    else:
        words = gettext("%(team)s needs a second player before it can check in.")
    return words % {"team": registration.name, "partner": partner.display_name if partner else ""}


def check_in_closed(tournament: Tournament) -> str:
    """Check-in refused: when it opens, if it has not yet, or that it is closed."""
    opens, closes = tournament.check_in_opens_at, tournament.check_in_closes_at
    if opens and closes and timezone.now() < opens:
        local = timezone.localtime(opens)
        return gettext("Check-in opens at %(time)s on %(date)s.") % {
            "time": format_date(local, "H:i"),
            "date": format_date(local, "d M"),
        }
    return gettext("Check-in for %(tournament)s is closed.") % {"tournament": tournament.name}
