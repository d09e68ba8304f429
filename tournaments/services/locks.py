"""The tournament app's row locks, each taken the one way, in ``core.locks``' order:
tournament → stage → round → match → registration.

Services call these (never ``select_for_update`` themselves), so what a transaction locks,
and in which order, can be read here.
"""

from __future__ import annotations

from django.db.models import QuerySet
from django.utils.translation import gettext

from core.errors import NotFound
from core.locks import lock_by_key, lock_one, lock_shared_by_key
from tournaments.models import Match, Registration, Round, Tournament


def lock_tournament(tournament_id: int) -> Tournament:
    """The tournament's row, with its club (not locked)."""
    tournament = lock_one(Tournament, related=("club",), pk=tournament_id)
    if tournament is None:
        raise NotFound(gettext("No such tournament."))
    return tournament


def lock_round(round_id: int) -> Round:
    """A round's row, with its tournament and club (not locked)."""
    rnd = lock_one(Round, related=("tournament__club",), pk=round_id)
    if rnd is None:
        raise NotFound(gettext("No such round."))
    return rnd


#: What a result write reads with its match (:func:`lock_match`).
_MATCH_READS = (
    "round__tournament__club",
    "round__stage__swiss",
    "a__player",
    "b__player",
    "a__partner",
    "b__partner",
)


def _round_of_match(match_id: int) -> QuerySet[Round]:
    return Round.objects.filter(pk__in=Match.objects.filter(pk=match_id).values("round_id"))


def lock_match(match_id: int) -> Match:
    """The match's round, shared, then the match (the order every result write uses:
    ``core.locks``). The match comes with its round, the round's tournament, club, stage
    and Swiss settings (what a result write reads: the game, the game options, the round's
    status, which nobody can change while the round is shared) and its entrants."""
    # The round found through the match in the same statement (a subquery's rows are read,
    # not locked): two statements, not three. Both compiled once (``core.locks``: the
    # match's join of a dozen tables cost more to compile than to run, each report).
    if not lock_shared_by_key("round of a match", _round_of_match, Match, match_id):
        raise NotFound(gettext("No such match."))
    match = lock_by_key(Match, match_id, related=_MATCH_READS)
    if match is None:  # deleted between the two statements (a re-pair)
        raise NotFound(gettext("No such match."))
    return match


def lock_registration(registration_id: int) -> Registration:
    """A registration, with its player and tournament (not locked)."""
    registration = lock_one(
        Registration, related=("player", "partner", "tournament"), pk=registration_id
    )
    if registration is None:
        raise NotFound(gettext("No such registration."))
    return registration
