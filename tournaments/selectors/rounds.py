"""The round page's reads: a tournament's rounds, a round's tables, whose row is the
viewer's, and what "pair again" does to a round (the pairings as pages of rows:
``selectors.pairings``)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from django.db.models import Prefetch, QuerySet

from tournaments.models import (
    MATCH_ENTRANTS,
    FirstRoundPairing,
    Match,
    Registration,
    Round,
    SwissSettings,
    Tournament,
)
from tournaments.selectors import policies

if TYPE_CHECKING:
    pass


def tournament_rounds(tournament: Tournament) -> QuerySet[Round]:
    """The tournament's rounds in order, each with its stage (1 query)."""
    return tournament.rounds.select_related("stage").order_by("number")


def current_round(tournament: Tournament) -> Round | None:
    """The tournament's latest round, with its stage (what the round controls ask)."""
    return tournament.rounds.select_related("stage").order_by("-number").first()


def round_matches(rnd: Round) -> QuerySet[Match]:
    """A round's matches with both entrants' names (1 query)."""
    return rnd.matches.select_related(*MATCH_ENTRANTS).order_by("table")


def rounds_with_matches(tournament: Tournament) -> list[tuple[Round, list[Match]]]:
    """Every round in order with its matches by table and both entrants' names: 2 queries
    whatever the number of rounds."""
    matches = Match.objects.select_related(*MATCH_ENTRANTS).order_by("table")
    rounds = tournament.rounds.order_by("number").prefetch_related(
        Prefetch("matches", queryset=matches)
    )
    return [(rnd, list(rnd.matches.all())) for rnd in rounds]


def entrant_of(user_id: int | None, registrations: Iterable[Registration | None]) -> int | None:
    """The id of the registration ``user_id`` plays for among ``registrations`` (the
    viewer's own row, to highlight: the player's, or either member's of a team), else
    None. No query: the registrations were read with their players and partners."""
    if user_id is None:
        return None
    return next((r.pk for r in registrations if r is not None and r.has_member(user_id)), None)


# --- pairing a round again ----------------------------------------------------------------


@dataclass(frozen=True)
class PairAgain:
    """What "pair again" does to a round: draws round 1 anew (random round 1), or
    recomputes the engine's pairing (later rounds, round 1 by rating)."""

    number: int
    redraws: bool


def pair_again_of(rnd: Round) -> PairAgain:
    """For the round page's button (one query: the round's round-1 method)."""
    first_round = (
        SwissSettings.objects.filter(stage_id=rnd.stage_id)
        .values_list("first_round", flat=True)
        .first()
        or FirstRoundPairing.RANDOM
    )
    return PairAgain(
        number=rnd.number,
        redraws=policies.pair_again_draws_anew(number=rnd.number, first_round=first_round),
    )
