"""A match as its page and the API read it (with its reports), the player's match to
play now, and a pod's seats in order.

The player's own rows are found through :func:`entrants_of`, the registrations they play
for, looked up by index: a test on the registration's joined player (``player__user_id``
or ``partner__user_id``, an OR across two joins) made the database read every seat of the
tournament, 2,048 at a big event, for the one seat of the player (issue 24)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django.db.models import (
    OuterRef,
    Prefetch,
    Q,
    QuerySet,
    Subquery,
    prefetch_related_objects,
)

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


def _my_seats(user_id: int) -> QuerySet[MatchSeat]:
    """The user's seats in the outer query's tournament (a subquery's rows)."""
    return MatchSeat.objects.filter(
        registration_id__in=entrants_of(user_id), round__tournament=OuterRef("pk")
    )


def play_now(user_id: int) -> dict[str, Any]:
    """Annotations of a ``Tournament`` queryset that find the user's match to play now by
    index, whatever the size of the event: ``latest_round`` (the tournament's latest round
    number), ``open_match`` (the user's latest unconfirmed match: in a double elimination
    it can be in an earlier round than the latest) and ``last_match`` (theirs in the latest
    round). The match is ``open_match or last_match`` (:func:`current_match_id_of`'s rule,
    the home's cards and the tabs' "My match" alike)."""
    return {
        "latest_round": Subquery(
            Round.objects.filter(tournament=OuterRef("pk")).order_by("-number").values("number")[:1]
        ),
        "open_match": Subquery(
            _my_seats(user_id)
            .exclude(match__status=MatchStatus.CONFIRMED)
            .order_by("-round__number")
            .values("match_id")[:1]
        ),
        "last_match": Subquery(
            _my_seats(user_id).filter(round__number=OuterRef("latest_round")).values("match_id")[:1]
        ),
    }


def match_to_play(row: Any) -> int | None:
    """The match to play now of a row annotated with :func:`play_now`: the rule in one
    place (their latest unconfirmed match, else theirs in the latest round)."""
    return row.open_match or row.last_match


def _play_now_of(user_id: int, tournament_ids: list[int]) -> QuerySet[Tournament]:
    found: Any = Tournament.objects.filter(pk__in=tournament_ids).annotate(**play_now(user_id))
    return found.order_by().only("pk")


def matches_to_play(user_id: int, tournament_ids: list[int]) -> dict[int, int]:
    """Tournament id -> the user's match to play now, for those of ``tournament_ids``
    where they have one: one query (:func:`play_now` on the tournaments' rows), compiled
    once a thread."""
    found = rows("matches.to_play", _play_now_of, user_id, sorted(tournament_ids))
    return {row.pk: match for row in found if (match := match_to_play(row))}


def current_match_id_of(user: AnyUser, tournament: Tournament | int) -> int | None:
    """The id of :func:`current_match_of`'s match, in one query (:func:`matches_to_play`):
    where "my match" leads, which needs nothing else of the match. ``tournament``: the
    row or its id."""
    if not user.is_authenticated:
        return None
    tournament_id = tournament if isinstance(tournament, int) else tournament.pk
    return matches_to_play(user.pk, [tournament_id]).get(tournament_id)


def current_match_of(user: AnyUser, tournament: Tournament) -> Match | None:
    """The user's match to play now, as its page reads it (:func:`match_for_page`): their
    latest unconfirmed one (in a double elimination it can be in an earlier round than
    the latest), else theirs in the tournament's latest round (:func:`play_now`)."""
    match_id = current_match_id_of(user, tournament)
    return None if match_id is None else match_for_page(match_id)


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
