"""A tournament's version: what its public pages are cached and validated by
(``core.page_cache``; docs/architecture.md, "Pages a proxy can cache").

The version is the newest entry of the tournament's event feed (its id and time) and the
tournament row's ``updated_at``, read in one query with the visibility check, through the
feed's ``(tournament, id)`` index. A write costs nothing for it: every change a public
page shows either records an event (a report, a confirmation, a round paired, started,
timed or complete, a stage started, the tournament started or finished) or is a rarer
edit that touches ``updated_at`` in its service's transaction
(``tournaments.services.page_versions``: registrations, drops, re-pairing, swaps, team
names, stages added or completed, the announcement, fixed tables, settings, a player's
new name, the club's time zone, its members' roles).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING, Any

from django.db.models import OuterRef, QuerySet, Subquery

from core.compiled import rows
from core.models import Event
from core.page_cache import PageVersion
from tournaments.models import Membership, Tournament
from tournaments.selectors.matches import match_to_play, play_now
from tournaments.selectors.tournaments import _visible_to_id

if TYPE_CHECKING:
    from core.auth import AnyUser


def _version_row(pk: int, user_id: int | None = None) -> QuerySet[Tournament, Any]:
    """Tournament ``pk``'s ``updated_at`` and newest event (id, time), if the user (by id;
    None: anonymous) may see it; compiled once a thread (``core.compiled``)."""
    found: Any = Tournament.objects.filter(_visible_to_id(user_id), pk=pk)
    return found.annotate(**_newest_event()).values_list("updated_at", "event_id", "event_at")[:1]


def _newest_event() -> dict[str, Any]:
    """Annotations of a tournament row: its feed's newest event, id and time."""
    newest = Event.objects.filter(tournament=OuterRef("pk")).order_by("-id")
    return {
        "event_id": Subquery(newest.values("id")[:1]),
        "event_at": Subquery(newest.values("created_at")[:1]),
    }


def tournament_version(user: AnyUser, pk: int) -> PageVersion | None:
    """The version of tournament ``pk``'s pages, or ``None`` when ``user`` may not see it
    (the page answers 404 as it always did). One query."""
    if user.is_authenticated:
        found = rows("page_versions.tournament.user", _version_row, pk, user.pk)
    else:
        found = rows("page_versions.tournament.anonymous", _version_row, pk)
    if not found:
        return None
    return _version(pk, *found[0])


def _version(
    pk: int, updated_at: datetime, event_id: int | None, event_at: datetime | None
) -> PageVersion:
    changed_at = max(updated_at, event_at) if event_at is not None else updated_at
    return PageVersion(
        tag=f"t{pk}.e{event_id or 0}.u{updated_at.timestamp():.6f}", changed_at=changed_at
    )


@dataclass(frozen=True)
class ReaderTournament:
    """What a signed-in reader's tournament page asks first, read in one query: the
    tournament with its club (if they may see it), its pages' version, the reader's role
    in its club and their match to play now (``matches.play_now``). The page's header
    asked each of these separately (four queries on every page every player opens at a
    round's start)."""

    user_id: int
    tournament: Tournament
    version: PageVersion
    role: str | None
    my_match_id: int | None


def _reader_row(pk: int, user_id: int) -> QuerySet[Tournament]:
    role = Membership.objects.filter(club=OuterRef("club_id"), user_id=user_id)
    return (
        Tournament.objects.select_related("club")
        .filter(_visible_to_id(user_id), pk=pk)
        .annotate(
            **_newest_event(),
            reader_role=Subquery(role.values("role")[:1]),
            **play_now(user_id),
        )
        .order_by()
    )


def reader_tournament(user: AnyUser, pk: int) -> ReaderTournament | None:
    """Tournament ``pk`` as a signed-in ``user``'s page reads it first (None: it is not
    there or they may not see it). One query, compiled once a thread."""
    user_id = user.pk
    assert user_id is not None, "a signed-in reader's"
    found = rows("page_versions.reader", _reader_row, pk, user_id)
    if not found:
        return None
    tournament: Any = found[0]
    return ReaderTournament(
        user_id=user_id,
        tournament=tournament,
        version=_version(pk, tournament.updated_at, tournament.event_id, tournament.event_at),
        role=tournament.reader_role,
        my_match_id=match_to_play(tournament),
    )
