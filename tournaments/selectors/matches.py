"""A match as its page and the API read it (with its reports), the player's match to
play now, and a pod's seats in order.

The player's own rows are found through :func:`entrants_of`, the registrations they play
for, looked up by index: a test on the registration's joined player (``player__user_id``
or ``partner__user_id``, an OR across two joins) made the database read every seat of the
tournament, 2,048 at a big event, for the one seat of the player (issue 24)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django.db.models import Prefetch, Q, QuerySet, Subquery, prefetch_related_objects

from core.compiled import rows
from tournaments import formats
from tournaments.models import (
    MATCH_ENTRANTS,
    Match,
    MatchSeat,
    MatchStatus,
    Player,
    Registration,
    ResultReport,
    Round,
    Tournament,
)
from tournaments.selectors.rounds import current_round

if TYPE_CHECKING:
    from core.auth import AnyUser


def match_for_page(pk: int) -> Match | None:
    """A match with what its page and the API show: players, tournament, reports (with who
    sent them). Two queries; not ``.first()``, which would sort the one row by its key."""
    rows = list(
        Match.objects.select_related("round__tournament__club", "round__stage", *MATCH_ENTRANTS)
        .prefetch_related(
            Prefetch("reports", queryset=ResultReport.objects.select_related("reported_by"))
        )
        .filter(pk=pk)[:1]
    )
    return rows[0] if rows else None


def with_current_reports(match: Match) -> Match:
    """``match`` with its current reports (``match.reports.all()``), one query: for the
    answer to a result post, whose match the service has just read."""
    prefetch_related_objects(
        [match], Prefetch("reports", queryset=ResultReport.objects.filter(current=True))
    )
    return match


def entrants_of(user_id: int) -> QuerySet[Registration, Any]:
    """The ids of the registrations ``user_id`` plays for (as ``member_of_entrant``: the
    player, or a team's accepted teammate), as a subquery the database answers from the
    registration's indexes: the user's player is one scalar lookup, then its
    registrations by ``player_id`` or ``partner_id``."""
    player = Subquery(Player.objects.filter(user_id=user_id).values("pk")[:1])
    return Registration.objects.filter(
        Q(player_id=player) | Q(partner_id=player, partner_accepted_at__isnull=False)
    ).values("pk")


def _latest_seats(user_id: int, tournament_id: int) -> QuerySet[MatchSeat, Any]:
    """The user's latest four seats in the tournament: match, its status, the round's
    number and the tournament's latest round number."""
    latest = Round.objects.filter(tournament_id=tournament_id).order_by("-number").values("number")
    return (
        MatchSeat.objects.filter(
            registration_id__in=entrants_of(user_id), round__tournament_id=tournament_id
        )
        .annotate(latest=Subquery(latest[:1]))
        .order_by("-round__number")
        .values_list("match_id", "match__status", "round__number", "latest")[:4]
    )


def current_match_id_of(user: AnyUser, tournament: Tournament | int) -> int | None:
    """The id of :func:`current_match_of`'s match, in one query (the user's latest seats
    with their matches' states and the tournament's latest round number): where "my
    match" leads, which needs nothing else of the match. ``tournament``: the row or its
    id."""
    if not user.is_authenticated:
        return None
    tournament_id = tournament if isinstance(tournament, int) else tournament.pk
    seats = rows("matches.current_match_id", _latest_seats, user.pk, tournament_id)
    unplayed = next((s for s in seats if s[1] != MatchStatus.CONFIRMED), None)
    if unplayed is not None:
        return unplayed[0]
    if seats and seats[0][2] == seats[0][3]:
        return seats[0][0]
    return None


def current_match_of(
    user: AnyUser, tournament: Tournament, *, latest: Round | None = None
) -> Match | None:
    """The user's match to play now: their unconfirmed one (in a double elimination it can
    be in an earlier round than the latest), else theirs in the tournament's latest round
    (``latest``: that round, when the caller has read it already)."""
    if not user.is_authenticated:
        return None
    rnd = latest or current_round(tournament)
    if rnd is None:
        return None
    seats = list(
        MatchSeat.objects.select_related("match")
        .filter(registration_id__in=entrants_of(user.pk), round__tournament=tournament)
        .order_by("-round__number")[:4]
    )
    unplayed = next((s for s in seats if s.match.status != MatchStatus.CONFIRMED), None)
    if unplayed is not None:
        return match_for_page(unplayed.match_id)
    if seats and seats[0].round_id == rnd.pk:
        return match_for_page(seats[0].match_id)
    return None


def pod_seats_prefetch(*, users: bool = False) -> Prefetch[Any]:
    """A pod's seats in order as ``match.pod_seats``, with their players and partners (and
    their accounts: ``users``); empty for a match of a two-sided stage (its pages say
    ``a`` and ``b``)."""
    related = ["registration__player", "registration__partner"]
    if users:
        related += ["registration__player__user", "registration__partner__user"]
    return Prefetch(
        "seats",
        queryset=MatchSeat.objects.filter(
            match__round__stage__kind__in=formats.kinds(lambda f: f.many_seats)
        )
        .select_related(*related)
        .order_by("position"),
        to_attr="pod_seats",
    )
