"""Moving the public pages' version (``selectors.page_versions``) for the changes that
record no event: the caller's transaction touches ``Tournament.updated_at``, so the
change and the new version commit together. Each is rare next to a report (a report
records an event and touches nothing): a registration, a drop, a pairing redone, a team
renamed, a stage added; a player's new name or a club's time zone touch every tournament
that shows them. Writers call these after their audit row, under the locks they hold."""

from __future__ import annotations

from django.db.models import Q
from django.utils import timezone

from tournaments.models import Tournament


def pages_changed(tournament_id: int) -> None:
    """Tournament ``tournament_id``'s pages show something new."""
    Tournament.objects.filter(pk=tournament_id).update(updated_at=timezone.now())


def club_pages_changed(club_id: int) -> None:
    """Every tournament page of the club shows something new (its time zone, who may
    manage or judge it: what a signed-in member's pages offer)."""
    Tournament.objects.filter(club_id=club_id).update(updated_at=timezone.now())


def player_pages_changed(player_id: int) -> None:
    """Every tournament the player entered (or plays in as a teammate) shows their new
    name."""
    Tournament.objects.filter(
        Q(registrations__player_id=player_id) | Q(registrations__partner_id=player_id)
    ).update(updated_at=timezone.now())
